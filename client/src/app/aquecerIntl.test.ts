/**
 * The Intl warm-up (client/public/aquecer-intl.js), a plain script index.html loads before the app:
 * on the page it starts itself as a worker; in the worker it uses the app's kinds of formats and ends.
 * Run here as the browser would, in a context of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

const ARQUIVO = path.resolve(__dirname, '../../public/aquecer-intl.js');
const codigo = fs.readFileSync(ARQUIVO, 'utf8');
const URL_DO_ARQUIVO = 'https://gestao.exemplo.com.br/aquecer-intl.js';

describe('aquecimento do Intl', () => {
  it('index.html o carrega antes do app, sem segurar a página (async)', () => {
    const html = fs.readFileSync(path.resolve(__dirname, '../../index.html'), 'utf8');
    const script = html.indexOf('<script async src="/aquecer-intl.js"></script>');
    expect(script).toBeGreaterThan(-1);
    expect(script).toBeLessThan(html.indexOf('<script type="module"'));
  });

  it('na página: inicia a si mesmo como worker, uma vez', () => {
    const Worker = vi.fn();
    vm.runInNewContext(codigo, { document: { currentScript: { src: URL_DO_ARQUIVO } }, Worker });
    expect(Worker).toHaveBeenCalledTimes(1);
    expect(Worker).toHaveBeenCalledWith(URL_DO_ARQUIVO, { name: 'aquecer-intl' });
  });

  it('na página: sem workers, ou com o worker recusado, não falha (o app formata como antes)', () => {
    expect(() => vm.runInNewContext(codigo, { document: { currentScript: { src: URL_DO_ARQUIVO } } })).not.toThrow();
    const recusado = vi.fn(() => {
      throw new Error('Refused to create a worker');
    });
    expect(() => vm.runInNewContext(codigo, { document: { currentScript: { src: URL_DO_ARQUIVO } }, Worker: recusado })).not.toThrow();
  });

  it('no worker: usa os formatos do app (datas no fuso, dinheiro, números e nomes em pt-BR) e termina', () => {
    const criados: string[] = [];
    const espiao = (nome: 'DateTimeFormat' | 'NumberFormat' | 'Collator') =>
      function (...args: unknown[]) {
        criados.push(`${nome} ${String(args[0])}`);
        return new (Intl[nome] as unknown as new (...a: unknown[]) => object)(...args);
      };
    const close = vi.fn();
    const contexto = { Intl: { DateTimeFormat: espiao('DateTimeFormat'), NumberFormat: espiao('NumberFormat'), Collator: espiao('Collator') }, Date, close };
    vm.runInNewContext(codigo, { ...contexto, self: contexto });
    expect(criados.sort()).toEqual(['Collator pt-BR', 'DateTimeFormat en-CA', 'DateTimeFormat pt-BR', 'NumberFormat pt-BR', 'NumberFormat pt-BR']);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('no worker: termina, sem erro, mesmo se um formato falhar', () => {
    const close = vi.fn();
    const quebrado = function () {
      throw new RangeError('Incorrect locale information provided');
    };
    const contexto = { Intl: { DateTimeFormat: quebrado, NumberFormat: quebrado, Collator: quebrado }, Date, close };
    expect(() => vm.runInNewContext(codigo, { ...contexto, self: contexto })).not.toThrow();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
