import type { Page } from 'playwright-core';

/** The shell around every signed-in screen: menu (sidebar or drawer), greeting, logout. */
export class Casca {
  constructor(private readonly pagina: Page) {}

  saudacao(nome: string) {
    return this.pagina.getByText(`Olá, ${nome}`);
  }

  menu() {
    return this.pagina.getByRole('complementary', { name: 'Menu principal', includeHidden: true });
  }

  async abrirGaveta() {
    await this.pagina.getByRole('button', { name: 'Abrir menu' }).click();
  }

  async irPara(item: string) {
    await this.menu().getByRole('link', { name: item }).click();
  }

  async sair() {
    await this.menu().getByRole('button', { name: 'Sair' }).click();
  }
}
