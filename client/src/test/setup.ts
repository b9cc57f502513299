import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { definirLarguraDaJanela, instalarMatchMedia } from './janela';

instalarMatchMedia();

afterEach(() => {
  cleanup();
  localStorage.clear();
  definirLarguraDaJanela(1280);
});
