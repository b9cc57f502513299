import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { Provedores } from './app/Provedores';
import { criarRoteador } from './app/rotas';
import './offline/operacoes';
import './styles/global.css';

const roteador = criarRoteador();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provedores>
      <RouterProvider router={roteador} />
    </Provedores>
  </StrictMode>,
);
