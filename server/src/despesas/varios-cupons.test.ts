/**
 * Several receipts per expense: created and read as a list, each served with the
 * owner/admin checks, at most 5, nothing half-written on a refusal, edits that add and remove, the
 * batch sync carrying several, and migration 0009 turning the single receipt of an existing expense into its list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENSAGEM_CUPONS_DEMAIS, MENSAGEM_TIPO_ARQUIVO } from '../../../shared/schemas/despesas';
import { ARQUIVOS, GOIANIA, formulario, type ArquivoTeste, camposDeDespesa, camposDeEdicao, criarCenarioDeDespesas } from '../../test/despesas';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { abrirBanco, linha, linhas } from '../db';
import { recursosDoProjeto } from '../recursos';
import { buscarDespesaApresentada } from './repositorio';

interface Cupom {
  id: number;
  mime: string;
  nome: string;
  tamanho: number;
  url: string;
}
interface Despesa {
  id: string;
  cupom_url: string | null;
  cupom_nome: string | null;
  arquivo_cupom: string | null;
  cupons: Cupom[];
  [campo: string]: unknown;
}
interface Pessoa {
  id: number;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno } = await criarCenarioDeDespesas());
});
afterAll(async () => {
  await t?.fechar();
});

const campos = (extra: Record<string, string | number> = {}) => camposDeDespesa(rotaAna, extra);
const camposEdicao = camposDeEdicao;

async function criar(c: Record<string, string | number>, arquivos: ArquivoTeste[]): Promise<LightMyRequestResponse> {
  return t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(c, arquivos)) });
}
async function criarOk(arquivos: ArquivoTeste[]): Promise<Despesa> {
  const r = await criar(campos(), arquivos);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().despesa;
}
async function editar(id: string, c: Record<string, string | number>, arquivos: ArquivoTeste[] = []): Promise<LightMyRequestResponse> {
  return t.chamar({ method: 'PUT', url: `/api/despesas/${id}`, token: ana.token, ...(await formulario(c, arquivos)) });
}

const pasta = () => path.join(t.dataDir, 'uploads');
const noDisco = () => fs.readdirSync(pasta()).sort();
const temporarios = () => fs.readdirSync(path.join(t.dataDir, 'uploads-tmp')).filter((n) => n !== 'partes');
const linhasDeCupons = async () => (await linha<{ n: number }>(t.db, sql`select count(*) as n from despesa_cupons`))!.n;
const arquivosDaDespesa = async (id: string) =>
  (await linhas<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons where despesa_id = ${id}`)).map((l) => l.arquivo);
const pdf = (): ArquivoTeste => ARQUIVOS.pdf();
const jpeg = (nome = 'nfce.jpg', semente = 0): ArquivoTeste => {
  const a = ARQUIVOS.jpeg();
  a.conteudo[100] = semente; // distinct bytes for distinct photos
  return { ...a, nome };
};

describe('vários comprovantes numa despesa', () => {
  it('cria com um JPEG e um PDF: a leitura lista os dois em ordem, e os campos antigos são os do primeiro', async () => {
    const d = await criarOk([jpeg('nfce.jpg'), { ...pdf(), nome: 'comprovante-cartao.pdf' }]);
    expect(d.cupons.map((c) => [c.mime, c.nome])).toEqual([
      ['image/jpeg', 'nfce.jpg'],
      ['application/pdf', 'comprovante-cartao.pdf'],
    ]);
    expect(d.cupons[0]!.tamanho).toBe(ARQUIVOS.jpeg().conteudo.length);
    expect(d.cupons[1]!.tamanho).toBe(ARQUIVOS.pdf().conteudo.length);
    expect(d.cupom_nome).toBe('nfce.jpg');
    expect(d.cupom_url).toBe(`/api/despesas/${d.id}/cupom`);
    // The list and the list endpoint say the same.
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas', token: ana.token });
    expect((lista.json().despesas as Despesa[]).find((x) => x.id === d.id)!.cupons).toEqual(d.cupons);
    const soCupons = await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupons`, token: tokenAdmin });
    expect(soCupons.json().cupons).toEqual(d.cupons);
    // The route details' grid says how many.
    const detalhes = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}/detalhes`, token: tokenAdmin });
    expect(detalhes.statusCode, detalhes.body).toBe(200);
    expect((detalhes.json().despesas as { id: string; cupons_quantidade: number }[]).find((x) => x.id === d.id)?.cupons_quantidade).toBe(2);
  });

  it('cada comprovante é servido pelo seu endereço ao dono e ao admin; outro funcionário recebe 404; a URL antiga serve o primeiro', async () => {
    const foto = jpeg('nfce.jpg', 7);
    const doc = pdf();
    const d = await criarOk([foto, doc]);
    for (const token of [ana.token, tokenAdmin]) {
      const r0 = await t.chamar({ method: 'GET', url: d.cupons[0]!.url, token });
      expect(r0.statusCode).toBe(200);
      expect(r0.headers['content-type']).toBe('image/jpeg');
      expect(r0.rawPayload.equals(foto.conteudo)).toBe(true);
      const r1 = await t.chamar({ method: 'GET', url: d.cupons[1]!.url, token });
      expect(r1.statusCode).toBe(200);
      expect(r1.headers['content-type']).toBe('application/pdf');
      expect(r1.rawPayload.equals(doc.conteudo)).toBe(true);
    }
    const antigo = await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupom`, token: ana.token });
    expect(antigo.statusCode).toBe(200);
    expect(antigo.rawPayload.equals(foto.conteudo)).toBe(true);
    for (const url of [d.cupons[0]!.url, d.cupons[1]!.url, `/api/despesas/${d.id}/cupom`, `/api/despesas/${d.id}/cupons`]) {
      esperarRecusa(await t.chamar({ method: 'GET', url, token: bruno.token }), 404, 'nao_encontrado');
      expect((await t.chamar({ method: 'GET', url })).statusCode).toBe(401);
    }
    // A receipt id of another expense, through this one: not found.
    const outra = await criarOk([jpeg('outra.jpg', 9)]);
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupons/${outra.cupons[0]!.id}`, token: ana.token }), 404, 'nao_encontrado');
  });

  it('até 5: o sexto é recusado com 400 em português, sem despesa, linha ou arquivo', async () => {
    const ok = await criarOk([1, 2, 3, 4, 5].map((i) => jpeg(`${i}.jpg`, i)));
    expect(ok.cupons).toHaveLength(5);
    const antes = { disco: noDisco(), linhas: await linhasDeCupons() };
    const c = campos();
    const r = await criar(
      c,
      [1, 2, 3, 4, 5, 6].map((i) => jpeg(`${i}.jpg`, i)),
    );
    esperarRecusa(r, 400, 'dados_invalidos', MENSAGEM_CUPONS_DEMAIS);
    expect(noDisco()).toEqual(antes.disco);
    expect(await linhasDeCupons()).toBe(antes.linhas);
    expect(temporarios()).toEqual([]);
    expect((await t.chamar({ method: 'GET', url: `/api/despesas/${c.id}/cupons`, token: ana.token })).statusCode).toBe(404);
  });

  it('um dos comprovantes de tipo recusado: nada gravado (nem o outro)', async () => {
    const antes = { disco: noDisco(), linhas: await linhasDeCupons() };
    const c = campos();
    const r = await criar(c, [jpeg('bom.jpg', 3), { nome: 'virus.jpg', tipo: 'image/jpeg', conteudo: Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1') }]);
    esperarRecusa(r, 415, 'tipo_nao_suportado', MENSAGEM_TIPO_ARQUIVO);
    expect(noDisco()).toEqual(antes.disco);
    expect(await linhasDeCupons()).toBe(antes.linhas);
    expect(temporarios()).toEqual([]);
  });

  it('editar adiciona e remove: o removido sai do disco depois da gravação, os outros ficam; passar de 5 é 400 sem mudança', async () => {
    const d = await criarOk([jpeg('a.jpg', 11), pdf()]);
    const arquivoA = fs.readdirSync(pasta()).length;
    expect(arquivoA).toBeGreaterThan(0);
    // Add one, keep both.
    let r = await editar(d.id, camposEdicao({ remover_cupons: '' }), [jpeg('c.jpg', 12)]);
    expect(r.statusCode, r.body).toBe(200);
    let e = r.json().despesa as Despesa;
    expect(e.cupons.map((c) => c.nome)).toEqual(['a.jpg', 'cupom.pdf', 'c.jpg']);
    // The same edit again (its answer was lost): the same bytes are not added twice.
    r = await editar(d.id, camposEdicao({ remover_cupons: '' }), [jpeg('c.jpg', 12)]);
    expect((r.json().despesa as Despesa).cupons).toHaveLength(3);
    // Remove the first: its file goes, the old fields now name the next one.
    const arquivoDoPrimeiro = (await linha<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons where id = ${e.cupons[0]!.id}`))!.arquivo;
    expect(noDisco()).toContain(arquivoDoPrimeiro);
    r = await editar(d.id, camposEdicao({ remover_cupons: String(e.cupons[0]!.id) }));
    expect(r.statusCode, r.body).toBe(200);
    e = r.json().despesa as Despesa;
    expect(e.cupons.map((c) => c.nome)).toEqual(['cupom.pdf', 'c.jpg']);
    expect(e.cupom_nome).toBe('cupom.pdf');
    expect(noDisco()).not.toContain(arquivoDoPrimeiro);
    // Removing it again (a replay) changes nothing.
    expect((await editar(d.id, camposEdicao({ remover_cupons: String(d.cupons[0]!.id) }))).statusCode).toBe(200);
    // 2 kept + 4 new = 6: refused, nothing changes.
    const antes = { disco: noDisco(), linhas: await linhasDeCupons() };
    r = await editar(
      d.id,
      camposEdicao({ remover_cupons: '', valor: '99,00' }),
      [21, 22, 23, 24].map((i) => jpeg(`${i}.jpg`, i)),
    );
    esperarRecusa(r, 400, 'dados_invalidos', MENSAGEM_CUPONS_DEMAIS);
    expect(noDisco()).toEqual(antes.disco);
    expect(await linhasDeCupons()).toBe(antes.linhas);
    const depois = await t.chamar({ method: 'GET', url: `/api/despesas/${d.id}/cupons`, token: ana.token });
    expect((depois.json().cupons as Cupom[]).map((c) => c.nome)).toEqual(['cupom.pdf', 'c.jpg']);
    // Remove one and add three in the same edit: 1 + 3 = 4, fine.
    r = await editar(
      d.id,
      camposEdicao({ remover_cupons: String(e.cupons[0]!.id) }),
      [31, 32, 33].map((i) => jpeg(`${i}.jpg`, i)),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().despesa as Despesa).cupons.map((c) => c.nome)).toEqual(['c.jpg', '31.jpg', '32.jpg', '33.jpg']);
  });

  it('a edição de um aplicativo antigo (sem remover_cupons) troca todos pelo arquivo enviado, como antes', async () => {
    const d = await criarOk([jpeg('a.jpg', 41), pdf()]);
    const arquivos = await arquivosDaDespesa(d.id);
    const r = await editar(d.id, camposEdicao(), [jpeg('nova.jpg', 42)]);
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().despesa as Despesa).cupons.map((c) => c.nome)).toEqual(['nova.jpg']);
    for (const a of arquivos) expect(noDisco()).not.toContain(a);
    // excluir_cupom removes them all.
    const sem = await editar(d.id, camposEdicao({ excluir_cupom: 'true' }));
    expect((sem.json().despesa as Despesa).cupons).toEqual([]);
    expect((sem.json().despesa as Despesa).cupom_url).toBeNull();
  });

  it('excluir a despesa apaga todos os seus comprovantes e libera a cota', async () => {
    const d = await criarOk([jpeg('x.jpg', 51), pdf()]);
    const arquivos = await arquivosDaDespesa(d.id);
    expect(arquivos).toHaveLength(2);
    const r = await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token });
    expect(r.statusCode, r.body).toBe(200);
    for (const a of arquivos) expect(noDisco()).not.toContain(a);
    expect(await arquivosDaDespesa(d.id)).toEqual([]);
  });

  it('a sincronização em lote leva vários comprovantes de uma operação (partes repetidas arquivo:<id>)', async () => {
    const opId = uuidv7();
    const dados = { ...campos(), valor: 4590 };
    const fd = new FormData();
    fd.append('operacoes', JSON.stringify({ cliente_id: 'aparelho-1', operacoes: [{ id: opId, tipo: 'despesa.criar', seq: 1, dados }] }));
    fd.append(`arquivo:${opId}`, new Blob([new Uint8Array(jpeg('nfce.jpg', 61).conteudo)], { type: 'image/jpeg' }), 'nfce.jpg');
    fd.append(`arquivo:${opId}`, new Blob([new Uint8Array(pdf().conteudo)], { type: 'application/pdf' }), 'cartao.pdf');
    const resposta = new Response(fd);
    const corpo = { payload: Buffer.from(await resposta.arrayBuffer()), headers: { 'content-type': resposta.headers.get('content-type')! } };
    const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, ...corpo });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().resultados[0].status).toBe(201);
    const lida = await t.chamar({ method: 'GET', url: `/api/despesas/${dados.id}/cupons`, token: ana.token });
    expect((lida.json().cupons as Cupom[]).map((c) => [c.nome, c.mime])).toEqual([
      ['nfce.jpg', 'image/jpeg'],
      ['cartao.pdf', 'application/pdf'],
    ]);
    // The same batch again (the answer was lost): answered from the log, nothing added.
    const de_novo = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, ...corpo });
    expect(de_novo.json().resultados[0].repetida).toBe(true);
    expect(((await t.chamar({ method: 'GET', url: `/api/despesas/${dados.id}/cupons`, token: ana.token })).json().cupons as Cupom[]).length).toBe(2);
  });
});

describe('arquivo de resgate (.sgp)', () => {
  it('uma despesa com dois comprovantes exportada do celular é importada com os dois (arquivos); um arquivo antigo só com `arquivo` também', async () => {
    const paraPendencia = (a: ArquivoTeste) => ({ nome: a.nome, tipo: a.tipo, tamanho: a.conteudo.length, base64: a.conteudo.toString('base64') });
    const dois = { ...campos(), valor: 4590 };
    const um = { ...campos(), valor: 1000 };
    const foto = jpeg('nfce.jpg', 71);
    const conteudo = arquivoPendencias({ id: ana.id, nome: 'Ana Estrada', email: (await t.chamar({ method: 'GET', url: '/api/auth/me', token: ana.token })).json().usuario.email }, [
      { ...operacaoPendencia({ tipo: 'despesa.criar', seq: 1, dados: dois }, foto), arquivos: [paraPendencia(foto), paraPendencia(pdf())] },
      operacaoPendencia({ tipo: 'despesa.criar', seq: 2, dados: um }, jpeg('antigo.jpg', 72)),
    ]);
    const r = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: tokenAdmin, ...(await formularioPendencias(conteudo)) });
    expect(r.statusCode, r.body).toBe(200);
    const nomes = async (id: string) => ((await t.chamar({ method: 'GET', url: `/api/despesas/${id}/cupons`, token: ana.token })).json().cupons as Cupom[]).map((c) => c.nome);
    expect(await nomes(dois.id)).toEqual(['nfce.jpg', 'cupom.pdf']);
    expect(await nomes(um.id)).toEqual(['antigo.jpg']);
  });
});

// SQLite's migration 0009 on a database file of the previous release; PostgreSQL's migrations begin after it.
describe.skipIf(MOTOR_DE_TESTE === 'postgres')('migração 0009', () => {
  it('a despesa com um comprovante, gravada antes da migração, é lida depois como uma lista de um', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-migracao-'));
    try {
      const todas = recursosDoProjeto().pastaMigracoes;
      // The migrations up to 0008 only: the database of the previous release.
      const anteriores = path.join(dir, 'migracoes');
      fs.cpSync(todas, anteriores, { recursive: true });
      const diario = JSON.parse(fs.readFileSync(path.join(anteriores, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
      const corte = diario.entries.findIndex((e) => e.tag === '0009_despesa_cupons');
      expect(corte).toBeGreaterThan(0);
      diario.entries = diario.entries.slice(0, corte);
      fs.writeFileSync(path.join(anteriores, 'meta', '_journal.json'), JSON.stringify(diario));
      const arquivo = path.join(dir, 'app.db');
      abrirBanco({ arquivo, pastaMigracoes: anteriores }).$client.close();

      const antigo = new Database(arquivo);
      antigo.exec(`
        insert into usuarios (id, nome, email, senha_hash, tipo) values (7, 'Ana', 'ana@x.com.br', 'x', 'funcionario');
        insert into estados (uf, codigo_ibge, nome) values ('GO', 52, 'Goiás');
        insert into cidades (id, nome, nome_busca, uf) values (${GOIANIA}, 'Goiânia', 'goiania', 'GO');
        insert into rotas (id, nome, funcionario_id, data_inicio, data_fim) values (3, 'Rota', 7, '2026-01-01', '2026-12-31');
      `);
      antigo
        .prepare(
          `insert into despesas (id, rota_id, cidade_id, funcionario_id, data_despesa, tipo, valor_centavos, arquivo_cupom, cupom_mime, cupom_nome_original, cupom_tamanho, registrado_em)
           values ('0190a000-0000-7000-8000-000000000001', 3, ${GOIANIA}, 7, '2026-02-02', 'alimentacao', 4590, '${'a'.repeat(32)}.jpg', 'image/jpeg', 'nota fiscal.jpg', 2048, '2026-02-02T12:00:00.000Z'),
                  ('0190a000-0000-7000-8000-000000000002', 3, ${GOIANIA}, 7, '2026-02-02', 'pedagio', 1000, null, null, null, null, '2026-02-02T12:00:00.000Z')`,
        )
        .run();
      antigo.close();

      const db = abrirBanco({ arquivo, pastaMigracoes: todas });
      try {
        const com = (await buscarDespesaApresentada(db, '0190a000-0000-7000-8000-000000000001'))!;
        expect(com.cupons).toEqual([
          { id: expect.any(Number), mime: 'image/jpeg', nome: 'nota fiscal.jpg', tamanho: 2048, url: `/api/despesas/0190a000-0000-7000-8000-000000000001/cupons/${com.cupons![0]!.id}` },
        ]);
        expect(com.arquivo_cupom).toBe(`${'a'.repeat(32)}.jpg`);
        expect((await buscarDespesaApresentada(db, '0190a000-0000-7000-8000-000000000002'))!.cupons).toEqual([]);
      } finally {
        db.$client.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
