import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The time-zone table the server sends with /api/config (shared/fusos.ts): kept with the rest of the
 * config and used at once, so dates are written without Intl from the app's first screen. A table that
 * says UTC for São Paulo is a lie on purpose: what the screen shows tells which one was read.
 */
const MEIO_DIA_UTC = '2026-11-29T12:00:00.000Z';
const tabelaUtc = (fuso: string) => ({ fuso, de: Date.parse('2026-01-01T00:00:00Z'), ate: Date.parse('2028-01-01T00:00:00Z'), trechos: [[Date.parse('2026-01-01T00:00:00Z'), 0]] });

async function abrirApp() {
  vi.resetModules();
  const config = await import('./configApp');
  const datas = await import('../../../shared/dates');
  return { config, datas };
}

describe('configApp: a tabela do fuso', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    localStorage.clear();
    vi.doUnmock('../api/client');
  });

  it('sem cópia guardada, a hora em APP_TZ é a de sempre (tabela da compilação ou Intl)', async () => {
    const { datas } = await abrirApp();
    expect(datas.formatarHora(MEIO_DIA_UTC, 'America/Sao_Paulo')).toBe('09:00');
  });

  it('a tabela guardada com a config vale desde a abertura do app', async () => {
    localStorage.setItem('config', JSON.stringify({ centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', fuso_tabela: tabelaUtc('America/Sao_Paulo'), versao: '1' }));
    const { config, datas } = await abrirApp();
    expect(datas.formatarHora(MEIO_DIA_UTC, config.fusoDoApp())).toBe('12:00');
    expect(datas.dataNoFuso(new Date('2026-11-30T01:00:00Z'), config.fusoDoApp())).toBe('2026-11-30');
    // Outside its window Intl answers.
    expect(datas.formatarHora('2029-06-01T12:00:00.000Z', config.fusoDoApp())).toBe('09:00');
  });

  it('uma tabela de outro fuso, ou malformada, é ignorada', async () => {
    localStorage.setItem('config', JSON.stringify({ centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', fuso_tabela: tabelaUtc('America/Manaus'), versao: '1' }));
    let { datas } = await abrirApp();
    expect(datas.formatarHora(MEIO_DIA_UTC, 'America/Sao_Paulo')).toBe('09:00');
    localStorage.setItem('config', JSON.stringify({ centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', fuso_tabela: { ...tabelaUtc('America/Sao_Paulo'), trechos: [] }, versao: '1' }));
    ({ datas } = await abrirApp());
    expect(datas.formatarHora(MEIO_DIA_UTC, 'America/Sao_Paulo')).toBe('09:00');
  });

  it('a tabela que o servidor manda passa a valer na hora e fica guardada para a próxima abertura', async () => {
    vi.doMock('../api/client', () => ({
      api: { get: async () => ({ centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', fuso_tabela: tabelaUtc('America/Sao_Paulo'), versao: '2' }) },
    }));
    const { config, datas } = await abrirApp();
    expect(datas.formatarHora(MEIO_DIA_UTC, config.fusoDoApp())).toBe('09:00');
    const consultas = new QueryClient();
    const { result } = renderHook(() => config.useConfigApp(), { wrapper: ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: consultas }, children) });
    await waitFor(() => expect(result.current.versao).toBe('2'));
    expect(datas.formatarHora(MEIO_DIA_UTC, config.fusoDoApp())).toBe('12:00');
    expect(JSON.parse(localStorage.getItem('config')!).fuso_tabela).toEqual(tabelaUtc('America/Sao_Paulo'));
  });
});
