import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { esquecerCopiasDeAbertura } from '../app/copiasDeAbertura';
import { encerrarJanelaDaPassada } from '../offline/cache';
import { definirLarguraDaJanela, instalarMatchMedia } from './janela';

instalarMatchMedia();

// findBy*/waitFor wait for a state, not a time: on a loaded 2-core CI machine the default 1 s was
// seen to run out before a lazy screen's first render. Once here, never per test.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  definirLarguraDaJanela(1280);
  // Each test is a new opening of the app: no server read or boot read of the last one is reused.
  encerrarJanelaDaPassada();
  esquecerCopiasDeAbertura();
});
