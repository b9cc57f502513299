/**
 * Offline-first, proven in Chromium against the real server:
 * a whole day without signal on one phone profile, the server killed in the middle of a replay,
 * a session that expires while offline, and an app update that waits for the queue.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { jpegPequeno, pdfPequeno } from './suporte/arquivos';
import { entrarComSinal } from './suporte/celular';
import { funcionarioEmCampo } from './suporte/dados';
import { abrirPerfil, capturar, temChromium } from './suporte/navegador';
import { iniciarServidor, PASTA_CLIENTE, iniciarServidorProcesso, portaLivre, type ServidorDeTeste } from './suporte/servidor';

const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const CIDADES = [5208707, 5201108, 5204508, 5205109, 5211503]; // Goiânia, Anápolis, Caldas Novas, Catalão, Itumbiara

/** What the header's sync indicator says. */
const indicador = (pagina: Page) => pagina.locator('.indicador-sync');

async function esperarSincronizado(pagina: Page, limiteMs = 60_000) {
  await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: limiteMs });
}

/** Keeps every batch the page sends, so the test can send them again (duplicate sends, replays). */
async function guardarLotes(contexto: BrowserContext) {
  await contexto.addInitScript(() => {
    const w = window as unknown as { __lotes: BodyInit[]; fetch: typeof fetch };
    const original = w.fetch.bind(window);
    w.__lotes = [];
    w.fetch = (entrada, init) => {
      if (String(entrada).endsWith('/api/sync/lote') && init?.body) w.__lotes.push(init.body as BodyInit);
      return original(entrada, init);
    };
  });
}

/** Sends again, from the page, every batch it sent: what a flaky link or a bug would do. */
async function reenviarLotes(pagina: Page, vezes: number): Promise<number[]> {
  return pagina.evaluate(async (n) => {
    const w = window as unknown as { __lotes: BodyInit[] };
    const status: number[] = [];
    const enviados = [...w.__lotes]; // the re-sends below are recorded too: replay only the originals
    for (let i = 0; i < n; i++) {
      for (const corpo of enviados) {
        const json = typeof corpo === 'string';
        const r = await fetch('/api/sync/lote', {
          method: 'POST',
          headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, ...(json ? { 'Content-Type': 'application/json' } : {}) },
          body: corpo,
        });
        status.push(r.status);
      }
    }
    return status;
  }, vezes);
}

describe.skipIf(!temChromium)('offline no navegador', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-offline-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  const prepararFuncionario = (nome: string, email: string) =>
    funcionarioEmCampo(servidor, { nome, email, cidades: CIDADES, dias: 30, descricaoDoCredito: 'Adiantamento da semana' });

  /** Signs in online and opens the employee's screens once, so they are kept on the phone. */
  async function entrarEGuardar(pagina: Page, email: string, senha: string) {
    await entrarComSinal(pagina, servidor.url, email, senha);
    await new TelaVendasFuncionario(pagina).abrir(servidor.url);
    await pagina.getByText('Goiânia').first().waitFor();
    await new TelaDespesas(pagina).abrir(servidor.url);
    await new TelaDespesas(pagina).saldoConfirmado().getByText('R$ 500,00').waitFor();
  }

  it('um dia inteiro sem sinal: 3 vendas, 1 visita e 2 despesas com comprovante sobrevivem a recarregar e a fechar o app, e chegam ao servidor exatamente uma vez', async () => {
    const f = await prepararFuncionario('Vera Estrada', 'vera@escola.com.br');
    const perfil = path.join(raiz, 'perfil-vera');
    let { contexto, pagina } = await abrirPerfil(perfil);
    await guardarLotes(contexto);
    await entrarEGuardar(pagina, f.email, f.senha);
    const foto = await jpegPequeno(pagina);
    const pdf = pdfPequeno();

    // The network is off for the whole working day.
    await contexto.setOffline(true);
    let vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await vendas.editar('Goiânia', { Dinheiro: '150,10', Pix: '0,20', Boletos: '2' });
    await vendas.salvar('Goiânia');
    await vendas.editar('Anápolis', { Cartão: '300' });
    await vendas.salvar('Anápolis');
    await vendas.editar('Caldas Novas', { Link: '99,90', Observações: 'Matrícula pelo link' });
    await vendas.salvar('Caldas Novas');
    await vendas.editar('Catalão', {});
    await vendas.salvar('Catalão'); // nothing typed: a visit without sale

    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);
    let modal = await despesas.abrirNova();
    await despesas.preencher(modal, { tipo: 'Alimentação', valor: '45,90', descricao: 'Almoço offline', arquivo: { name: 'almoco.jpg', mimeType: 'image/jpeg', buffer: foto } });
    await despesas.registrar(modal);
    modal = await despesas.abrirNova();
    await despesas.preencher(modal, { tipo: 'Pedágio', valor: '12,30', descricao: 'Pedágio offline', arquivo: { name: 'pedagio.pdf', mimeType: 'application/pdf', buffer: pdf } });
    await despesas.registrar(modal);
    await indicador(pagina).getByText('Offline · 6 aguardando').waitFor();
    await despesas.saldoProjetado().getByText('R$ 441,80').waitFor();
    await capturar(pagina, 'celular-offline-dia-inteiro');

    // Reloaded with no network: the service worker serves the app, IndexedDB still has everything.
    await pagina.reload();
    await despesas.item('Pedágio offline').waitFor();
    await indicador(pagina).getByText('Offline · 6 aguardando').waitFor();

    // The app is closed (the phone restarts), then opened again, still without signal.
    await contexto.close();
    ({ contexto, pagina } = await abrirPerfil(perfil));
    await guardarLotes(contexto);
    await contexto.setOffline(true);
    await pagina.goto(`${servidor.url}/vendas`);
    vendas = new TelaVendasFuncionario(pagina);
    await vendas.irParaAba(/^Fechadas \(4\)/);
    await vendas.cartao('Catalão').getByText('Visitada (sem venda)').waitFor();
    await indicador(pagina).getByText('Offline · 6 aguardando').waitFor();
    expect(servidor.db.$client.prepare('select count(*) as n from vendas where funcionario_id = ?').get(f.id)).toEqual({ n: 0 });

    // Signal again: the queue goes by itself.
    await contexto.setOffline(false);
    await esperarSincronizado(pagina);

    const dia = hoje('America/Sao_Paulo');
    const vendasNoServidor = servidor.db.$client
      .prepare('select cidade_id, dinheiro_centavos as d, pix_centavos as p, cartao_centavos as c, link_centavos as l, boletos as b from vendas where funcionario_id = ? and data_venda = ? order by cidade_id')
      .all(f.id, dia);
    expect(vendasNoServidor).toEqual([
      { cidade_id: 5201108, d: 0, p: 0, c: 30000, l: 0, b: 0 },
      { cidade_id: 5204508, d: 0, p: 0, c: 0, l: 9990, b: 0 },
      { cidade_id: 5208707, d: 15010, p: 20, c: 0, l: 0, b: 2 },
    ]);
    // Visited today: the three cities with a sale and Catalão, visited without one (the only visit row).
    const situacao = await servidor.chamar({ method: 'GET', url: `/api/rotas/${f.rotaId}/cidades-status?data=${dia}`, token: f.token });
    const visitadas = (situacao.json().cidades as { cidade_id: number; visitada: boolean }[]).filter((c) => c.visitada).map((c) => c.cidade_id);
    expect(visitadas.sort()).toEqual([5201108, 5204508, 5205109, 5208707]);
    const visitas = servidor.db.$client.prepare('select cidade_id from visitas where funcionario_id = ? and data = ? order by cidade_id').all(f.id, dia);
    expect(visitas.map((v) => (v as { cidade_id: number }).cidade_id)).toEqual([5205109]);
    const cupons = servidor.db.$client
      .prepare('select descricao, arquivo_cupom as a, valor_centavos as v from despesas where funcionario_id = ? and excluida_em is null order by descricao')
      .all(f.id) as { descricao: string; a: string; v: number }[];
    expect(cupons.map((c) => [c.descricao, c.v])).toEqual([
      ['Almoço offline', 4590],
      ['Pedágio offline', 1230],
    ]);
    expect(sha256(fs.readFileSync(path.join(servidor.dataDir, 'uploads', cupons[0]!.a)))).toBe(sha256(foto));
    expect(sha256(fs.readFileSync(path.join(servidor.dataDir, 'uploads', cupons[1]!.a)))).toBe(sha256(pdf));
    const saldo = await servidor.chamar({ method: 'GET', url: '/api/saldo/resumo', token: f.token });
    expect(saldo.json().saldo_atual).toBe(441.8);

    // Forced replays: the same batches sent three more times change nothing.
    const antes = servidor.db.$client
      .prepare('select (select count(*) from vendas) v, (select count(*) from visitas) vi, (select count(*) from despesas) d, (select count(*) from movimentacoes_saldo) m')
      .get();
    const arquivosAntes = fs.readdirSync(path.join(servidor.dataDir, 'uploads')).length;
    const status = await reenviarLotes(pagina, 3);
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((s) => s === 200)).toBe(true);
    expect(
      servidor.db.$client.prepare('select (select count(*) from vendas) v, (select count(*) from visitas) vi, (select count(*) from despesas) d, (select count(*) from movimentacoes_saldo) m').get(),
    ).toEqual(antes);
    expect(fs.readdirSync(path.join(servidor.dataDir, 'uploads')).length).toBe(arquivosAntes);
    expect((await servidor.chamar({ method: 'GET', url: '/api/saldo/resumo', token: f.token })).json().saldo_atual).toBe(441.8);

    // Each item shows the server received it.
    await pagina.locator('.indicador-sync').click();
    const painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    await expect.poll(() => painel.getByText(/^Recebido pelo servidor às \d{2}:\d{2}/).count()).toBe(6);
    await capturar(pagina, 'celular-sincronizacao-recebidos');
    await contexto.close();
  });

  it('o servidor cai no meio da reprodução: depois de voltar, o resto chega e cada venda existe exatamente uma vez', async () => {
    // A real server process on its own data folder, to be killed and started again.
    const dataDir = fs.mkdtempSync(path.join(raiz, 'servidor-'));
    const porta = await portaLivre();
    const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.senha };
    let processo = await iniciarServidorProcesso(dataDir, porta, env);
    const chamar = async (metodo: string, caminho: string, corpo?: unknown, token?: string) => {
      const r = await fetch(`${processo.url}/api${caminho}`, {
        method: metodo,
        headers: { ...(corpo ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: corpo ? JSON.stringify(corpo) : undefined,
      });
      return (await r.json()) as Record<string, unknown>;
    };
    try {
      const admin = (await chamar('POST', '/auth/login', { email: ADMIN.email, senha: ADMIN.senha })).token as string;
      const usuario = (await chamar('POST', '/usuarios', { nome: 'Ivo Queda', email: 'ivo@escola.com.br', senha: 'estrada1', tipo: 'funcionario' }, admin)).usuario as { id: number };
      const dia = hoje('America/Sao_Paulo');
      // Cities of the sample a server without the IBGE list loads: Goiânia, Anápolis, Caldas Novas.
      const rota = (await chamar('POST', '/rotas', { nome: 'Rota da Queda', funcionario_id: usuario.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -400), data_fim: somarDias(dia, 30), observacoes: '', cidades: [5208707, 5201108, 5204508] }, admin)).rota as { id: number };

      const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-ivo'));
      const login = new TelaLogin(pagina);
      await pagina.goto(`${processo.url}/login`);
      await login.entrar('ivo@escola.com.br', 'estrada1');
      await pagina.waitForURL('**/dashboard');
      await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      await contexto.setOffline(true);

      // 250 closings queued on the phone (one per city and day): more than one batch.
      const TOTAL = 250;
      await pagina.evaluate(
        async ({ total, rotaId, usuarioId, hojeIso }) => {
          const banco = await new Promise<IDBDatabase>((ok, falha) => {
            const pedido = indexedDB.open('sistema-de-gestao');
            pedido.onsuccess = () => ok(pedido.result);
            pedido.onerror = () => falha(pedido.error);
          });
          const cidades = [5208707, 5201108, 5204508];
          const tx = banco.transaction('outbox', 'readwrite');
          for (let i = 0; i < total; i++) {
            const d = new Date(`${hojeIso}T12:00:00Z`);
            d.setUTCDate(d.getUTCDate() - 1 - Math.floor(i / 3));
            const data = d.toISOString().slice(0, 10);
            const cidade = cidades[i % 3]!;
            const id = crypto.randomUUID();
            tx.objectStore('outbox').add({
              id: crypto.randomUUID(),
              usuarioId,
              tipo: 'venda.salvar',
              dados: { id, rota_id: rotaId, cidade_id: cidade, data_venda: data, valor_dinheiro: 1000, valor_pix: 50, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: new Date().toISOString() },
              arquivos: [],
              chaves: [`venda:${rotaId}:${cidade}:${data}`],
              descricao: `Fechamento ${i}`,
              estado: 'pendente',
              tentativas: 0,
              proximaTentativaEm: null,
              erro: null,
              criadoEm: new Date().toISOString(),
            });
          }
          await new Promise((ok) => (tx.oncomplete = ok));
          banco.close();
        },
        { total: TOTAL, rotaId: rota.id, usuarioId: usuario.id, hojeIso: dia },
      );
      await pagina.reload();
      await indicador(pagina).getByText(`Offline · ${TOTAL} aguardando`).waitFor();

      // Signal back; the server dies the moment the first batch reaches it.
      const chegouLote = processo.esperarLinha(/"url":"\/api\/sync\/lote"/);
      await contexto.setOffline(false);
      await chegouLote;
      await processo.matar('SIGKILL');
      const contar = () => {
        const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
        try {
          return (db.prepare('select count(*) as n, count(distinct id) as ids from vendas where rota_id = ?').get(rota.id) as { n: number; ids: number });
        } finally {
          db.close();
        }
      };
      const aposQueda = contar();
      expect(aposQueda.n).toBeLessThan(TOTAL);

      // Back up on the same data folder and port: the phone's retries finish the job.
      processo = await iniciarServidorProcesso(dataDir, porta, env);
      await esperarSincronizado(pagina, 80_000);
      expect(contar()).toEqual({ n: TOTAL, ids: TOTAL });
      await contexto.close();
    } finally {
      await processo.matar('SIGTERM');
    }
  }, 180_000);

  it('a sessão expira enquanto está sem sinal: a fila pausa (nada se perde) e continua depois de entrar de novo', async () => {
    const f = await prepararFuncionario('Tina Sessão', 'tina@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-tina'));
    await entrarEGuardar(pagina, f.email, f.senha);
    await contexto.setOffline(true);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await vendas.editar('Goiânia', { Dinheiro: '80' });
    await vendas.salvar('Goiânia');

    // Meanwhile the admin resets her password: the token on the phone is no longer valid.
    const admin = await servidor.tokenAdmin();
    await servidor.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/senha`, token: admin, payload: { novaSenha: 'senha-nova-1' } });

    await contexto.setOffline(false);
    await pagina.waitForURL('**/login', { timeout: 30_000 });
    const naFila = () =>
      pagina.evaluate(
        () =>
          new Promise<number>((ok) => {
            const p = indexedDB.open('sistema-de-gestao');
            p.onsuccess = () => {
              const r = p.result.transaction('outbox').objectStore('outbox').count();
              r.onsuccess = () => (p.result.close(), ok(r.result));
            };
          }),
      );
    expect(await naFila()).toBe(1);
    const vendasDela = () => (servidor.db.$client.prepare('select count(*) as n from vendas where funcionario_id = ?').get(f.id) as { n: number }).n;
    expect(vendasDela()).toBe(0);

    await new TelaLogin(pagina).entrar(f.email, 'senha-nova-1');
    await expect.poll(vendasDela, { timeout: 20_000 }).toBe(1);
    await expect.poll(naFila, { timeout: 10_000 }).toBe(0);
    await contexto.close();
  });

  it('uma versão nova só é aplicada com a fila vazia: "Atualizar" espera o envio e não perde o que estava na fila', async () => {
    // This test ships a "new version": it serves its own copy of the built client and changes it.
    const copia = path.join(raiz, 'cliente');
    fs.cpSync(PASTA_CLIENTE, copia, { recursive: true });
    const local = await iniciarServidor({}, copia);
    try {
      const admin = await local.tokenAdmin();
      const f = await local.criarFuncionario({ nome: 'Ulisses Update', email: 'ulisses@escola.com.br' });
      const dia = hoje('America/Sao_Paulo');
      await local.chamar({
        method: 'POST',
        url: '/api/rotas',
        token: admin,
        payload: { nome: 'Rota da Versão', funcionario_id: f.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -5), data_fim: somarDias(dia, 5), observacoes: '', cidades: CIDADES },
      });
      const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-ulisses'));
      await entrarComSinal(pagina, local.url, f.email, f.senha);

      // The phone is online but its writes do not get through (a captive portal, a dead link).
      await contexto.route('**/api/sync/lote', (rota) => rota.abort('internetdisconnected'));
      const vendas = new TelaVendasFuncionario(pagina);
      await vendas.abrir(local.url);
      await vendas.editar('Anápolis', { Pix: '42' });
      await vendas.salvar('Anápolis');
      // An aborted request reads as no signal: the indicator says so and keeps the count.
      await indicador(pagina).getByText(/1 aguardando/).waitFor();

      // A new version is published and found.
      const sw = path.join(copia, 'sw.js');
      fs.appendFileSync(sw, '\n// versão 2\n');
      // The server sends the build's brotli/gzip copies: a release writes them with the file.
      fs.writeFileSync(`${sw}.br`, zlib.brotliCompressSync(fs.readFileSync(sw)));
      fs.writeFileSync(`${sw}.gz`, zlib.gzipSync(fs.readFileSync(sw)));
      await pagina.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
      const aviso = pagina.getByRole('status').filter({ hasText: 'Nova versão disponível' });
      await aviso.waitFor({ timeout: 30_000 });
      await capturar(pagina, 'celular-nova-versao');
      await pagina.evaluate(() => ((window as unknown as { __mesmaPagina: boolean }).__mesmaPagina = true));
      await aviso.getByRole('button', { name: 'Atualizar' }).click();
      await aviso.getByText('Enviando 1 registro antes de atualizar...').waitFor();
      await pagina.waitForTimeout(1500);
      expect(await pagina.evaluate(() => (window as unknown as { __mesmaPagina?: boolean }).__mesmaPagina)).toBe(true); // not reloaded

      // The writes get through. The notice retries every 5 s while it waits, whatever the queue's backoff has grown to by now.
      await contexto.unroute('**/api/sync/lote');
      // The queue empties first (the sale reaches the server), and only then is the update let go:
      // the notice stops saying 'Enviando...'. (Whether the waiting worker then takes over is the
      // browser's: on a loaded machine Chromium was seen keeping it 'installed' after SKIP_WAITING;
      // docs/decisions/sincronizacao.md, known problem.)
      await expect
        .poll(() => local.db.$client.prepare('select pix_centavos as p from vendas where funcionario_id = ? and cidade_id = 5201108').get(f.id), { timeout: 45_000 })
        .toEqual({ p: 4200 });
      await aviso.getByText(/Enviando \d+ registros? antes de atualizar/).waitFor({ state: 'detached', timeout: 45_000 }).catch(async (erro) => {
        // Already reloaded into the new version: the notice is gone with the old page.
        if (await pagina.evaluate(() => (window as unknown as { __mesmaPagina?: boolean }).__mesmaPagina === true)) throw erro;
      });
      await contexto.close();
    } finally {
      await local.fechar();
    }
  });
});
