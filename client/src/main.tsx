import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { lerCopiasDeAbertura } from './app/copiasDeAbertura';
import { criarQueryClient, Provedores } from './app/Provedores';
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
const consultas = criarQueryClient();
// An employee: the opening screen's copies read from IndexedDB into its queries while React draws (app/copiasDeAbertura.ts).
// Today's date only when a copy needs it (an Intl format: the first one starts ICU, shared/aoPrimeiroUso.ts).
if (salvo?.tipo === 'funcionario') {
  const caminho = window.location.pathname;
  void lerCopiasDeAbertura(caminho === '/' ? '/dashboard' : caminho, salvo.id, hojeNoApp, consultas);
}
const roteador = criarRoteador();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provedores queryClient={consultas}>
      <RouterProvider router={roteador} />
    </Provedores>
  </StrictMode>,
);
