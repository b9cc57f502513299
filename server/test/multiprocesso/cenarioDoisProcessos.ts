/**
 * Two real server processes on one DATA_DIR (one SQLite database in WAL, or one
 * PostgreSQL with DATABASE_URL: doisProcessos.test.ts and doisProcessos.pg.test.ts run it), behind a
 * round-robin proxy written here (node:http on loopback, the next upstream for every request, as an
 * nginx upstream block does). Nothing a user relies on may depend on which process answers: the
 * secret and the first admin made at a simultaneous start, the batch's exactly-once, the read cache,
 * the login limit and the lockout, a session ended, the phone's report and a resumable upload.
 * The proxy tags each answer with the process that gave it (X-Processo), and the test checks the
 * tag where the order matters, so nothing here waits on a clock.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { iniciarServidorProcesso, portaLivre, type ServidorProcesso } from '../../../e2e/suporte/servidor';

const ADMIN = { email: 'admin@multi.com.br', senha: 'admin-multi-123' };
const GOIANIA = 5208707; // both in the sample the server loads when IBGE is out of reach
const PORTO_VELHO = 1100205;
const LIMITE_LOGIN = 6;
const dia = hoje('America/Sao_Paulo');

interface Proxy {
  url: string;
  /** Which upstream (0 or 1) the next request goes to. */
  proxima(): number;
  fechar(): Promise<void>;
}

/** Round-robin over `portas`, appending the client's address to X-Forwarded-For as nginx's $proxy_add_x_forwarded_for does. */
function iniciarProxy(portas: number[]): Promise<Proxy> {
  let proxima = 0;
  const servidor = http.createServer((req, res) => {
    const processo = proxima;
    proxima = (proxima + 1) % portas.length;
    const encaminhadoPor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const pedido = http.request(
      { host: '127.0.0.1', port: portas[processo], method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': encaminhadoPor } },
      (resposta) => {
        res.writeHead(resposta.statusCode!, { ...resposta.headers, 'x-processo': String(processo) });
        resposta.pipe(res);
      },
    );
    pedido.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(pedido);
  });
  return new Promise((resolve) => {
    servidor.listen(0, '127.0.0.1', () => {
      const { port } = servidor.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        proxima: () => proxima,
        fechar: () => new Promise((r) => servidor.close(() => r())),
      });
    });
  });
}

let raiz: string;
let dataDir: string;
let processos: ServidorProcesso[] = [];
let proxy: Proxy;
let enderecos = 0;

interface Resposta {
  status: number;
  processo: number;
  corpo: Record<string, unknown>;
  cabecalhos: Headers;
}

/** One request through the proxy. Each comes from its own client address unless `endereco` says (the login limit counts per address). */
async function chamar(
  metodo: string,
  caminho: string,
  opcoes: { corpo?: unknown; token?: string; endereco?: string; cabecalhos?: Record<string, string>; bytes?: Buffer } = {},
): Promise<Resposta> {
  enderecos += 1;
  const headers: Record<string, string> = {
    'x-forwarded-for': opcoes.endereco ?? `198.51.100.${enderecos % 250}`,
    ...(opcoes.token ? { authorization: `Bearer ${opcoes.token}` } : {}),
    ...(opcoes.corpo !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(opcoes.bytes ? { 'content-type': 'application/octet-stream' } : {}),
    ...opcoes.cabecalhos,
  };
  const r = await fetch(`${proxy.url}/api${caminho}`, {
    method: metodo,
    headers,
    body: opcoes.bytes ? new Uint8Array(opcoes.bytes) : opcoes.corpo !== undefined ? JSON.stringify(opcoes.corpo) : undefined,
  });
  const texto = await r.text();
  return { status: r.status, processo: Number(r.headers.get('x-processo')), corpo: texto ? (JSON.parse(texto) as Record<string, unknown>) : {}, cabecalhos: r.headers };
}

/** Makes the next request go to `processo` (a health check to the other one when needed). */
async function aVezDe(processo: number) {
  if (proxy.proxima() !== processo) expect((await chamar('GET', '/health')).processo).not.toBe(processo);
  expect(proxy.proxima()).toBe(processo);
}

async function login(email: string, senha: string): Promise<string> {
  const r = await chamar('POST', '/auth/login', { corpo: { email, senha } });
  expect(r.status, JSON.stringify(r.corpo)).toBe(200);
  return r.corpo.token as string;
}

let tokenAdmin: string;
let funcionario: { id: number; email: string; senha: string; token: string };
let rotaId: number;

async function criarFuncionario(nome: string, email: string) {
  const senha = 'senha-do-campo-1';
  const r = await chamar('POST', '/usuarios', { token: tokenAdmin, corpo: { nome, email, senha, tipo: 'funcionario' } });
  expect(r.status, JSON.stringify(r.corpo)).toBe(201);
  return { id: (r.corpo.usuario as { id: number }).id, email, senha };
}

const venda = (cidade: number, data: string, dinheiro: number) => ({
  id: uuidv7(),
  tipo: 'venda.salvar',
  seq: 1,
  dados: { id: uuidv7(), rota_id: rotaId, cidade_id: cidade, data_venda: data, valor_dinheiro: dinheiro, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
});

const lote = (operacoes: unknown[], envios?: Record<string, { id: string; nome: string }>) =>
  chamar('POST', '/sync/lote', { token: funcionario.token, corpo: { cliente_id: 'celular-multi', operacoes, ...(envios ? { envios } : {}) } });

/** The admin's sales of the route (a cached read: config emCache), the total in centavos. */
async function vendasDaRota(): Promise<{ resposta: Resposta; total: number; ids: string[] }> {
  const resposta = await chamar('GET', `/vendas?rota_id=${rotaId}&limit=1000`, { token: tokenAdmin });
  expect(resposta.status, JSON.stringify(resposta.corpo)).toBe(200);
  // The list answers in reais; the batch sends centavos.
  const vendas = resposta.corpo.vendas as { id: string; valor_dinheiro: number }[];
  return { resposta, total: vendas.reduce((s, v) => s + Math.round(v.valor_dinheiro * 100), 0), ids: vendas.map((v) => v.id) };
}

/** The database both processes share: SQLite in DATA_DIR (nothing to prepare) or a PostgreSQL (DATABASE_URL). */
export interface BancoDosProcessos {
  nome: string;
  /** false: the engine is not installed here, and the scenario is skipped. */
  disponivel: boolean;
  /** Environment for both processes (DATABASE_URL), made before they start. */
  preparar(): Promise<Record<string, string>>;
  parar(): Promise<void>;
}

export function descreverDoisProcessos(banco: BancoDosProcessos): void {
  // A machine without the engine (PostgreSQL not installed): the whole scenario is reported as skipped.
  describe.skipIf(!banco.disponivel)(`${banco.nome} disponível nesta máquina`, () => {
    beforeAll(async () => {
      raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-multiprocesso-'));
      dataDir = path.join(raiz, 'dados');
      const portas = [await portaLivre(), await portaLivre()];
      // No JWT_SECRET: both generate-or-read DATA_DIR/jwt-secret at the same moment, on an empty folder.
      const env = { JWT_SECRET: '', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.senha, TRUST_PROXY: 'true', LOGIN_RATE_LIMIT: String(LIMITE_LOGIN), ...(await banco.preparar()) };
      const partidas = await Promise.allSettled(portas.map((porta) => iniciarServidorProcesso(dataDir, porta, env)));
      // Each one that started is stopped in afterAll, even when the other did not start.
      processos = partidas.flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []));
      for (const p of partidas) if (p.status === 'rejected') throw p.reason;
      // Listening comes before the pid file; this line after it.
      await Promise.all(processos.map((p) => p.esperarLinha(/Sistema de Gestão em http/)));
      proxy = await iniciarProxy(portas);
    }, 120_000);

    afterAll(async () => {
      await proxy?.fechar();
      await Promise.all(processos.map((p) => p.matar('SIGTERM')));
      fs.rmSync(raiz, { recursive: true, force: true });
      await banco.parar();
    });

    describe(`dois processos atrás de um proxy round-robin, no mesmo DATA_DIR, com ${banco.nome}`, () => {
      it('partindo juntos numa pasta vazia: um só segredo, um só admin, e o token de um vale no outro', async () => {
        const segredo = fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
        expect(segredo.length).toBeGreaterThanOrEqual(32);
        expect(fs.readdirSync(dataDir).filter((n) => n.startsWith('jwt-secret'))).toEqual(['jwt-secret']);
        // One pid file each: stopping one must not unmark the other (restore checks them).
        expect(fs.readdirSync(dataDir).filter((n) => n.endsWith('.pid')).sort()).toEqual(processos.map((p) => `servidor-${p.processo.pid}.pid`).sort());

        await aVezDe(0);
        tokenAdmin = await login(ADMIN.email, ADMIN.senha);
        const me = await chamar('GET', '/auth/me', { token: tokenAdmin });
        expect(me.processo).toBe(1);
        expect(me.status).toBe(200);
        const admins = await chamar('GET', '/usuarios?tipo=admin', { token: tokenAdmin });
        expect(admins.status).toBe(200);
        expect((admins.corpo.usuarios as unknown[]).length).toBe(1);

        const f = await criarFuncionario('Dora Dupla', 'dora@multi.com.br');
        funcionario = { ...f, token: await login(f.email, f.senha) };
        const rota = await chamar('POST', '/rotas', {
          token: tokenAdmin,
          corpo: {
            nome: 'Rota de dois processos',
            funcionario_id: funcionario.id,
            tem_secretario: false,
            valor_aluguel: 0,
            data_inicio: somarDias(dia, -30),
            data_fim: somarDias(dia, 30),
            observacoes: '',
            cidades: [GOIANIA, PORTO_VELHO],
          },
        });
        expect(rota.status, JSON.stringify(rota.corpo)).toBe(201);
        rotaId = (rota.corpo.rota as { id: number }).id;
      });

      it('o lote do celular repetido pelo outro processo, e o mesmo lote nos dois ao mesmo tempo: cada venda conta uma vez', async () => {
        const ops = [venda(GOIANIA, somarDias(dia, -3), 1000), venda(PORTO_VELHO, somarDias(dia, -3), 2000), venda(GOIANIA, somarDias(dia, -2), 4000)];
        await aVezDe(0);
        const primeiro = await lote(ops);
        expect(primeiro.status).toBe(200);
        expect((primeiro.corpo.resultados as { status: number }[]).map((r) => r.status)).toEqual([201, 201, 201]);
        // The answer was lost on the way: the phone sends it again, and the proxy picks the other process.
        const repetido = await lote(ops);
        expect(repetido.processo).toBe(1);
        expect(repetido.corpo.resultados).toEqual(ops.map((op) => expect.objectContaining({ id: op.id, status: 201, repetida: true })));

        // A phone that gave up waiting sends the same new batch again while the first is still running:
        // one to each process at once. Whatever the interleaving, each sale exists once.
        const novas = [venda(PORTO_VELHO, somarDias(dia, -2), 8000), venda(GOIANIA, somarDias(dia, -1), 16000)];
        const juntos = await Promise.all([lote(novas), lote(novas)]);
        expect(juntos.map((r) => r.processo).sort()).toEqual([0, 1]);
        for (const r of juntos) {
          expect(r.status, JSON.stringify(r.corpo)).toBe(200);
          expect((r.corpo.resultados as { status: number }[]).map((x) => x.status)).toEqual([201, 201]);
        }
        const { total, ids } = await vendasDaRota();
        expect(ids.sort()).toEqual([...ops, ...novas].map((op) => op.dados.id).sort());
        expect(total).toBe(1000 + 2000 + 4000 + 8000 + 16000);
      });

      it('leitura do admin guardada em cache num processo, venda gravada pelo outro: a próxima leitura já mostra a venda', async () => {
        await aVezDe(0);
        const antes = await vendasDaRota();
        // The same read again on process 0: answered from its cache (the same ETag, 304 for If-None-Match).
        await aVezDe(0);
        const etag = antes.resposta.cabecalhos.get('etag')!;
        expect((await chamar('GET', `/vendas?rota_id=${rotaId}&limit=1000`, { token: tokenAdmin, cabecalhos: { 'if-none-match': etag } })).status).toBe(304);

        // Read on 0, write on 1, read on 0: three requests in a row, nothing waited for.
        await aVezDe(0);
        expect((await vendasDaRota()).resposta.processo).toBe(0);
        const nova = venda(PORTO_VELHO, somarDias(dia, -1), 32000);
        const escrita = await lote([nova]);
        expect(escrita.processo).toBe(1);
        expect((escrita.corpo.resultados as { status: number }[])[0]!.status).toBe(201);
        const depois = await vendasDaRota();
        expect(depois.resposta.processo).toBe(0);
        expect(depois.ids).toContain(nova.dados.id);
        expect(depois.total).toBe(antes.total + 32000);
      });

      it('sessão encerrada num processo é recusada pelo outro na requisição seguinte', async () => {
        const token = await login(funcionario.email, funcionario.senha);
        await aVezDe(0);
        expect((await chamar('GET', '/auth/me', { token })).status).toBe(200);
        const saida = await chamar('POST', '/auth/logout', { token });
        expect(saida.processo).toBe(1);
        expect(saida.status).toBe(200);
        const depois = await chamar('GET', '/auth/me', { token });
        expect(depois.processo).toBe(0);
        expect(depois.status).toBe(401);
        expect(depois.corpo.error).toBe('Sessão encerrada. Faça login novamente.');
      });

      it('o limite de login por endereço conta as tentativas feitas nos dois processos', async () => {
        const endereco = '203.0.113.7';
        const processosVistos = new Set<number>();
        for (let i = 0; i < LIMITE_LOGIN; i++) {
          const r = await chamar('POST', '/auth/login', { endereco, corpo: { email: 'ninguem@multi.com.br', senha: 'errada-123' } });
          expect(r.status).toBe(401);
          processosVistos.add(r.processo);
        }
        expect([...processosVistos].sort()).toEqual([0, 1]);
        // Each process saw only half of them: counted per process, this one would still be let through.
        for (const processo of [0, 1]) {
          await aVezDe(processo);
          const r = await chamar('POST', '/auth/login', { endereco, corpo: { email: ADMIN.email, senha: ADMIN.senha } });
          expect(r.status).toBe(429);
          expect(r.corpo.error).toMatch(/^Muitas tentativas de login a partir deste endereço\. Aguarde \d+ segundos e tente novamente\.$/);
          expect(Number(r.cabecalhos.get('retry-after'))).toBeGreaterThan(0);
        }
        // Another address is not held back by it.
        expect((await chamar('POST', '/auth/login', { corpo: { email: ADMIN.email, senha: ADMIN.senha } })).status).toBe(200);
      });

      it('o bloqueio da conta conta as senhas erradas dos dois processos', async () => {
        const f = await criarFuncionario('Edu Errante', 'edu@multi.com.br');
        const processosVistos = new Set<number>();
        for (let i = 0; i < 5; i++) {
          const r = await chamar('POST', '/auth/login', { corpo: { email: f.email, senha: 'senha-errada-9' } });
          expect(r.status).toBe(401);
          processosVistos.add(r.processo);
        }
        expect([...processosVistos].sort()).toEqual([0, 1]);
        // Blocked for everyone: the right password is refused by both processes.
        for (const processo of [0, 1]) {
          await aVezDe(processo);
          expect((await chamar('POST', '/auth/login', { corpo: { email: f.email, senha: f.senha } })).status).toBe(401);
        }
      });

      it('o relato do celular: a fila que mudou pelo outro processo é gravada quando volta a ser a de antes', async () => {
        const celular = '0b7e5a52-6d1c-4c1f-9a3e-7d2b9f1c4e10';
        const relato = (vendas: number) => ({ 'x-dispositivo': celular, 'x-versao-app': '1.0.0', 'x-fila': `venda=${vendas};visita=0;despesa=0;rota=0`, 'x-fila-idade': vendas ? '60' : '', 'x-sync-idade': '5' });
        const filaNoPainel = async () => {
          const r = await chamar('GET', '/relatorios/dashboard-admin', { token: tokenAdmin });
          expect(r.status).toBe(200);
          return (r.corpo.celulares as { dispositivo_id: string; fila: { venda: number } }[]).find((c) => c.dispositivo_id === celular)?.fila.venda ?? 0;
        };
        const relatar = async (processo: number, vendas: number) => {
          await aVezDe(processo);
          expect((await chamar('POST', '/dispositivos/relato', { token: funcionario.token, cabecalhos: relato(vendas) })).status).toBe(204);
        };
        await relatar(0, 3);
        expect(await filaNoPainel()).toBe(3);
        await relatar(1, 0);
        expect(await filaNoPainel()).toBe(0);
        // Process 0 last wrote 3 itself; the database says 0 now (process 1): the report of 3 must be written.
        await relatar(0, 3);
        expect(await filaNoPainel()).toBe(3);
      });

      it('comprovante em partes: cada parte num processo, uma parte enviada de novo nos dois ao mesmo tempo, e o lote que o usa', async () => {
        const total = 300_000;
        const conteudo = Buffer.alloc(total);
        conteudo.write('%PDF-1.4\n', 0, 'latin1');
        for (let i = 9; i < total; i++) conteudo[i] = (i * 131 + 17) % 251;
        const sha256 = createHash('sha256').update(conteudo).digest('hex');
        const envio = uuidv7();
        const parte = (inicio: number, fim: number) =>
          chamar('PUT', `/sync/envios/${envio}/partes?${new URLSearchParams({ inicio: String(inicio), total: String(total), sha256 })}`, {
            token: funcionario.token,
            bytes: conteudo.subarray(inicio, fim),
          });

        await aVezDe(0);
        const p1 = await parte(0, 100_000);
        expect([p1.processo, p1.status, p1.corpo.recebidos]).toEqual([0, 200, 100_000]);
        const p2 = await parte(100_000, 200_000);
        expect([p2.processo, p2.status, p2.corpo.recebidos]).toEqual([1, 200, 200_000]);
        // The same part twice at once (a retry that reached the other process while the first was written).
        const repetidas = await Promise.all([parte(100_000, 200_000), parte(100_000, 200_000)]);
        expect(repetidas.map((r) => r.processo).sort()).toEqual([0, 1]);
        for (const r of repetidas) expect([r.status, r.corpo.recebidos]).toEqual([200, 200_000]);
        const situacao = await chamar('GET', `/sync/envios/${envio}`, { token: funcionario.token });
        expect(situacao.corpo).toEqual({ recebidos: 200_000, total, completo: false });
        await aVezDe(1);
        const p3 = await parte(200_000, total);
        expect([p3.processo, p3.status, p3.corpo]).toEqual([1, 200, { recebidos: total, total, completo: true }]);

        const despesaId = uuidv7();
        const op = {
          id: uuidv7(),
          tipo: 'despesa.criar',
          seq: 1,
          dados: { id: despesaId, rota_id: rotaId, cidade_id: GOIANIA, data_despesa: somarDias(dia, -1), tipo: 'alimentacao', tipo_outro: '', valor: 2590, descricao: 'Almoço' },
        };
        const usado = await lote([op], { [op.id]: { id: envio, nome: 'nota.pdf' } });
        expect(usado.processo).toBe(0);
        expect((usado.corpo.resultados as { status: number }[])[0]!.status).toBe(201);
        // The receipt as the admin downloads it (from either process) is the phone's file, byte for byte.
        for (const processo of [0, 1]) {
          await aVezDe(processo);
          const r = await fetch(`${proxy.url}/api/despesas/${despesaId}/cupom`, { headers: { authorization: `Bearer ${tokenAdmin}` } });
          expect(r.status).toBe(200);
          expect(createHash('sha256').update(Buffer.from(await r.arrayBuffer())).digest('hex')).toBe(sha256);
        }
      });
    });
  });
}
