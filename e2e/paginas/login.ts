import type { Page } from 'playwright-core';

/** The login screen, as a person uses it. */
export class TelaLogin {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/login`);
    await this.pagina.getByRole('button', { name: 'Entrar' }).waitFor();
  }

  async entrar(email: string, senha: string) {
    await this.pagina.getByLabel('Email').fill(email);
    await this.pagina.getByLabel('Senha').fill(senha);
    await this.pagina.getByRole('button', { name: 'Entrar' }).click();
  }

  erroDoCampo(texto: string) {
    return this.pagina.getByText(texto, { exact: true });
  }

  aviso(texto: string) {
    return this.pagina.locator('.Toastify').getByText(texto);
  }
}
