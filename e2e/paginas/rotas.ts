import type { Locator, Page } from 'playwright-core';

export interface DadosRotaNaTela {
  nome?: string;
  funcionario?: string;
  inicio?: string;
  fim?: string;
  aluguel?: string;
  secretario?: string;
  /** UFs to click (select or deselect). */
  estados?: string[];
  /** [what to type in the search, the result to add as shown: 'Goiânia (GO)']. */
  cidades?: [string, string][];
  remover?: string[];
}

/** 'Rotas' as the admin uses it: filters, route cards, the route form and the card's modals. */
export class TelaRotasAdmin {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/rotas`);
    await this.pagina.getByRole('heading', { name: 'Rotas', exact: true }).waitFor();
  }

  cartao(nome: string): Locator {
    return this.pagina.getByRole('listitem', { name: nome, exact: true });
  }

  modal(titulo: string | RegExp): Locator {
    return this.pagina.getByRole('dialog', { name: titulo });
  }

  aviso(texto: string): Locator {
    return this.pagina.locator('.Toastify').getByText(texto);
  }

  async filtrar({ status, funcionario }: { status?: 'Todas' | 'Ativas' | 'Finalizadas' | 'Canceladas'; funcionario?: string }) {
    const filtros = this.pagina.getByRole('form', { name: 'Filtros' });
    if (status) await filtros.getByLabel('Status').selectOption({ label: status });
    if (funcionario) await filtros.getByLabel('Funcionário').selectOption({ label: funcionario });
    await filtros.getByRole('button', { name: 'Filtrar' }).click();
  }

  async abrirNova() {
    await this.pagina.getByRole('button', { name: 'Nova Rota' }).click();
    return this.modal('Nova Rota');
  }

  async abrirEdicao(nome: string) {
    await this.cartao(nome).getByRole('button', { name: `Editar ${nome}` }).click();
    return this.modal('Editar Rota');
  }

  /** Fills what is given; the form stays open (the caller saves or screenshots first). */
  async preencher(modal: Locator, dados: DadosRotaNaTela) {
    if (dados.nome !== undefined) await modal.getByLabel('Nome da rota').fill(dados.nome);
    if (dados.funcionario) await modal.getByLabel('Funcionário').selectOption({ label: dados.funcionario });
    if (dados.inicio) await modal.getByLabel('Data de início').fill(dados.inicio);
    if (dados.fim) await modal.getByLabel('Data de fim').fill(dados.fim);
    if (dados.aluguel !== undefined) await modal.getByLabel('Valor do aluguel (R$)').fill(dados.aluguel);
    if (dados.secretario) {
      await modal.getByRole('checkbox', { name: 'Tem secretário' }).check();
      await modal.getByLabel('Nome do secretário').fill(dados.secretario);
    }
    for (const uf of dados.estados ?? []) await modal.getByRole('group', { name: /Estados/ }).getByText(uf, { exact: true }).click();
    for (const [termo, cidade] of dados.cidades ?? []) {
      await modal.getByLabel('Buscar cidade').fill(termo);
      await modal.getByRole('button', { name: `Adicionar: ${cidade}` }).click();
    }
    for (const cidade of dados.remover ?? []) await modal.getByRole('button', { name: `Remover ${cidade}` }).click();
  }

  async salvar(modal: Locator) {
    await modal.getByRole('button', { name: /^(Criar Rota|Salvar alterações)$/ }).click();
  }

  async excluir(nome: string) {
    await this.cartao(nome).getByRole('button', { name: `Excluir ${nome}` }).click();
    await this.modal('Excluir rota').getByRole('button', { name: 'Excluir' }).click();
  }

  async verTodas(nome: string) {
    await this.cartao(nome).getByRole('button', { name: /^Ver todas/ }).click();
    return this.modal('Cidades da Rota');
  }

  async verDespesas(nome: string) {
    await this.cartao(nome).getByRole('button', { name: `Ver despesas de ${nome}` }).click();
    return this.modal('Despesas da Rota');
  }
}

/** 'Minhas Rotas' as the employee uses it on the phone. */
export class TelaMinhasRotas {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/rotas`);
    await this.pagina.getByRole('heading', { name: 'Minhas Rotas' }).waitFor();
  }

  secao(titulo: 'Rotas Ativas' | 'Rotas Finalizadas'): Locator {
    return this.pagina.getByRole('region', { name: titulo });
  }

  cartao(secao: 'Rotas Ativas' | 'Rotas Finalizadas', nome: string): Locator {
    return this.secao(secao).getByRole('listitem', { name: nome, exact: true });
  }

  async verCidades(nome: string) {
    await this.pagina.getByRole('button', { name: `Cidades da rota ${nome}` }).click();
    return this.pagina.getByRole('dialog', { name: 'Cidades da Rota' });
  }

  /** Asks to finish; returns the confirmation dialog (not yet confirmed). */
  async pedirFinalizacao(nome: string) {
    await this.cartao('Rotas Ativas', nome).getByRole('button', { name: `Finalizar Rota ${nome}` }).click();
    return this.pagina.getByRole('dialog', { name: 'Finalizar Rota' });
  }

  aviso(texto: string): Locator {
    return this.pagina.locator('.Toastify').getByText(texto);
  }
}
