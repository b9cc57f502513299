/**
 * A rejected expense and a credit reaching the phone, in the browser, on a 390x844 phone: the employee
 * leaves the phone on Despesas; the admin rejects an expense ('Reenvie com a nota fiscal') and credits
 * the balance; a minute later (Playwright's clock, no real waiting) the phone shows 'Rejeitada' with
 * the reason and a notice of what changed; she corrects it with the receipt and sends it again; it is
 * 'Pendente' and the ledger has one debit only. On any other screen the news comes as a toast. Real
 * built client + real server on a temporary database.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { pdfPequeno } from './suporte/arquivos';
import { entrarComSinal } from './suporte/celular';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const MOTIVO = 'Reenvie com a nota fiscal';

describe.skipIf(!temChromium)('despesa rejeitada: aviso no celular, correção e reenvio', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let ana: { id: number; email: string; senha: string; token: string };
  let rota: number;
  const ontem = somarDias(hoje('America/Sao_Paulo'), -1);
  const diaMes = `${ontem.slice(8, 10)}/${ontem.slice(5, 7)}`;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.estrada@escola.com.br' });
    rota = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Centro', cidades: [GOIANIA], diasAntes: 3, diasDepois: 10 });
    await creditarSaldo(servidor, ana.id, 300, { rotaId: rota });
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  async function criarDespesa(descricao: string, valor: string): Promise<string> {
    const id = uuidv7();
    const corpo = await formulario({ id, rota_id: rota, cidade_id: GOIANIA, data_despesa: ontem, tipo: 'alimentacao', valor, descricao });
    const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...corpo });
    expect(r.statusCode, r.body).toBe(201);
    return id;
  }

  async function rejeitar(id: string) {
    const r = await servidor.chamar({ method: 'PATCH', url: `/api/despesas/${id}/rejeitar`, token: await servidor.tokenAdmin(), payload: { motivo: MOTIVO } });
    expect(r.statusCode, r.body).toBe(200);
  }

  /** Whether the phone has recorded what it saw (its first look), read from its IndexedDB. */
  const registrouOQueViu = (pagina: Page) =>
    pagina.evaluate(
      (chave) =>
        new Promise<boolean>((resolver) => {
          const pedido = indexedDB.open('sistema-de-gestao');
          pedido.onsuccess = () => {
            const leitura = pedido.result.transaction('meta').objectStore('meta').get(chave);
            leitura.onsuccess = () => {
              const v = leitura.result?.valor as { vistos?: { avaliacoes?: unknown; creditoAte?: unknown } } | undefined;
              resolver(!!v?.vistos?.avaliacoes && typeof v.vistos.creditoAte === 'number');
              pedido.result.close();
            };
            leitura.onerror = () => resolver(false);
          };
          pedido.onerror = () => resolver(false);
        }),
      `noticias:${ana.id}`,
    );

  it('a rejeição chega em um minuto com o motivo e o aviso; ela corrige com o comprovante e reenvia; volta a Pendente sem débito em dobro', async () => {
    const almoco = await criarDespesa('Almoço no centro', '24,00');
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await pagina.clock.install();
    await entrarComSinal(pagina, servidor.url, ana.email, ana.senha);
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await tela.item('Almoço no centro').getByText('Pendente').waitFor();
    await tela.saldoConfirmado().getByText('R$ 276,00').waitFor();
    await expect.poll(() => registrouOQueViu(pagina), { timeout: 15_000 }).toBe(true);

    // Meanwhile, at the office: rejected with a reason, and R$ 200,00 credited.
    await rejeitar(almoco);
    await creditarSaldo(servidor, ana.id, 200, { rotaId: rota });

    // The phone stays on Despesas: a minute later it knows.
    await pagina.clock.fastForward(60_000);
    const novidades = pagina.getByRole('status', { name: 'Novidades desde a sua última visita' });
    // Each notice names its expense (type, amount, date); the newest (the credit, made after the rejection) first.
    const rejeicao = new RegExp(`^Alimentação · R\\$\\s24,00 · ${diaMes} rejeitada: ${MOTIVO}$`);
    await novidades.getByRole('button', { name: rejeicao }).waitFor();
    await novidades.getByText(/Crédito de R\$\s200,00 no saldo/).waitFor();
    expect((await novidades.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s/g, ' '))).toEqual([
      'Crédito de R$ 200,00 no saldo',
      `Alimentação · R$ 24,00 · ${diaMes} rejeitada: ${MOTIVO}Ver e corrigir`,
    ]);
    const cartao = tela.item('Almoço no centro');
    await cartao.getByText('Rejeitada').waitFor();
    await cartao.getByText(`Motivo: ${MOTIVO}`).waitFor();
    await cartao.getByText('O valor continua descontado do seu saldo.').waitFor();
    await tela.saldoConfirmado().getByText('R$ 476,00').waitFor();
    await capturar(pagina, 'despesas-rejeitada-aviso-celular');
    await pagina.setViewportSize(DESKTOP);
    await novidades.getByRole('button', { name: rejeicao }).waitFor();
    await capturar(pagina, 'despesas-novidades-desktop');
    await pagina.setViewportSize(CELULAR);
    await cartao.getByRole('button', { name: /^Corrigir e reenviar:/ }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'despesas-rejeitada-cartao-celular');

    // Offered: correct and send again (not Editar/Excluir as if it were pending).
    await cartao.getByRole('button', { name: /^Ações:/ }).click();
    const itens = await pagina.getByRole('menuitem').allTextContents();
    expect(itens).toEqual(['Ver Detalhes', 'Corrigir e reenviar']);
    await pagina.keyboard.press('Escape');
    await cartao.getByRole('button', { name: /^Corrigir e reenviar:/ }).click();
    const modal = tela.modal('Corrigir e reenviar despesa');
    await modal.getByText(MOTIVO).waitFor();
    await modal.getByText(/O valor de R\$\s24,00 continua descontado do seu saldo/).waitFor();
    await modal.getByLabel('Descrição').fill('Almoço no centro, com a nota');
    await modal.getByLabel('Cupom/Comprovante').setInputFiles({ name: 'nota.pdf', mimeType: 'application/pdf', buffer: pdfPequeno() });
    await modal.getByRole('button', { name: 'Remover nota.pdf' }).waitFor();
    await capturar(pagina, 'despesas-corrigir-modal-celular');
    await modal.getByRole('button', { name: 'Reenviar' }).click();
    await modal.waitFor({ state: 'detached' });
    await pagina.getByText('Despesa corrigida e reenviada: ela está Pendente de nova aprovação.').waitFor();
    const corrigida = tela.item('Almoço no centro, com a nota');
    await corrigida.getByText('Pendente').waitFor();
    // Corrected: the notice stays (until 'Entendi') without asking for the correction again.
    await novidades.getByRole('button', { name: 'Ver e corrigir' }).waitFor({ state: 'detached' });
    await novidades.getByRole('button', { name: rejeicao }).waitFor();
    await capturar(pagina, 'despesas-novidades-corrigida-celular');
    await novidades.getByRole('button', { name: 'Entendi' }).click();
    await novidades.waitFor({ state: 'detached' });
    await capturar(pagina, 'despesas-corrigida-pendente-celular');

    // The server: Pendente again, with the receipt; one debit of R$ 24,00, never given back or taken twice.
    const lista = await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    const despesa = (lista.json().despesas as { id: string; status_aprovacao: string; cupom_nome: string | null }[]).find((d) => d.id === almoco)!;
    expect(despesa).toMatchObject({ status_aprovacao: 'pendente', cupom_nome: 'nota.pdf' });
    const movs = await servidor.chamar({ method: 'GET', url: `/api/saldo/movimentacoes?funcionario_id=${ana.id}`, token: await servidor.tokenAdmin() });
    const daDespesa = (movs.json().movimentacoes as { despesa_id: string | null; tipo: string; valor: number }[]).filter((m) => m.despesa_id === almoco);
    expect(daDespesa.map((m) => [m.tipo, m.valor])).toEqual([['debito', 24]]);
    await tela.saldoConfirmado().getByText('R$ 476,00').waitFor();
    await contexto.close();
  });

  it('no computador (1280x800): a rejeitada na tabela, com o motivo e "Corrigir e reenviar"', async () => {
    const hotel = await criarDespesa('Hotel sem nota', '180,00');
    await rejeitar(hotel);
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(ana.email, ana.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    // The row of the R$ 180,00 expense (the description may sit on a line of its own under it).
    const linha = pagina.locator('tr').filter({ has: pagina.getByRole('button', { name: /^Corrigir e reenviar: Alimentação de R\$\s180,00/ }) });
    await linha.getByText(`Motivo: ${MOTIVO}`).waitFor();
    await linha.getByRole('button', { name: /^Corrigir e reenviar:/ }).waitFor();
    expect(await linha.getByRole('button', { name: /^Editar:/ }).count()).toBe(0);
    await capturar(pagina, 'despesas-rejeitada-desktop');
    await linha.getByRole('button', { name: /^Corrigir e reenviar:/ }).click();
    await tela.modal('Corrigir e reenviar despesa').getByText(MOTIVO).waitFor();
    await capturar(pagina, 'despesas-corrigir-modal-desktop');
    await contexto.close();
  });

  it('em qualquer tela (aqui, Vendas): a rejeição chega em um minuto como aviso, com o motivo', async () => {
    const cafe = await criarDespesa('Café na estrada', '8,50');
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await pagina.clock.install();
    await entrarComSinal(pagina, servidor.url, ana.email, ana.senha);
    await pagina.goto(`${servidor.url}/vendas`);
    await pagina.getByRole('heading', { name: 'Registro Diário de Vendas' }).waitFor();
    // The app's watch has looked once (recorded silently) before the office acts.
    await expect.poll(() => registrouOQueViu(pagina), { timeout: 15_000 }).toBe(true);
    await rejeitar(cafe);
    // A minute at a time until it shows: a read still on its way when a minute passes takes that
    // minute's turn (a loaded machine stretches it), and the next minute reads again.
    const textoDoAviso = new RegExp(`^Alimentação · R\\$\\s8,50 · ${diaMes} rejeitada: ${MOTIVO}$`);
    const aviso = pagina.locator('.Toastify__toast').getByText(textoDoAviso);
    await expect
      .poll(
        async () => {
          if ((await aviso.count()) === 0) await pagina.clock.fastForward(60_000);
          return aviso.count();
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    await capturar(pagina, 'celular-aviso-rejeicao-em-vendas');
    // 'Ver despesa' opens that expense.
    await pagina.locator('.Toastify__toast').filter({ has: pagina.getByText(textoDoAviso) }).getByRole('button', { name: 'Ver despesa' }).click();
    const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await detalhes.getByText('Café na estrada').waitFor();
    await capturar(pagina, 'celular-aviso-rejeicao-abre-despesa');
    await contexto.close();
  });
});
