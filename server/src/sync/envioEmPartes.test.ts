/**
 * Receipts in resumable parts: PUT /api/sync/envios/:id/partes, GET
 * /api/sync/envios/:id, and a batch operation that names the finished upload instead of carrying
 * the receipt in a multipart part.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { GOIANIA, criarRotaAtiva, sha256 } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { linha } from '../db';
import { ENVIO_ABANDONADO_MS, limparEnviosAbandonados, pastaEnvios } from './envioEmPartes';

let t: AppDeTeste;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let rotaAna: number;
let rotaBruno: number;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  bruno = await t.criarFuncionario({ nome: 'Bruno Campo' });
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA], 'Rota da Ana');
  rotaBruno = await criarRotaAtiva(t, bruno.id, [GOIANIA], 'Rota do Bruno');
});
afterAll(() => t.fechar());

/** A 'scanned PDF' of `tamanho` bytes (the type is read from its first bytes). */
function pdf(tamanho: number): Buffer {
  const b = Buffer.alloc(tamanho);
  b.write('%PDF-1.4\n', 0, 'latin1');
  for (let i = 9; i < tamanho; i++) b[i] = (i * 131 + 17) % 251;
  return b;
}

const parte = (token: string, id: string, inicio: number, total: number, bytes: Buffer, extra: Record<string, string> = {}) =>
  t.chamar({
    method: 'PUT',
    url: `/api/sync/envios/${id}/partes?${new URLSearchParams({ inicio: String(inicio), total: String(total), ...extra })}`,
    token,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });

const situacao = (token: string, id: string) => t.chamar({ method: 'GET', url: `/api/sync/envios/${id}`, token });

function despesa(rota: number, id = uuidv7()) {
  return {
    id: uuidv7(),
    tipo: 'despesa.criar',
    seq: 1,
    dados: { id, rota_id: rota, cidade_id: GOIANIA, data_despesa: somarDias(dia, -1), tipo: 'alimentacao', tipo_outro: '', valor: 2590, descricao: 'Almoço' },
  };
}

async function lote(token: string, operacoes: unknown[], envios: Record<string, { id: string; nome: string }>) {
  const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token, payload: { cliente_id: 'aparelho-1', operacoes, envios } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as { id: string; status: number | string; corpo?: { error: string } }[];
}

const cupomGuardado = (despesaId: string) =>
  linha<{ arquivo: string | null; tamanho: number | null; nome: string | null }>(
    t.db,
    sql`select arquivo_cupom as arquivo, cupom_tamanho as tamanho, cupom_nome_original as nome from despesas where id = ${despesaId}`,
  );

const arquivosDoEnvio = (usuarioId: number, id: string) =>
  fs.existsSync(path.join(pastaEnvios(t.dataDir), String(usuarioId))) ? fs.readdirSync(path.join(pastaEnvios(t.dataDir), String(usuarioId))).filter((n) => n.startsWith(id)) : [];

describe('envio de comprovante em partes', () => {
  it('retoma do byte que o servidor tem, aceita a mesma parte de novo, e o lote usa o envio pronto', async () => {
    const conteudo = pdf(300_000);
    const id = uuidv7();
    const hash = sha256(conteudo);
    expect((await situacao(ana.token, id)).statusCode).toBe(404);

    // First part arrives; the next one is 'cut' (never sent); the phone asks where to go on from.
    let r = await parte(ana.token, id, 0, conteudo.length, conteudo.subarray(0, 120_000), { sha256: hash });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ recebidos: 120_000, total: 300_000, completo: false });
    r = await situacao(ana.token, id);
    expect(r.json()).toMatchObject({ recebidos: 120_000, completo: false });
    expect(r.headers['upload-offset']).toBe('120000');

    // Past what the server has: refused with where to resume from, nothing written.
    r = await parte(ana.token, id, 200_000, conteudo.length, conteudo.subarray(200_000), { sha256: hash });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ recebidos: 120_000 });
    expect(r.json().error).toMatch(/continue a partir/);

    // The same bytes again (the answer was lost): harmless.
    r = await parte(ana.token, id, 60_000, conteudo.length, conteudo.subarray(60_000, 120_000), { sha256: hash });
    expect(r.json()).toMatchObject({ recebidos: 120_000 });

    // An operation naming an unfinished upload is refused alone (the phone sends the rest first).
    const antes = despesa(rotaAna);
    let resultados = await lote(ana.token, [antes], { [antes.id]: { id, nome: 'scan.pdf' } });
    expect(resultados[0]).toMatchObject({ status: 409 });
    expect(resultados[0]!.corpo!.error).toMatch(/não chegou inteiro/);
    expect(await cupomGuardado(antes.dados.id)).toBeUndefined();

    r = await parte(ana.token, id, 120_000, conteudo.length, conteudo.subarray(120_000), { sha256: hash });
    expect(r.json()).toEqual({ recebidos: 300_000, total: 300_000, completo: true });

    const op = despesa(rotaAna);
    resultados = await lote(ana.token, [op], { [op.id]: { id, nome: 'scan.pdf' } });
    expect(resultados[0]).toMatchObject({ id: op.id, status: 201 });
    const guardado = (await cupomGuardado(op.dados.id))!;
    expect(guardado).toMatchObject({ tamanho: 300_000, nome: 'scan.pdf' });
    expect(sha256(fs.readFileSync(path.join(t.dataDir, 'uploads', guardado.arquivo!)))).toBe(hash);
    // Moved into place: the upload's files are gone.
    expect(arquivosDoEnvio(ana.id, id)).toEqual([]);
    expect((await situacao(ana.token, id)).statusCode).toBe(404);

    // The batch again (its answer lost): answered from the log, nothing new.
    resultados = await lote(ana.token, [op], { [op.id]: { id, nome: 'scan.pdf' } });
    expect(resultados[0]).toMatchObject({ status: 201, repetida: true });
  });

  it('um funcionário não vê, não completa e não usa o envio de outro', async () => {
    const conteudo = pdf(50_000);
    const id = uuidv7();
    expect((await parte(ana.token, id, 0, conteudo.length, conteudo)).json()).toMatchObject({ completo: true });

    // Probing: another employee's upload reads as missing.
    esperarRecusa(await situacao(bruno.token, id), 404, 'nao_encontrado', 'Envio do comprovante não encontrado.');
    // Using it in a batch: refused, Ana's upload untouched.
    const op = despesa(rotaBruno);
    const resultados = await lote(bruno.token, [op], { [op.id]: { id, nome: 'roubado.pdf' } });
    expect(resultados[0]).toMatchObject({ status: 409 });
    expect(await cupomGuardado(op.dados.id)).toBeUndefined();
    expect((await situacao(ana.token, id)).json()).toMatchObject({ recebidos: 50_000, completo: true });
    // Writing to the same id makes Bruno's own upload; Ana's bytes stay as they were.
    expect((await parte(bruno.token, id, 0, 10, Buffer.from('%PDF-1.4\nx'))).json()).toMatchObject({ recebidos: 10, completo: true });
    expect((await situacao(ana.token, id)).json()).toMatchObject({ recebidos: 50_000, total: 50_000 });

    // An admin has no uploads here (employees only).
    expect((await situacao(await t.tokenAdmin(), id)).statusCode).toBe(403);
  });

  it('recusa em pt-BR: tipo, resumo diferente, tamanho, parte além do declarado, identificador', async () => {
    const id = uuidv7();
    const exe = Buffer.alloc(1000, 0x4d);
    esperarRecusa(await parte(ana.token, id, 0, exe.length, exe), 415, 'tipo_nao_suportado');
    expect(arquivosDoEnvio(ana.id, id)).toEqual([]);

    const conteudo = pdf(2000);
    const outro = uuidv7();
    esperarRecusa(await parte(ana.token, outro, 0, conteudo.length, conteudo, { sha256: 'a'.repeat(64) }), 400, 'dados_invalidos', 'O comprovante chegou diferente do que saiu do aparelho. Toque em Tentar novamente para enviá-lo de novo.');
    expect(arquivosDoEnvio(ana.id, outro)).toEqual([]);

    esperarRecusa(await parte(ana.token, uuidv7(), 0, 21 * 1024 * 1024, conteudo), 400, 'dados_invalidos', 'O arquivo é grande demais. O limite é 20 MB.');
    esperarRecusa(await parte(ana.token, uuidv7(), 0, 100, conteudo), 400, 'dados_invalidos', 'A parte passa do tamanho declarado do comprovante.');
    esperarRecusa(await parte(ana.token, '..%2F..%2Fetc', 0, 100, conteudo.subarray(0, 100)), 400, 'dados_invalidos');
    esperarRecusa(await situacao(ana.token, 'nao-e-um-id!'), 400, 'dados_invalidos', 'Identificador do envio inválido.');
    const r = await t.chamar({ method: 'PUT', url: `/api/sync/envios/${uuidv7()}/partes?inicio=0&total=10`, token: ana.token, payload: { a: 1 } });
    esperarRecusa(r, 400, 'dados_invalidos', 'Envie os bytes da parte como application/octet-stream.');

    // The same id with another size: another file.
    const mesmo = uuidv7();
    await parte(ana.token, mesmo, 0, 2000, conteudo.subarray(0, 1000));
    esperarRecusa(await parte(ana.token, mesmo, 1000, 3000, conteudo.subarray(0, 1000)), 409, 'conflito', 'Este envio começou com outro arquivo. Comece um envio novo.');
  });

  it('respeita a cota de comprovantes contando os envios em andamento, e limpa os abandonados', async () => {
    const pequeno = await criarAppDeTeste({ env: { COTA_COMPROVANTES_MB: '1' } });
    try {
      const f = await pequeno.criarFuncionario();
      const chamarParte = (id: string, total: number, bytes: Buffer) =>
        pequeno.chamar({ method: 'PUT', url: `/api/sync/envios/${id}/partes?inicio=0&total=${total}`, token: f.token, payload: bytes, headers: { 'content-type': 'application/octet-stream' } });
      const primeiro = uuidv7();
      expect((await chamarParte(primeiro, 700_000, pdf(1000))).statusCode).toBe(200);
      // 700 KB reserved by the upload in progress: another 500 KB passes the 1 MB quota.
      esperarRecusa(await chamarParte(uuidv7(), 500_000, pdf(1000)), 413, 'arquivo_grande', /Limite de armazenamento/);

      // A day later with no byte: the upload is removed (and frees the quota).
      expect(limparEnviosAbandonados(pequeno.dataDir, Date.now() + ENVIO_ABANDONADO_MS + 60_000)).toBe(2);
      expect((await pequeno.chamar({ method: 'GET', url: `/api/sync/envios/${primeiro}`, token: f.token })).statusCode).toBe(404);
      expect((await chamarParte(uuidv7(), 500_000, pdf(1000))).statusCode).toBe(200);
    } finally {
      await pequeno.fechar();
    }
  });
});
