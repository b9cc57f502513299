import type { Locator, Page } from 'playwright-core';

/** Intl writes 'R$' with a non-breaking space: plain spaces for comparing. */
const texto = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\u00a0/g, ' ').trim();

/** The admin's dashboard: banner, the five numbers, the action cards, two tables, the balance modal. */
export class TelaDashboardAdmin {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/dashboard`);
    await this.banner().waitFor();
  }

  banner(): Locator {
    return this.pagina.getByRole('region', { name: 'Boas-vindas' });
  }

  numero(rotulo: 'Funcionários em Rota' | 'Funcionários sem Rota' | 'Rotas Ativas' | 'Vendas do Dia' | 'Despesas do Dia'): Promise<string> {
    return texto(this.pagina.getByRole('group', { name: rotulo }).locator('.cartao-resumo__valor'));
  }

  tabela(titulo: 'Rotas Ativas' | 'Funcionários em Rota'): Locator {
    return this.pagina.locator('section', { has: this.pagina.getByRole('heading', { name: titulo, exact: true }) });
  }

  /** The cells of the row holding `conteudo` (computer: table rows). */
  async linha(titulo: 'Rotas Ativas' | 'Funcionários em Rota', conteudo: string): Promise<string[]> {
    const celulas = this.tabela(titulo).getByRole('row').filter({ hasText: conteudo }).getByRole('cell');
    return (await celulas.allTextContents()).map((c) => c.replace(/\u00a0/g, ' ').trim());
  }

  modalSaldo(): Locator {
    return this.pagina.getByRole('dialog', { name: 'Adicionar/Enviar Saldo' });
  }

  async abrirModalSaldo(): Promise<Locator> {
    await this.pagina.getByRole('button', { name: 'Adicionar/Enviar Saldo' }).click();
    await this.modalSaldo().waitFor();
    return this.modalSaldo();
  }

  /** Picks the employee by name (the option reads 'name — R$ balance') and waits for the routes. */
  async escolherFuncionario(nome: string) {
    const select = this.modalSaldo().getByLabel('Funcionário');
    await select.locator('option').filter({ hasText: nome }).first().waitFor({ state: 'attached' });
    const rotulo = await select.locator('option').filter({ hasText: nome }).first().textContent();
    await select.selectOption({ label: rotulo! });
  }
}

/** The employee's dashboard: route, cities, balances, finished routes, the salary estimate. */
export class TelaDashboardFuncionario {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/dashboard`);
    await this.pagina.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  }

  cartao(rotulo: 'Rota Ativa' | 'Cidades Atendidas' | 'Saldo Disponível' | 'Rotas Concluídas'): Locator {
    return this.pagina.getByRole('group', { name: rotulo });
  }

  valor(rotulo: 'Rota Ativa' | 'Cidades Atendidas' | 'Rotas Concluídas'): Promise<string> {
    return texto(this.cartao(rotulo).locator('.cartao-resumo__valor'));
  }

  saldoConfirmado(): Promise<string> {
    return texto(this.pagina.getByTestId('saldo-confirmado'));
  }

  saldoProjetado(): Promise<string> {
    return texto(this.pagina.getByTestId('saldo-projetado'));
  }

  salario(): Locator {
    return this.pagina.getByRole('region', { name: 'Salário Estimado' });
  }

  total(): Promise<string> {
    return texto(this.pagina.getByTestId('salario-total'));
  }

  /** The amount of a line of the salary's sum ('Bolsas', 'Bônus por cidade', 'Boletos', 'Desconto do aluguel', 'Total estimado'). */
  linha(rotulo: string): Promise<string> {
    return texto(this.salario().locator('.salario__linha', { has: this.pagina.locator('dt', { hasText: rotulo }) }).locator('dd'));
  }

  /** 'Média de desempenho', 'Bolsas', 'Valor por bolsa'. */
  indicador(rotulo: string): Promise<string> {
    return texto(this.salario().locator('.salario__indicador', { has: this.pagina.locator('dt', { hasText: rotulo }) }).locator('strong'));
  }

  mensagemAluguel(): Promise<string> {
    return texto(this.pagina.getByTestId('mensagem-aluguel'));
  }

  avisoOffline(): Locator {
    return this.pagina.getByText(/Sem conexão: dados guardados neste aparelho em \d\d\/\d\d\/\d{4} \d\d:\d\d\./);
  }

  async irPara(acao: 'Nova Venda' | 'Nova Despesa') {
    await this.pagina.getByRole('link', { name: acao }).click();
  }
}
