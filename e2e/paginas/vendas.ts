import type { Locator, Page } from 'playwright-core';

type CampoVenda = 'Dinheiro' | 'Pix' | 'Cartão' | 'Link' | 'Boletos' | 'Observações';

/** 'Registro Diário de Vendas': the employee's daily closing of each city, as a person uses it. */
export class TelaVendasFuncionario {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/vendas`);
    await this.pagina.getByRole('heading', { name: 'Registro Diário de Vendas' }).waitFor();
  }

  aba(rotulo: RegExp) {
    return this.pagina.getByRole('tab', { name: rotulo });
  }

  async irParaAba(rotulo: RegExp) {
    await this.aba(rotulo).click();
  }

  /** A city's card, by name (its accessible name is 'Nome (UF)'). */
  cartao(nome: string): Locator {
    return this.pagina.getByRole('listitem', { name: new RegExp(`^${nome} \\(`) });
  }

  formulario(nome: string): Locator {
    return this.cartao(nome).getByRole('form', { name: `Fechamento de ${nome}` });
  }

  async editar(nome: string, valores: Partial<Record<CampoVenda, string>>) {
    await this.cartao(nome).getByRole('button', { name: `Editar ${nome}` }).click();
    const form = this.formulario(nome);
    for (const [rotulo, valor] of Object.entries(valores)) await form.getByLabel(rotulo, { exact: true }).fill(valor);
  }

  /** Saves the open form: the form closes and the confirmation shows. */
  async salvar(nome: string) {
    await this.formulario(nome).getByRole('button', { name: 'Salvar' }).click();
    await this.formulario(nome).waitFor({ state: 'detached' });
    await this.avisos().last().waitFor();
  }

  avisos() {
    // Online it says the closing was made; with no signal, that it was kept on the phone.
    return this.pagina.locator('.Toastify').getByText(/^(Fechamento realizado com sucesso!|Fechamento guardado neste aparelho; será enviado quando houver sinal\.)$/);
  }

  /** Closes the toasts (before a screenshot: on the phone they cover the header). */
  async fecharAvisos() {
    await this.pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    await this.pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
  }

  async mostrarDetalhes(nome: string) {
    await this.cartao(nome).getByRole('button', { name: `Mostrar detalhes de ${nome}` }).click();
  }

  historico(nome: string): Locator {
    return this.cartao(nome).getByRole('region', { name: `Histórico de vendas de ${nome}` });
  }

  async buscar(texto: string) {
    await this.pagina.getByPlaceholder('Buscar cidade...').fill(texto);
  }
}

/** 'Vendas' of the admin: summary cards, the filter modal, 'Vendas Registradas'. */
export class TelaVendasAdmin {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/vendas`);
    await this.pagina.getByRole('heading', { name: 'Vendas', exact: true }).waitFor();
  }

  resumo(): Locator {
    return this.pagina.getByRole('region', { name: 'Resumo das vendas' });
  }

  /** The value shown on a summary card ('Total de Vendas', 'Dinheiro', ... 'Boletos'). */
  valorDoCartao(titulo: string): Locator {
    return this.resumo().locator('.resumo-vendas__cartao', { has: this.pagina.getByText(titulo, { exact: true }) }).locator('.resumo-vendas__valor');
  }

  /** The card's value as read, with Intl's non-breaking space made a plain one ('R$ 1,00'). */
  async lerCartao(titulo: string): Promise<string> {
    return ((await this.valorDoCartao(titulo).textContent()) ?? '').replace(/\u00a0/g, ' ');
  }

  modal(): Locator {
    return this.pagina.getByRole('dialog', { name: 'Filtrar vendas' });
  }

  async abrirFiltros() {
    await this.pagina.getByRole('button', { name: /^Filtrar/ }).click();
    await this.modal().waitFor();
  }

  async filtrar(f: { funcionario?: string; rota?: string; cidades?: string[]; status?: string; dataInicio?: string; dataFim?: string }) {
    const modal = this.modal();
    if (f.funcionario) await modal.getByLabel('Funcionário').selectOption({ label: f.funcionario });
    if (f.rota) await modal.getByLabel('Rota', { exact: true }).selectOption({ label: f.rota });
    for (const c of f.cidades ?? []) await modal.getByRole('checkbox', { name: c }).check();
    if (f.status) await modal.getByLabel('Status da Rota').selectOption({ label: f.status });
    if (f.dataInicio) await modal.getByLabel('Data Início').fill(f.dataInicio);
    if (f.dataFim) await modal.getByLabel('Data Fim').fill(f.dataFim);
  }

  async aplicar() {
    await this.modal().getByRole('button', { name: 'Aplicar Filtros' }).click();
    await this.modal().waitFor({ state: 'detached' });
  }

  tabela(): Locator {
    return this.pagina.locator('section', { has: this.pagina.getByRole('heading', { name: 'Vendas Registradas' }) });
  }

  /** One per sale: the line under a sale with its note is not a sale. */
  linhas(): Locator {
    return this.tabela().locator('tbody tr:not(.tabela__linha-extra)');
  }

  /** The note of the sale in `linha`, on its own line under it on the computer. */
  observacao(linha: Locator): Locator {
    return linha.locator('xpath=following-sibling::tr[1][contains(@class, "tabela__linha-extra")]');
  }

  linha(texto: string): Locator {
    return this.tabela().getByRole('row').filter({ hasText: texto });
  }
}
