import type { Page } from 'playwright-core';

/** 'Saldo dos Funcionários' (admin). */
export class TelaSaldo {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/saldo`);
    await this.pagina.getByRole('heading', { name: 'Saldo dos Funcionários' }).waitFor();
  }

  cartao(rotulo: 'Total de Funcionários' | 'Saldo Total' | 'Movimentações Hoje') {
    return this.pagina.locator('.cartao-resumo').filter({ hasText: rotulo }).locator('.cartao-resumo__valor');
  }

  aba(nome: 'Saldos dos Funcionários' | 'Histórico de Movimentações' | 'Relatório') {
    return this.pagina.getByRole('tab', { name: nome });
  }

  linha(texto: string) {
    return this.pagina.locator('tr, li.cartao-linha').filter({ hasText: texto });
  }

  modal() {
    return this.pagina.getByRole('dialog', { name: 'Adicionar Saldo' });
  }

  async abrirModal() {
    await this.pagina.getByRole('button', { name: 'Adicionar Saldo' }).click();
    return this.modal();
  }

  /** Picks the employee by name (the option reads 'name — R$ balance'). */
  async escolherFuncionario(nome: string) {
    const select = this.modal().getByLabel('Funcionário');
    const rotulo = await select.locator('option').filter({ hasText: nome }).first().textContent();
    await select.selectOption({ label: rotulo! });
  }
}
