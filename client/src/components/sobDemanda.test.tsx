import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { avisoNoLugarDaTela, ESPERAS_NOVA_TENTATIVA_MS, MENSAGEM_TELA_COM_DEFEITO, MENSAGEM_TELA_NAO_GUARDADA, sobDemanda } from './sobDemanda';

/** A screen whose code downloads but throws when drawn, counting its tries. */
function telaQuebrada() {
  let desenhos = 0;
  const Tela = sobDemanda(
    async () =>
      function Quebrada(): never {
        desenhos += 1;
        throw new Error('defeito da tela');
      },
    { alternativa: avisoNoLugarDaTela },
  );
  return { Tela, desenhos: () => desenhos };
}

describe('sobDemanda', () => {
  it('um pedaço que não baixou (sem sinal) mostra o aviso sem derrubar o resto do app, e carrega quando o sinal volta', async () => {
    let tentativas = 0;
    const Tela = sobDemanda(
      async () => {
        tentativas += 1;
        if (tentativas === 1) throw new TypeError('Failed to fetch dynamically imported module');
        return ({ nome }: { nome: string }) => <p>Tela de {nome}</p>;
      },
      { alternativa: avisoNoLugarDaTela },
    );
    // Stands for the sync engine started by the app's providers: it must never be unmounted.
    const vivos: string[] = [];
    function Vizinho() {
      useEffect(() => {
        vivos.push('montado');
        return () => void vivos.push('desmontado');
      }, []);
      return <p>Fila</p>;
    }
    render(
      <>
        <Vizinho />
        <Tela nome="Vendas" />
      </>,
    );
    expect(await screen.findByText(MENSAGEM_TELA_NAO_GUARDADA)).toBeInTheDocument();
    expect(screen.getByText('Fila')).toBeInTheDocument();

    await act(async () => window.dispatchEvent(new Event('online')));
    expect(await screen.findByText('Tela de Vendas')).toBeInTheDocument();
    expect(tentativas).toBe(2);
    expect(vivos).toEqual(['montado']);
  });

  it('"Tentar de novo" carrega de novo; um pedaço opcional que falha não mostra nada', async () => {
    let falhar = true;
    const Tela = sobDemanda(
      async () => {
        if (falhar) throw new TypeError('Failed to fetch dynamically imported module');
        return () => <p>Carregou</p>;
      },
      { alternativa: avisoNoLugarDaTela },
    );
    const Opcional = sobDemanda(async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { container } = render(
      <div>
        <Tela />
        <span data-testid="opcional">
          <Opcional />
        </span>
      </div>,
    );
    await screen.findByText(MENSAGEM_TELA_NAO_GUARDADA);
    expect(screen.getByTestId('opcional')).toBeEmptyDOMElement();
    falhar = false;
    await userEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }));
    expect(await screen.findByText('Carregou')).toBeInTheDocument();
    expect(container).toBeInTheDocument();
  });

  it('uma tela que baixou e quebra ao desenhar diz isso (não "não foi guardada"), registra o erro e desenha de novo no "Tentar de novo"', async () => {
    const registrados: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void registrados.push(args));
    let quebrada = true;
    const Tela = sobDemanda(
      async () =>
        function Tela() {
          if (quebrada) throw new Error('defeito da tela');
          return <p>Tela inteira</p>;
        },
      { alternativa: avisoNoLugarDaTela },
    );
    render(<Tela />);
    const aviso = await screen.findByRole('alert');
    expect(aviso).toHaveTextContent(MENSAGEM_TELA_COM_DEFEITO);
    expect(screen.queryByText(MENSAGEM_TELA_NAO_GUARDADA)).not.toBeInTheDocument();
    expect(registrados.some((r) => Array.isArray(r) && r[0] === 'Erro ao mostrar a tela:' && (r[1] as Error).message === 'defeito da tela')).toBe(true);

    quebrada = false;
    await userEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }));
    expect(await screen.findByText('Tela inteira')).toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it('código já baixado (precarregar) aparece no primeiro desenho, sem passar pela espera', async () => {
    let carregamentos = 0;
    const Tela = sobDemanda(
      async () => {
        carregamentos += 1;
        return ({ nome }: { nome: string }) => <p>Tela de {nome}</p>;
      },
      { espera: <p>Carregando tela</p> },
    );
    await Tela.precarregar();
    render(<Tela nome="Vendas" />);
    expect(screen.getByText('Tela de Vendas')).toBeInTheDocument();
    expect(screen.queryByText('Carregando tela')).not.toBeInTheDocument();
    // The download made for the preload is the one the screen uses.
    expect(carregamentos).toBe(1);
  });

  it('sem precarregar: a espera, depois a tela, com um download só para duas cópias na tela', async () => {
    let carregamentos = 0;
    let liberar!: () => void;
    const chegou = new Promise<void>((ok) => (liberar = ok));
    const Tela = sobDemanda(
      async () => {
        carregamentos += 1;
        await chegou;
        return ({ nome }: { nome: string }) => <p>Tela de {nome}</p>;
      },
      { espera: <p>Carregando tela</p> },
    );
    render(
      <>
        <Tela nome="A" />
        <Tela nome="B" />
      </>,
    );
    expect(screen.getAllByText('Carregando tela')).toHaveLength(2);
    await act(async () => liberar());
    expect(await screen.findByText('Tela de A')).toBeInTheDocument();
    expect(screen.getByText('Tela de B')).toBeInTheDocument();
    expect(screen.queryByText('Carregando tela')).not.toBeInTheDocument();
    expect(carregamentos).toBe(1);
  });

  describe('sem o evento online', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    /** Lets the timers run `ms` and React draw what they caused. */
    const passar = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

    it('o sinal volta sem o evento (túnel, sinal fraco): a tela tenta de novo sozinha, cada vez mais espaçado, e abre', async () => {
      vi.useFakeTimers();
      let tentativas = 0;
      const Tela = sobDemanda(
        async () => {
          tentativas += 1;
          if (tentativas < 3) throw new TypeError('Failed to fetch dynamically imported module');
          return () => <p>Minhas Rotas</p>;
        },
        { alternativa: avisoNoLugarDaTela },
      );
      render(<Tela />);
      await passar(0);
      expect(screen.getByText(MENSAGEM_TELA_NAO_GUARDADA)).toBeInTheDocument();
      expect(tentativas).toBe(1);

      await passar(ESPERAS_NOVA_TENTATIVA_MS[0]! - 1);
      expect(tentativas).toBe(1);
      await passar(1);
      expect(tentativas).toBe(2);
      expect(screen.getByText(MENSAGEM_TELA_NAO_GUARDADA)).toBeInTheDocument();

      // The second wait is longer than the first.
      await passar(ESPERAS_NOVA_TENTATIVA_MS[0]!);
      expect(tentativas).toBe(2);
      await passar(ESPERAS_NOVA_TENTATIVA_MS[1]! - ESPERAS_NOVA_TENTATIVA_MS[0]!);
      expect(tentativas).toBe(3);
      expect(screen.getByText('Minhas Rotas')).toBeInTheDocument();
      expect(screen.queryByText(MENSAGEM_TELA_NAO_GUARDADA)).not.toBeInTheDocument();

      // Loaded: nothing is tried any more.
      await passar(10 * ESPERAS_NOVA_TENTATIVA_MS.at(-1)!);
      expect(tentativas).toBe(3);
    });

    it('sem sinal para o navegador, nenhum download é tentado; fora da tela, nada mais é tentado', async () => {
      vi.useFakeTimers();
      const semSinal = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      let tentativas = 0;
      const Tela = sobDemanda(
        async () => {
          tentativas += 1;
          throw new TypeError('Failed to fetch dynamically imported module');
        },
        { alternativa: avisoNoLugarDaTela },
      );
      const { unmount } = render(<Tela />);
      await passar(0);
      await passar(5 * ESPERAS_NOVA_TENTATIVA_MS.at(-1)!);
      expect(tentativas).toBe(1);

      semSinal.mockReturnValue(true);
      await passar(ESPERAS_NOVA_TENTATIVA_MS.at(-1)!);
      expect(tentativas).toBe(2);

      unmount();
      await passar(10 * ESPERAS_NOVA_TENTATIVA_MS.at(-1)!);
      expect(tentativas).toBe(2);
    });

    it('uma tela que baixou mas falha ao desenhar não é tentada de novo sozinha', async () => {
      vi.useFakeTimers();
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const quebrada = telaQuebrada();
      render(<quebrada.Tela />);
      await passar(0);
      expect(screen.getByText(MENSAGEM_TELA_COM_DEFEITO)).toBeInTheDocument();
      const antes = quebrada.desenhos();
      await passar(5 * ESPERAS_NOVA_TENTATIVA_MS.at(-1)!);
      expect(quebrada.desenhos()).toBe(antes);
    });

    it('uma tela com defeito não é desenhada de novo quando o sinal volta (o evento online): só no "Tentar de novo"', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const quebrada = telaQuebrada();
      render(<quebrada.Tela />);
      expect(await screen.findByText(MENSAGEM_TELA_COM_DEFEITO)).toBeInTheDocument();
      const antes = quebrada.desenhos();
      await act(async () => window.dispatchEvent(new Event('online')));
      expect(quebrada.desenhos()).toBe(antes);
      expect(screen.getByText(MENSAGEM_TELA_COM_DEFEITO)).toBeInTheDocument();
    });
  });
});
