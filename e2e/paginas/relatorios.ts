import type { Download, Page } from 'playwright-core';

/** 'Relatórios' (admin). */
export class TelaRelatorios {
  constructor(private readonly pagina: Page) {}

  async abrir(base: string) {
    await this.pagina.goto(`${base}/relatorios`);
    await this.pagina.getByRole('heading', { name: 'Relatórios' }).waitFor();
  }

  async filtrarStatus(rotulo: string) {
    await this.pagina.getByLabel('Status').selectOption({ label: rotulo });
  }

  async filtrarFuncionario(nome: string) {
    // Exact: the trend charts' 'Vendas e despesas por funcionário' also has the word in its name.
    await this.pagina.getByLabel('Funcionário', { exact: true }).selectOption({ label: nome });
  }

  linha(rota: string) {
    return this.pagina.getByRole('row').filter({ hasText: rota });
  }

  async selecionar(rota: string) {
    await this.pagina.getByRole('checkbox', { name: `Selecionar ${rota}` }).check();
  }

  async abrirDetalhes(rota: string) {
    await this.pagina.getByRole('button', { name: `Detalhes de ${rota}` }).click();
    return this.pagina.getByRole('dialog', { name: rota });
  }

  async exportar(formato: 'PDF' | 'Excel' | 'CSV'): Promise<Download> {
    const [download] = await Promise.all([this.pagina.waitForEvent('download'), this.pagina.getByRole('button', { name: `Exportar ${formato}` }).click()]);
    return download;
  }

  /** 'Exportar para o contador': with the page's period, or the period asked in the dialog (`periodo`). */
  async exportarParaContador(periodo?: { inicio: string; fim: string }) {
    await this.pagina.getByRole('button', { name: 'Exportar para o contador' }).click();
    if (!periodo) return;
    const dialogo = this.pagina.getByRole('dialog', { name: 'Exportar para o contador' });
    await dialogo.getByLabel('Data inicial').fill(periodo.inicio);
    await dialogo.getByLabel('Data final').fill(periodo.fim);
    await dialogo.getByRole('button', { name: 'Exportar', exact: true }).click();
  }

  /** The export's progress line ('Baixando…', 'Pronto: …'). */
  progressoContador() {
    return this.pagina.locator('.exportar-contador').getByRole('status');
  }
}
