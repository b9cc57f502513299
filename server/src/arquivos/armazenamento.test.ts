/**
 * Receipts in S3-compatible object storage, against a real S3 server started here
 * (s3rver, server/test/s3.ts) and the real @aws-sdk/client-s3: each way a receipt arrives (multipart,
 * the batch with a file part, the batch naming an upload sent in parts) lands in the bucket and not on
 * disk; reading streams the same bytes to the owner and the admin only; a refused write, a delete and a
 * replaced receipt leave no object behind; a bucket that does not answer is a pt-BR 503 with nothing
 * half-written; the sweep removes objects no row names. The local folder (the default) is covered by
 * the tests of despesas/, sync/, arquivos/uploads.test.ts and arquivos/armazenamentoLocal.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENSAGEM_CUPONS_DEMAIS } from '../../../shared/schemas/despesas';
import { ARQUIVOS, GOIANIA, formulario, sha256, type ArquivoTeste, camposDeDespesa, camposDeEdicao, criarCenarioDeDespesas, ontem } from '../../test/despesas';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { iniciarServidorS3, type ServidorS3 } from '../../test/s3';
import { carregarConfig, ErroDeConfiguracao, PREFIXO_S3_PADRAO } from '../config';
import { linha, linhas } from '../db';
import { arquivosGuardados } from '../despesas/repositorio';
import { MENSAGEM_ARMAZENAMENTO_INDISPONIVEL, MENSAGEM_LEITURA_INDISPONIVEL } from './armazenamento';

interface Pessoa {
  id: number;
  email: string;
  token: string;
}
interface Cupom {
  id: number;
  url: string;
  nome: string;
}
interface Despesa {
  id: string;
  arquivo_cupom: string | null;
  cupons: Cupom[];
}

let s3: ServidorS3;
let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let bruno: Pessoa;
let rotaAna: number;

beforeAll(async () => {
  s3 = await iniciarServidorS3();
  ({ t, tokenAdmin, ana, rotaAna, bruno } = await criarCenarioDeDespesas({ env: s3.env }));
});
afterAll(async () => {
  await t?.fechar();
  await s3?.fechar();
});

const campos = (extra: Record<string, string | number> = {}) => camposDeDespesa(rotaAna, extra);
const camposEdicao = camposDeEdicao;

/** A photo with bytes of its own. */
const foto = (semente: number, nome = `nota-${semente}.jpg`): ArquivoTeste => {
  const a = ARQUIVOS.jpeg();
  a.conteudo[100] = semente;
  a.conteudo[200] = semente >> 8;
  return { ...a, nome };
};

const criar = async (c: Record<string, string | number>, arquivos: ArquivoTeste[]) =>
  t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(c, arquivos)) });
const editar = async (id: string, c: Record<string, string | number>, arquivos: ArquivoTeste[] = []) =>
  t.chamar({ method: 'PUT', url: `/api/despesas/${id}`, token: ana.token, ...(await formulario(c, arquivos)) });

const noBucket = () => s3.chaves();
const chave = (arquivo: string) => `${PREFIXO_S3_PADRAO}${arquivo}`;
/** Nothing of a receipt stays on this machine's disk: no stored file, no temporary one. */
function nadaNoDisco() {
  const uploads = path.join(t.dataDir, 'uploads');
  expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  expect(fs.readdirSync(path.join(t.dataDir, 'uploads-tmp')).filter((n) => n !== 'partes')).toEqual([]);
}
const linhaDaDespesa = (id: string) => linha<{ id: string }>(t.db, sql`select id from despesas where id = ${id}`);
const arquivosDaDespesa = async (id: string) =>
  (await linhas<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons where despesa_id = ${id} order by ordem`)).map((l) => l.arquivo);

async function loteComArquivo(token: string, operacoes: unknown[], arquivos: Record<string, ArquivoTeste>, envios?: Record<string, { id: string; nome: string }>) {
  const fd = new FormData();
  fd.append('operacoes', JSON.stringify({ cliente_id: 'aparelho-s3', operacoes, ...(envios ? { envios } : {}) }));
  for (const [id, a] of Object.entries(arquivos)) fd.append(`arquivo:${id}`, new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
  const resp = new Response(fd);
  const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token, payload: Buffer.from(await resp.arrayBuffer()), headers: { 'content-type': resp.headers.get('content-type')! } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as { id: string; status: number | string; corpo?: { error: string; codigo: string } }[];
}

function operacaoCriar(id = uuidv7()) {
  return {
    id: uuidv7(),
    tipo: 'despesa.criar',
    seq: 1,
    dados: { id, rota_id: rotaAna, cidade_id: GOIANIA, data_despesa: ontem(), tipo: 'alimentacao', tipo_outro: '', valor: 2590, descricao: 'Almoço' },
  };
}

describe('comprovantes num armazenamento S3', () => {
  it('multipart: o comprovante vai para o bucket (não para o disco); dono e admin leem os mesmos bytes, outro funcionário recebe 404', async () => {
    const arquivo = foto(1);
    const c = campos();
    const r = await criar(c, [arquivo]);
    expect(r.statusCode, r.body).toBe(201);
    const d = r.json().despesa as Despesa;
    expect(await noBucket()).toContain(chave(d.arquivo_cupom!));
    expect(sha256(await s3.bytes(chave(d.arquivo_cupom!)))).toBe(sha256(arquivo.conteudo));
    nadaNoDisco();

    for (const token of [ana.token, tokenAdmin]) {
      for (const url of [`/api/despesas/${d.id}/cupom`, d.cupons[0]!.url]) {
        const lido = await t.chamar({ method: 'GET', url, token });
        expect(lido.statusCode, lido.body).toBe(200);
        expect(lido.headers['content-type']).toBe('image/jpeg');
        expect(lido.headers['content-length']).toBe(String(arquivo.conteudo.length));
        expect(lido.rawPayload.equals(arquivo.conteudo)).toBe(true);
        // No address of the bucket reaches the client: the bytes come through the API.
        expect(JSON.stringify(lido.headers)).not.toContain(s3.env.S3_ENDPOINT!);
      }
    }
    // Revalidation by the stored name still answers 304 without a body.
    const etag = (await t.chamar({ method: 'GET', url: d.cupons[0]!.url, token: ana.token })).headers.etag as string;
    const naoMudou = await t.chamar({ method: 'GET', url: d.cupons[0]!.url, token: ana.token, headers: { 'if-none-match': etag } });
    expect(naoMudou.statusCode).toBe(304);
    expect(naoMudou.rawPayload.length).toBe(0);

    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupom`, token: bruno.token }), 404, 'nao_encontrado');
    esperarRecusa(await t.chamar({ method: 'GET', url: d.cupons[0]!.url, token: bruno.token }), 404, 'nao_encontrado');
    expect((await t.chamar({ method: 'GET', url: d.cupons[0]!.url })).statusCode).toBe(401);
    // Nobody else's receipt is reachable by the bucket either: only the API serves it.
    expect((await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupons`, token: bruno.token })).statusCode).toBe(404);
  });

  it('lote offline com o arquivo no pedido: o objeto no bucket; a repetição não grava outro', async () => {
    const arquivo = foto(2);
    const op = operacaoCriar();
    const antes = await noBucket();
    let resultados = await loteComArquivo(ana.token, [op], { [op.id]: arquivo });
    expect(resultados[0]).toMatchObject({ id: op.id, status: 201 });
    const [guardado] = await arquivosDaDespesa(op.dados.id);
    expect(await noBucket()).toEqual([...antes, chave(guardado!)].sort());
    expect((await s3.bytes(chave(guardado!))).equals(arquivo.conteudo)).toBe(true);
    nadaNoDisco();
    // Its answer lost, the phone sends it again: answered from the log, no second object.
    resultados = await loteComArquivo(ana.token, [op], { [op.id]: arquivo });
    expect(resultados[0]).toMatchObject({ status: 201, repetida: true });
    expect(await noBucket()).toEqual([...antes, chave(guardado!)].sort());
  });

  it('envio em partes retomável, depois o lote que o nomeia: o objeto no bucket, o envio apagado do disco', async () => {
    const conteudo = Buffer.alloc(300_000);
    conteudo.write('%PDF-1.4\n', 0, 'latin1');
    for (let i = 9; i < conteudo.length; i++) conteudo[i] = (i * 131 + 17) % 251;
    const envio = uuidv7();
    for (const [inicio, fim] of [
      [0, 120_000],
      [120_000, 300_000],
    ] as const) {
      const r = await t.chamar({
        method: 'PUT',
        url: `/api/sync/envios/${envio}/partes?inicio=${inicio}&total=${conteudo.length}&sha256=${sha256(conteudo)}`,
        token: ana.token,
        payload: conteudo.subarray(inicio, fim),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const op = operacaoCriar();
    const resultados = await loteComArquivo(ana.token, [op], {}, { [op.id]: { id: envio, nome: 'scan.pdf' } });
    expect(resultados[0]).toMatchObject({ id: op.id, status: 201 });
    const [guardado] = await arquivosDaDespesa(op.dados.id);
    expect(sha256(await s3.bytes(chave(guardado!)))).toBe(sha256(conteudo));
    const lido = await t.chamar({ method: 'GET', url: `/api/despesas/${op.dados.id}/cupom`, token: tokenAdmin });
    expect(lido.headers['content-type']).toBe('application/pdf');
    expect(sha256(lido.rawPayload)).toBe(sha256(conteudo));
    expect(fs.readdirSync(path.join(t.dataDir, 'uploads-tmp', 'partes', String(ana.id)))).toEqual([]);
    nadaNoDisco();
  });

  it('arquivo de resgate (.sgp) importado pelo admin: o comprovante vai para o bucket', async () => {
    const arquivo = foto(40);
    const { dados } = operacaoCriar();
    const conteudo = arquivoPendencias({ id: ana.id, nome: 'Ana Estrada', email: ana.email }, [operacaoPendencia({ tipo: 'despesa.criar', seq: 1, dados }, arquivo)]);
    const r = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: tokenAdmin, ...(await formularioPendencias(conteudo)) });
    expect(r.statusCode, r.body).toBe(200);
    const [guardado] = await arquivosDaDespesa(dados.id);
    expect((await s3.bytes(chave(guardado!))).equals(arquivo.conteudo)).toBe(true);
    nadaNoDisco();
  });

  it('escrita recusada depois de o arquivo chegar não deixa objeto: dado inválido (antes do envio) e o 6º comprovante (recusado na transação, depois do envio)', async () => {
    const antes = await noBucket();
    const invalida = campos({ valor: '-5,00' });
    const r = await criar(invalida, [foto(3)]);
    expect(r.statusCode).toBe(400);
    expect(await linhaDaDespesa(invalida.id as string)).toBeUndefined();
    expect(await noBucket()).toEqual(antes);

    // Four receipts, then an edit adding two: uploaded before the transaction, refused inside it (at most 5), deleted.
    const criada = await criar(campos(), [4, 5, 6, 7].map((i) => foto(i)));
    expect(criada.statusCode, criada.body).toBe(201);
    const d = criada.json().despesa as Despesa;
    const comQuatro = await noBucket();
    const demais = await editar(d.id, camposEdicao({ remover_cupons: '', valor: '99,00' }), [8, 9].map((i) => foto(i)));
    esperarRecusa(demais, 400, 'dados_invalidos', MENSAGEM_CUPONS_DEMAIS);
    expect(await noBucket()).toEqual(comQuatro);
    expect(await arquivosDaDespesa(d.id)).toHaveLength(4);
    nadaNoDisco();
  });

  it('trocar um comprovante apaga o antigo depois da gravação; excluir a despesa apaga os objetos dela', async () => {
    const criada = await criar(campos(), [foto(10), foto(11)]);
    expect(criada.statusCode, criada.body).toBe(201);
    const d = criada.json().despesa as Despesa;
    const [primeiro, segundo] = await arquivosDaDespesa(d.id);
    // The same bytes again (a replayed edit) are recognised from the bucket: nothing added.
    let r = await editar(d.id, camposEdicao({ remover_cupons: '' }), [foto(11)]);
    expect(r.statusCode, r.body).toBe(200);
    expect(await arquivosDaDespesa(d.id)).toEqual([primeiro, segundo]);
    // Remove the first, add another.
    r = await editar(d.id, camposEdicao({ remover_cupons: String(d.cupons[0]!.id) }), [foto(12)]);
    expect(r.statusCode, r.body).toBe(200);
    const depois = await arquivosDaDespesa(d.id);
    expect(depois).toHaveLength(2);
    const chaves = await noBucket();
    expect(chaves).not.toContain(chave(primeiro!));
    for (const a of depois) expect(chaves).toContain(chave(a));

    const excluida = await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token });
    expect(excluida.statusCode, excluida.body).toBe(200);
    const restantes = await noBucket();
    for (const a of depois) expect(restantes).not.toContain(chave(a));
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupom`, token: tokenAdmin }), 404, 'nao_encontrado');
  });

  it('bucket fora do ar: 503 em português sem detalhes, nada gravado (linha, objeto, disco); de volta, o mesmo envio entra', async () => {
    const existente = await criar(campos(), [foto(20)]);
    expect(existente.statusCode, existente.body).toBe(201);
    const lida = existente.json().despesa as Despesa;
    const antes = await noBucket();
    await s3.parar();
    try {
      const c = campos();
      const r = await criar(c, [foto(21)]);
      esperarRecusa(r, 503, 'indisponivel', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
      // When to try again, as every 503 says (plugins/erros.ts).
      expect(r.headers['retry-after']).toBe('5');
      expect(r.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|s3|bucket/i);
      expect(await linhaDaDespesa(c.id as string)).toBeUndefined();

      // The batch: that operation is answered 503 (the phone keeps it and tries again), nothing recorded.
      const op = operacaoCriar();
      const resultados = await loteComArquivo(ana.token, [op], { [op.id]: foto(22) });
      expect(resultados[0]).toMatchObject({ id: op.id, status: 503, corpo: { codigo: 'indisponivel', error: MENSAGEM_ARMAZENAMENTO_INDISPONIVEL } });
      expect(await linhaDaDespesa(op.dados.id)).toBeUndefined();

      // Reading: 503 too, never a 500 with the client's error.
      const leitura = await t.chamar({ method: 'GET', url: lida.cupons[0]!.url, token: ana.token });
      esperarRecusa(leitura, 503, 'indisponivel', MENSAGEM_LEITURA_INDISPONIVEL);
      expect(leitura.headers['retry-after']).toBe('5');
      nadaNoDisco();
      // /api/health says which part fails.
      const saude = await t.chamar({ method: 'GET', url: '/api/health' });
      expect(saude.statusCode, saude.body).toBe(503);
      expect(saude.json()).toMatchObject({ error: 'Servidor com falha: armazenamento de comprovantes.', verificacoes: { armazenamento: { ok: false, tipo: 's3' } } });

      await s3.iniciar();
      expect(await noBucket()).toEqual(antes);
      // Back: the phone's retry goes through, as if nothing had happened.
      const denovo = await loteComArquivo(ana.token, [op], { [op.id]: foto(22) });
      expect(denovo[0]).toMatchObject({ id: op.id, status: 201 });
      expect(await noBucket()).toHaveLength(antes.length + 1);
    } finally {
      await s3.iniciar().catch(() => undefined);
    }
  });

  it('a varredura apaga só os objetos sem linha e com mais de uma hora, e só sob o seu prefixo', async () => {
    const criada = await criar(campos(), [foto(30)]);
    expect(criada.statusCode, criada.body).toBe(201);
    const viva = chave((await arquivosDaDespesa((criada.json().despesa as Despesa).id))[0]!);
    // An object no row names (what a crash between the upload and the commit leaves), put by the app's own storage.
    const orfao = path.join(t.dataDir, 'orfao.jpg');
    fs.writeFileSync(orfao, foto(31).conteudo);
    const nome = `${'ab'.repeat(16)}.jpg`;
    await t.app.armazenamento.preparar([{ caminhoTemporario: orfao, tamanho: fs.statSync(orfao).size, mime: 'image/jpeg', extensao: 'jpg', nomeOriginal: 'x.jpg' }], [nome]);
    expect(await noBucket()).toContain(chave(nome));
    // Another installation sharing the bucket (its own S3_PREFIX): its receipts are no row of ours, and must stay.
    const deOutraInstalacao = `outra-empresa/cupons/${'cd'.repeat(16)}.jpg`;
    await s3.gravar(deOutraInstalacao, foto(32).conteudo);
    const guardados = (nomes: string[]) => arquivosGuardados(t.db, nomes);

    // Young: it may be a write on its way to the commit.
    expect(await t.app.armazenamento.varrerOrfaos(guardados)).toBe(0);
    expect(await noBucket()).toContain(chave(nome));
    // Two hours later: the orphan goes, the receipt with a row stays.
    expect(await t.app.armazenamento.varrerOrfaos(guardados, Date.now() + 2 * 60 * 60 * 1000)).toBe(1);
    const chaves = await noBucket();
    expect(chaves).not.toContain(chave(nome));
    expect(chaves).toContain(viva);
    expect(chaves).toContain(deOutraInstalacao);
  });
});

describe('configuração S3_*', () => {
  const completa = {
    S3_ENDPOINT: 'https://s3.sa-east-1.amazonaws.com',
    S3_BUCKET: 'empresa-comprovantes',
    S3_REGION: 'sa-east-1',
    S3_ACCESS_KEY_ID: 'AKIAEXEMPLO',
    S3_SECRET_ACCESS_KEY: 'segredo',
  };

  it('sem nenhuma: pasta local; todas: o bucket (path-style só quando pedido)', () => {
    expect(carregarConfig({}).s3).toBeNull();
    expect(carregarConfig(completa).s3).toEqual({
      endpoint: 'https://s3.sa-east-1.amazonaws.com',
      bucket: 'empresa-comprovantes',
      region: 'sa-east-1',
      accessKeyId: 'AKIAEXEMPLO',
      secretAccessKey: 'segredo',
      forcePathStyle: false,
      prefixo: 'cupons/',
    });
    expect(carregarConfig({ ...completa, S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(true);
    expect(carregarConfig({ ...completa, S3_PREFIX: 'empresa-a/cupons' }).s3?.prefixo).toBe('empresa-a/cupons/');
  });

  it('conjunto incompleto ou valores inválidos param a partida com mensagem em português (sem mostrar o segredo)', () => {
    const erro = (env: Record<string, string>) => {
      try {
        carregarConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ErroDeConfiguracao);
        return (e as ErroDeConfiguracao).problemas.join('\n');
      }
      throw new Error('era esperado um erro');
    };
    const { S3_SECRET_ACCESS_KEY: _segredo, S3_REGION: _regiao, ...semDois } = completa;
    expect(erro(semDois)).toMatch(/S3 incompleto: falta definir S3_REGION, S3_SECRET_ACCESS_KEY/);
    expect(erro({ S3_FORCE_PATH_STYLE: 'true' })).toMatch(/falta definir S3_ENDPOINT, S3_BUCKET/);
    expect(erro({ ...completa, S3_ENDPOINT: 'minio:9000' })).toMatch(/^S3_ENDPOINT="minio:9000": deve ser um endereço http:\/\/ ou https:\/\//);
    expect(erro({ ...completa, S3_BUCKET: 'Comprovantes_Empresa' })).toMatch(/S3_BUCKET=.*deve ser o nome de um bucket/);
    expect(erro({ ...completa, S3_FORCE_PATH_STYLE: 'sim' })).toMatch(/S3_FORCE_PATH_STYLE="sim": deve ser 'true' ou 'false'/);
    expect(erro({ ...completa, S3_PREFIX: '/raiz' })).toMatch(/S3_PREFIX="\/raiz": deve ser um prefixo de chaves/);
    expect(erro({ ...completa, S3_PREFIX: 'a/../b' })).toMatch(/S3_PREFIX=.*'\.\.'/);
    expect(erro({ S3_PREFIX: 'empresa-a/' })).toMatch(/falta definir S3_ENDPOINT/);
    expect(erro({ ...completa, S3_BUCKET: 'x' })).not.toContain('segredo');
  });
});
