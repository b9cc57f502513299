import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { Provedores } from './app/Provedores';
import { criarRoteador, precarregarTelaInicial } from './app/rotas';
import { lerUsuarioSalvo } from './auth/sessaoLocal';
import { hojeNoApp } from './config/configApp';
import { carregarSync } from './offline/estado';
import { escutarInstalacao } from './pwa/instalacao';
import './styles/global.css';

escutarInstalacao();
// Issue 19: the opening screen's code on its way while React draws the shell (app/rotas.tsx).
const salvo = lerUsuarioSalvo();
void precarregarTelaInicial(window.location.pathname, salvo?.tipo ?? null);
// Someone signed in: the sync engine and the device's data on their way too (the login screen waits for idle).
if (salvo) void carregarSync().catch(() => undefined);
// An employee: the opening screen's copies read from IndexedDB while React draws (app/copiasDeAbertura.ts).
if (salvo?.tipo === 'funcionario') {
  const caminho = window.location.pathname;
  void import('./app/copiasDeAbertura').then((m) => m.lerCopiasDeAbertura(caminho === '/' ? '/dashboard' : caminho, salvo.id, hojeNoApp())).catch(() => undefined);
}
const roteador = criarRoteador();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provedores>
      <RouterProvider router={roteador} />
    </Provedores>
  </StrictMode>,
);
