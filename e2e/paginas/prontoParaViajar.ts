import type { Locator, Page } from 'playwright-core';

export type ItemViagemNaTela = 'rota' | 'vendas' | 'despesas' | 'saldo' | 'salario' | 'persistente' | 'espaco' | 'fila';

/** The 'Pronto para viajar' card of the employee's dashboard, as a person reads and uses it. */
export class CartaoViagem {
  constructor(private readonly pagina: Page) {}

  cartao(): Locator {
    return this.pagina.getByRole('region', { name: 'Pronto para viajar' });
  }

  async resumo(): Promise<string> {
    return ((await this.cartao().getByTestId('viagem-resumo').textContent()) ?? '').trim();
  }

  botao(): Locator {
    return this.cartao().getByRole('button', { name: /Atualizar tudo|Atualizando/ });
  }

  resultado(): Locator {
    return this.cartao().getByTestId('viagem-resultado');
  }

  semConexao(): Locator {
    return this.cartao().getByText('Sem conexão: conecte-se para atualizar');
  }

  /** Opens the list when the card shows it closed (everything ready). */
  async abrirLista() {
    const alternar = this.cartao().getByRole('button', { name: /Ver itens|Ocultar/ });
    if ((await alternar.getAttribute('aria-expanded')) === 'false') await alternar.click();
    await this.cartao().getByRole('list').waitFor();
  }

  /** Each line's state ('ok', 'aviso', 'falta'), by item. */
  async estados(): Promise<Record<ItemViagemNaTela, string>> {
    await this.abrirLista();
    const linhas = this.cartao().getByRole('listitem');
    const pares = await linhas.evaluateAll((ls) => ls.map((l) => [(l as HTMLElement).dataset.item, (l as HTMLElement).dataset.estado]));
    return Object.fromEntries(pares) as Record<ItemViagemNaTela, string>;
  }

  async textoDoItem(item: ItemViagemNaTela): Promise<string> {
    await this.abrirLista();
    return ((await this.cartao().locator(`[data-item="${item}"]`).textContent()) ?? '').replace(/\u00a0/g, ' ').trim();
  }
}
