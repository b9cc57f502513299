/**
 * An S3 endpoint that accepts connections and never answers (a bucket behind a stuck proxy, a
 * half-dead storage node): every call to it ends at S3_TIMEOUT_MS as the pt-BR 503 with Retry-After,
 * and a write whose receipt did not get stored writes nothing. The server here is a bare TCP listener
 * on 127.0.0.1: it takes each connection and keeps it open without a byte back.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARQUIVOS, camposDeDespesa, criarCenarioDeDespesas, formulario } from '../../test/despesas';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';
import { linha } from '../db';
import { ErroApp } from '../errors';
import { MENSAGEM_ARMAZENAMENTO_INDISPONIVEL } from './armazenamento';
import { ArmazenamentoS3 } from './armazenamentoS3';

/** The bound the app is configured with here: short, so the test is quick; the default is in config.ts. */
const LIMITE_MS = 1500;
/** What the answer may take beyond the bound on a loaded machine (the request's own work, the event loop). */
const FOLGA_MS = 2500;

let mudo: net.Server;
const conexoes = new Set<net.Socket>();
/** Connections the listener took since it started. */
let aceitas = 0;
let porta: number;
let t: AppDeTeste;
let ana: { id: number; token: string };
let rotaAna: number;

const configS3 = () => ({
  S3_ENDPOINT: `http://127.0.0.1:${porta}`,
  S3_BUCKET: 'comprovantes-mudos',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'chave',
  S3_SECRET_ACCESS_KEY: 'segredo-qualquer',
  S3_FORCE_PATH_STYLE: 'true',
  S3_TIMEOUT_MS: String(LIMITE_MS),
});

beforeAll(async () => {
  mudo = net.createServer((s) => {
    aceitas += 1;
    conexoes.add(s);
    s.on('error', () => undefined);
    s.on('close', () => conexoes.delete(s));
    s.resume(); // reads what comes, answers nothing
  });
  await new Promise<void>((ok) => mudo.listen(0, '127.0.0.1', ok));
  porta = (mudo.address() as net.AddressInfo).port;
  ({ t, ana, rotaAna } = await criarCenarioDeDespesas({ env: configS3() }));
});
afterAll(async () => {
  await t?.fechar();
  for (const s of conexoes) s.destroy();
  await new Promise((ok) => mudo?.close(ok));
});


describe('armazenamento S3 que aceita a conexão e nunca responde', () => {
  it('o envio de uma despesa com comprovante recebe o 503 em português com Retry-After dentro do limite, e nenhuma despesa é gravada', async () => {
    const campos = camposDeDespesa(rotaAna);
    const inicio = Date.now();
    const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos, ARQUIVOS.jpeg())) });
    const levou = Date.now() - inicio;

    esperarRecusa(r, 503, 'indisponivel', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(levou).toBeLessThan(LIMITE_MS + FOLGA_MS);
    // The bucket's address took the connections: the 503 is the bound firing, not a refused connection.
    expect(aceitas).toBeGreaterThan(0);

    expect(await linha(t.db, sql`select id from despesas where id = ${campos.id}`)).toBeUndefined();
    expect(await linha(t.db, sql`select despesa_id from despesa_cupons where despesa_id = ${campos.id}`)).toBeUndefined();
    expect((await linha<{ n: number }>(t.db, sql`select count(*) as n from movimentacoes_saldo where funcionario_id = ${ana.id}`))!.n).toBe(0);
    const temporarios = path.join(t.dataDir, 'uploads-tmp');
    expect(fs.readdirSync(temporarios).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('um lote com quatro despesas com comprovante: cada uma recebe 503 e a resposta vem dentro de um limite, não de quatro', async () => {
    const operacoes = Array.from({ length: 4 }, (_, i) => {
      const c = camposDeDespesa(rotaAna);
      return {
        id: uuidv7(),
        tipo: 'despesa.criar',
        seq: i + 1,
        dados: { id: c.id, rota_id: rotaAna, cidade_id: c.cidade_id, data_despesa: c.data_despesa, tipo: 'alimentacao', tipo_outro: '', valor: 2590, descricao: `Almoço ${i}` },
      };
    });
    const fd = new FormData();
    fd.append('operacoes', JSON.stringify({ cliente_id: 'aparelho-mudo', operacoes }));
    for (const op of operacoes) fd.append(`arquivo:${op.id}`, new Blob([new Uint8Array(ARQUIVOS.jpeg().conteudo)], { type: 'image/jpeg' }), 'nota.jpg');
    const corpo = new Response(fd);
    const inicio = Date.now();
    const r = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: ana.token,
      payload: Buffer.from(await corpo.arrayBuffer()),
      headers: { 'content-type': corpo.headers.get('content-type')! },
    });
    const levou = Date.now() - inicio;
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().resultados).toEqual(operacoes.map((op) => expect.objectContaining({ id: op.id, status: 503, corpo: expect.objectContaining({ codigo: 'indisponivel' }) })));
    // After the first call the bucket let hang, the others fail at once.
    expect(levou).toBeLessThan(LIMITE_MS + FOLGA_MS);
    for (const op of operacoes) expect(await linha(t.db, sql`select id from despesas where id = ${op.dados.id}`)).toBeUndefined();
  });

  it('cada chamada ao bucket tem o seu prazo: ler e varrer terminam em erro dentro do limite', async () => {
    const avisos: unknown[] = [];
    const log = { debug: () => undefined, info: () => undefined, warn: (o: unknown) => void avisos.push(o), error: (o: unknown) => void avisos.push(o) };
    const novo = () =>
      new ArmazenamentoS3(
        {
          endpoint: `http://127.0.0.1:${porta}`,
          bucket: 'comprovantes-mudos',
          region: 'us-east-1',
          accessKeyId: 'chave',
          secretAccessKey: 'segredo',
          forcePathStyle: true,
          prefixo: 'cupons/',
        },
        log,
        { vezes: 3, pausaMs: 10 },
        LIMITE_MS,
      );
    // One client for each call: the window after a hang (the next calls fail at once) is not what is measured here.
    const leitor = novo();
    const varredor = novo();
    try {
      const nome = `${'a'.repeat(32)}.jpg`;
      const medir = async (chamada: () => Promise<unknown>) => {
        const inicio = Date.now();
        const erro = await chamada().then(
          () => null,
          (e: unknown) => e,
        );
        return { erro, levou: Date.now() - inicio };
      };
      const leitura = await medir(() => leitor.abrir(nome));
      expect(leitura.erro).toBeInstanceOf(ErroApp);
      expect((leitura.erro as ErroApp).statusCode).toBe(503);
      expect(leitura.levou).toBeLessThan(LIMITE_MS + FOLGA_MS);

      const varredura = await medir(() => varredor.varrerOrfaos(async () => new Set()));
      expect(varredura.erro).toBeInstanceOf(Error);
      expect(varredura.levou).toBeLessThan(LIMITE_MS + FOLGA_MS);
    } finally {
      leitor.fechar();
      varredor.fechar();
    }
  });
});
