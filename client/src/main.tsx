import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { lerCopiasDeAbertura } from './app/copiasDeAbertura';
import { definirNavegacao } from './app/navegacao';
import { criarQueryClient, Provedores } from './app/Provedores';
import { esperaDoPrimeiroDesenho } from './app/primeiroDesenho';
import { criarRoteador, precarregarTelaInicial } from './app/rotas';
import { lerUsuarioSalvo } from './auth/sessaoLocal';
import { hojeNoApp } from './config/configApp';
import { carregarSync } from './offline/estado';
import { escutarInstalacao } from './pwa/instalacao';
import './styles/global.css';

escutarInstalacao();
// The opening screen's code on its way at once (app/rotas.tsx).
const salvo = lerUsuarioSalvo();
const codigoDaTela = precarregarTelaInicial(window.location.pathname, salvo?.tipo ?? null);
// Someone signed in: the sync engine and the device's data on their way too (the login screen waits for idle).
if (salvo) void carregarSync().catch(() => undefined);
const consultas = criarQueryClient();
// An employee: the opening screen's copies read from IndexedDB into its queries (app/copiasDeAbertura.ts).
// Today's date only when a copy needs it (an Intl format: the first one starts ICU, shared/aoPrimeiroUso.ts).
const caminho = window.location.pathname;
const copias = salvo?.tipo === 'funcionario' ? lerCopiasDeAbertura(caminho === '/' ? '/dashboard' : caminho, salvo.id, hojeNoApp, consultas) : null;
const roteador = criarRoteador();
definirNavegacao((endereco) => void roteador.navigate(endereco));

function desenhar() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provedores queryClient={consultas}>
        <RouterProvider router={roteador} />
      </Provedores>
    </StrictMode>,
  );
}
// The installed app with a session draws once, the screen with its data (app/primeiroDesenho.ts); else at once.
const espera = esperaDoPrimeiroDesenho({
  comSessao: salvo !== null,
  controlado: !!navigator.serviceWorker?.controller,
  pecas: copias ? [codigoDaTela, copias] : [codigoDaTela],
});
if (espera) void espera.then(desenhar);
else desenhar();
