/**
 * On a repeat visit and a signed-in first load, the screen at the address the app opens on loads
 * with the app's own code, not after React has drawn the shell, and for a signed-in person its role's
 * part too (the page chooses the employee's or the admin's chunk only when it runs: a second wait).
 * The loaders are spied on: what is checked is which chunks are asked for (a page's own wrapper asks for
 * its chunk too, to mark it ready: the browser fetches each chunk once).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { carregar, precarregarTelaInicial } from './rotas';

let chamadas: string[] = [];
/** The chunks asked for, each once, in order. */
const pedidos = () => [...new Set(chamadas)];

beforeEach(() => {
  chamadas = [];
  for (const nome of Object.keys(carregar) as (keyof typeof carregar)[]) {
    vi.spyOn(carregar, nome).mockImplementation(() => {
      chamadas.push(nome);
      return Promise.resolve({}) as never;
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('precarregarTelaInicial', () => {
  it('a funcionária que abre em /vendas: a página e a parte dela, nunca a do admin', async () => {
    await precarregarTelaInicial('/vendas', 'funcionario');
    expect(pedidos().sort()).toEqual(['vendas', 'vendasFuncionario']);
  });

  it('o admin no dashboard: a parte do admin', async () => {
    await precarregarTelaInicial('/dashboard', 'admin');
    expect(pedidos().sort()).toEqual(['dashboard', 'dashboardAdmin']);
  });

  it('a raiz leva ao dashboard de quem está conectado', async () => {
    await precarregarTelaInicial('/', 'funcionario');
    expect(pedidos().sort()).toEqual(['dashboard', 'dashboardFuncionario']);
  });

  it('Despesas não se divide por papel: só a página', async () => {
    await precarregarTelaInicial('/despesas', 'funcionario');
    expect(pedidos()).toEqual(['despesas']);
  });

  it('sem sessão, qualquer endereço do app abre o login', async () => {
    await precarregarTelaInicial('/vendas', null);
    await precarregarTelaInicial('/login', null);
    expect(pedidos()).toEqual(['login']);
  });

  it('um endereço desconhecido, ou uma tela rara, não carrega nada a mais', async () => {
    await precarregarTelaInicial('/nao-existe', 'funcionario');
    await precarregarTelaInicial('/dashboard/extra', 'admin');
    await precarregarTelaInicial('/nao-existe', null);
    await precarregarTelaInicial('/senha', 'funcionario');
    expect(pedidos()).toEqual([]);
  });

  it('um pedaço que não baixa (sem sinal, ainda não guardado) não vira erro: a tela tenta de novo ao abrir', async () => {
    vi.spyOn(carregar, 'vendasFuncionario').mockImplementation(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    await expect(precarregarTelaInicial('/vendas', 'funcionario')).resolves.toBeUndefined();
    expect(pedidos()).toEqual(['vendas']);
    expect(carregar.vendasFuncionario).toHaveBeenCalledTimes(1);
  });
});
