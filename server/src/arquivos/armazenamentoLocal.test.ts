/**
 * Receipts in the local folder (DATA_DIR/uploads) since the async port: a file is
 * linked in place under its final name before the transaction that points at it (nothing but the
 * database is awaited inside one), so the guarantees are kept another way: a transaction that refuses
 * or fails removes the files it would have pointed at and leaves the received ones where they were
 * (no file without a row), a row is only written once its file is there (no row without a file), and
 * the sweep removes what a crash in between left (a file no row names, older than an hour), also on
 * disk now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENSAGEM_CUPONS_DEMAIS, despesaCriarSchema } from '../../../shared/schemas/despesas';
import { ARQUIVOS, camposDeDespesa, camposDeEdicao, criarCenarioDeDespesas, formulario, type FuncionarioDeTeste } from '../../test/despesas';
import type { AppDeTeste } from '../../test/helper';
import { IDADE_MINIMA_ORFAO_MS } from './armazenamento';
import type { CupomRecebido } from '../despesas/cupons';
import { linha, linhas } from '../db';
import { arquivosGuardados } from '../despesas/repositorio';
import { criarDespesa } from '../despesas/servico';

let t: AppDeTeste;
let ana: FuncionarioDeTeste;
let rotaAna: number;

beforeAll(async () => {
  ({ t, ana, rotaAna } = await criarCenarioDeDespesas());
});
afterAll(async () => {
  await t?.fechar();
});

const pastaUploads = () => path.join(t.dataDir, 'uploads');
const noDisco = () => fs.readdirSync(pastaUploads()).sort();
const guardados = (nomes: string[]) => arquivosGuardados(t.db, nomes);
const horasAtras = (horas: number) => new Date(Date.now() - horas * 60 * 60 * 1000);

/** A received receipt as the services take it: a temporary file in uploads-tmp, written `idadeHoras` ago. */
function cupomRecebido(semente: number, idadeHoras = 0): CupomRecebido {
  const a = ARQUIVOS.jpeg();
  a.conteudo[100] = semente;
  const caminho = path.join(t.dataDir, 'uploads-tmp', `recebido-${semente}.part`);
  fs.writeFileSync(caminho, a.conteudo);
  if (idadeHoras > 0) fs.utimesSync(caminho, horasAtras(idadeHoras), horasAtras(idadeHoras));
  return { caminhoTemporario: caminho, tamanho: a.conteudo.length, mime: 'image/jpeg', extensao: 'jpg', nomeOriginal: `nota-${semente}.jpg` };
}

function contexto(aoAplicar?: () => Promise<void>) {
  return {
    db: t.db,
    armazenamento: t.app.armazenamento,
    fuso: 'America/Sao_Paulo',
    cotaComprovantesBytes: 50 * 1024 * 1024,
    ...(aoAplicar ? { aoAplicar } : {}),
  };
}

const usuarioAna = () => ({ id: ana.id, nome: 'Ana Estrada', email: ana.email, tipo: 'funcionario' as const });

describe('comprovantes na pasta local, colocados antes da transação', () => {
  it('a transação que falha depois de os arquivos estarem no lugar não deixa linha nem arquivo', async () => {
    const antes = noDisco();
    const dados = despesaCriarSchema.parse(camposDeDespesa(rotaAna));
    const falha = new Error('falha no meio da transação');
    const recebidos = [cupomRecebido(1), cupomRecebido(2)];
    await expect(
      criarDespesa(
        contexto(async () => {
          throw falha;
        }),
        usuarioAna(),
        dados,
        recebidos,
      ),
    ).rejects.toBe(falha);
    expect(noDisco()).toEqual(antes);
    // The received files stay where they were (an upload sent in parts waits for the corrected try; a request's temporaries go with it).
    for (const r of recebidos) expect(fs.existsSync(r.caminhoTemporario)).toBe(true);
    expect(await linha(t.db, sql`select count(*) as n from despesas where id = ${dados.id}`)).toEqual({ n: 0 });

    // The same write without the failure: the row and both files, each file named by a row.
    const { despesa, criada } = await criarDespesa(contexto(), usuarioAna(), dados, [cupomRecebido(1), cupomRecebido(2)]);
    expect(criada).toBe(true);
    const arquivos = (await linhas<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons where despesa_id = ${despesa.id} order by ordem`)).map((l) => l.arquivo);
    expect(arquivos).toHaveLength(2);
    expect(noDisco()).toEqual([...antes, ...arquivos].sort());
  });

  it('a recusa dentro da transação (o 6º comprovante de uma edição) não deixa os arquivos novos na pasta', async () => {
    const quatro = [1, 2, 3, 4].map((i) => ({ ...ARQUIVOS.jpeg(), nome: `n${i}.jpg`, conteudo: Buffer.concat([ARQUIVOS.jpeg().conteudo, Buffer.from([i])]) }));
    const criada = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(camposDeDespesa(rotaAna), quatro)) });
    expect(criada.statusCode, criada.body).toBe(201);
    const antes = noDisco();
    const novas = [5, 6].map((i) => ({ ...ARQUIVOS.jpeg(), nome: `n${i}.jpg`, conteudo: Buffer.concat([ARQUIVOS.jpeg().conteudo, Buffer.from([i])]) }));
    const r = await t.chamar({ method: 'PUT', url: `/api/despesas/${criada.json().despesa.id}`, token: ana.token, ...(await formulario(camposDeEdicao({ remover_cupons: '' }), novas)) });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().error).toBe(MENSAGEM_CUPONS_DEMAIS);
    expect(noDisco()).toEqual(antes);
  });

  it('a varredura apaga da pasta só o arquivo sem linha e com mais de uma hora; um recebido há horas, posto no lugar agora, é novo', async () => {
    const { despesa } = await criarDespesa(contexto(), usuarioAna(), despesaCriarSchema.parse(camposDeDespesa(rotaAna)), [cupomRecebido(10)]);
    const [comLinha] = (await linhas<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons where despesa_id = ${despesa.id}`)).map((l) => l.arquivo);
    // What a crash between the rename and the commit leaves: a file in place that no row names.
    const orfao = `${'b'.repeat(32)}.jpg`;
    fs.writeFileSync(path.join(pastaUploads(), orfao), 'x');
    const naoNosso = 'leia-me.txt';
    fs.writeFileSync(path.join(pastaUploads(), naoNosso), 'x');

    // Within the hour nothing goes: the write may still be on its way to the commit.
    expect(await t.app.armazenamento.varrerOrfaos(guardados)).toBe(0);
    // A receipt received hours ago and put in place now is young too (its file's time is when it was placed).
    const [colocado] = await t.app.armazenamento.preparar([cupomRecebido(11, 3)], [`${'c'.repeat(32)}.jpg`]);
    expect(Date.now() - fs.statSync(path.join(pastaUploads(), colocado!)).mtimeMs).toBeLessThan(IDADE_MINIMA_ORFAO_MS);
    expect(await t.app.armazenamento.varrerOrfaos(guardados)).toBe(0);

    // Two hours later: the files no row names go (ours only); the one a row names stays.
    expect(await t.app.armazenamento.varrerOrfaos(guardados, Date.now() + 2 * IDADE_MINIMA_ORFAO_MS)).toBe(2);
    const restantes = noDisco();
    expect(restantes).toContain(comLinha);
    expect(restantes).toContain(naoNosso);
    expect(restantes).not.toContain(orfao);
    expect(restantes).not.toContain(colocado);
  });
});
