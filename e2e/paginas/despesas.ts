import type { Locator, Page } from 'playwright-core';

export interface NovaDespesa {
  cidade?: string;
  tipo: string;
  valor: string;
  descricao?: string;
  arquivo?: { name: string; mimeType: string; buffer: Buffer };
}

/** 'Despesas', as the employee and the admin use it (table on the computer, cards with a menu on the phone). */
export class TelaDespesas {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/despesas`);
    await this.pagina.getByRole('heading', { name: 'Despesas', exact: true }).waitFor();
  }

  saldoConfirmado() {
    return this.pagina.getByTestId('saldo-confirmado');
  }

  saldoProjetado() {
    return this.pagina.getByTestId('saldo-projetado');
  }

  modal(titulo: string | RegExp = /Despesa$/) {
    return this.pagina.getByRole('dialog', { name: titulo });
  }

  async abrirNova() {
    await this.pagina.getByRole('button', { name: 'Nova Despesa' }).click();
    return this.modal('Nova Despesa');
  }

  /** Fills the open expense form; waits for the receipt to be prepared (reduced when large). */
  async preencher(modal: Locator, dados: NovaDespesa) {
    if (dados.cidade) {
      const cidade = modal.getByRole('combobox', { name: /Cidade/ });
      await cidade.click();
      await cidade.fill(dados.cidade.slice(0, 4));
      await modal.getByRole('option', { name: dados.cidade }).click();
    }
    await modal.getByLabel('Tipo de Despesa').selectOption({ label: dados.tipo });
    await modal.getByLabel('Valor (R$)').fill(dados.valor);
    if (dados.descricao) await modal.getByLabel('Descrição').fill(dados.descricao);
    if (dados.arquivo) {
      await modal.getByLabel('Cupom/Comprovante').setInputFiles(dados.arquivo);
      // Each receipt chosen is listed with its own 'Remover <nome>' (up to 5).
      await modal.getByRole('button', { name: /^Remover / }).first().waitFor();
    }
  }

  async registrar(modal: Locator) {
    await modal.getByRole('button', { name: 'Registrar' }).click();
    await modal.waitFor({ state: 'detached' });
  }

  /**
   * The row (computer) or card (phone) of an expense, found by a text in it (e.g. its description).
   * On the computer the description is on a line of its own under the row: that finds the row above it.
   */
  item(texto: string) {
    const literal = texto.includes('"') ? `'${texto}'` : `"${texto}"`;
    const acimaDaDescricao = `xpath=//tr[not(contains(@class, "tabela__linha-extra"))][following-sibling::tr[1][contains(@class, "tabela__linha-extra")][contains(., ${literal})]]`;
    return this.pagina.locator('tr:not(.tabela__linha-extra), li.cartao-despesa').filter({ hasText: texto }).or(this.pagina.locator(acimaDaDescricao));
  }

  /** Opens an action of an expense: the row's button on the computer, the card's menu on the phone. */
  async acao(texto: string, acao: 'Ver Detalhes' | 'Visualizar Cupom Fiscal' | 'Editar' | 'Excluir' | 'Aprovar' | 'Rejeitar') {
    const item = this.item(texto);
    const menu = item.getByRole('button', { name: /^Ações:/ });
    // One receipt: 'Visualizar cupom fiscal: ...'; several: 'Visualizar os 2 comprovantes: ...'.
    const direto =
      acao === 'Visualizar Cupom Fiscal'
        ? item.getByRole('button', { name: /^Visualizar (cupom fiscal|os \d+ comprovantes)/ })
        : item.getByRole('button', { name: new RegExp(`^${acao === 'Ver Detalhes' ? 'Ver detalhes' : acao}:`) });
    // Wait for the item to be drawn (the list may be redrawing after a sync): counting at an instant
    // found neither the phone's menu nor the row's button and took the wrong path.
    await menu.or(direto).first().waitFor();
    if (await menu.count()) {
      await menu.click();
      await this.pagina.getByRole('menuitem', { name: acao }).click();
      return;
    }
    await direto.click();
  }

  async rejeitar(texto: string, motivo: string) {
    await this.acao(texto, 'Rejeitar');
    const modal = this.pagina.getByRole('dialog', { name: 'Rejeitar Despesa' });
    await modal.getByLabel('Motivo da rejeição').fill(motivo);
    await modal.getByRole('button', { name: 'Rejeitar' }).click();
    await modal.waitFor({ state: 'detached' });
  }

  aviso(texto: string) {
    return this.pagina.locator('.Toastify').getByText(texto);
  }
}
