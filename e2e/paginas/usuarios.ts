import type { Page } from 'playwright-core';

/** 'Gerenciamento de Usuários'. */
export class TelaUsuarios {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/usuarios`);
    await this.pagina.getByRole('heading', { name: 'Gerenciamento de Usuários' }).waitFor();
  }

  aba(rotulo: RegExp) {
    return this.pagina.getByRole('tab', { name: rotulo });
  }

  linha(nome: string) {
    return this.pagina.getByRole('row').filter({ hasText: nome });
  }

  modal() {
    return this.pagina.getByRole('dialog');
  }

  async criar(dados: { nome: string; email: string; senha: string; tipo?: 'Funcionário' | 'Administrador' }) {
    await this.pagina.getByRole('button', { name: 'Novo Funcionário' }).click();
    const modal = this.modal();
    await modal.getByLabel('Nome').fill(dados.nome);
    await modal.getByLabel('Email').fill(dados.email);
    await modal.getByLabel('Senha').fill(dados.senha);
    if (dados.tipo) await modal.getByLabel('Tipo').selectOption({ label: dados.tipo });
    await modal.getByRole('button', { name: 'Criar' }).click();
  }

  async editar(nome: string, mudancas: { nome?: string; novaSenha?: string }) {
    await this.pagina.getByRole('button', { name: `Editar ${nome}` }).click();
    const modal = this.modal();
    if (mudancas.nome) await modal.getByLabel('Nome').fill(mudancas.nome);
    if (mudancas.novaSenha) await modal.getByLabel('Nova senha').fill(mudancas.novaSenha);
    await modal.getByRole('button', { name: 'Atualizar' }).click();
  }

  async alternarStatus(nome: string, acao: 'Desativar' | 'Ativar') {
    await this.pagina.getByRole('button', { name: `${acao} ${nome}` }).click();
    await this.modal().getByRole('button', { name: 'Sim' }).click();
  }

  async desbloquear(nome: string) {
    await this.pagina.getByRole('button', { name: `Desbloquear ${nome}` }).click();
  }
}
