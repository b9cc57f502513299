/**
 * The accountant's ZIP keeps the server's memory bounded (docs/decisions/paineis-e-relatorios.md, 'O ZIP
 * do contador'): thousands of rows and dozens of receipts go out through a real HTTP connection, and the
 * memory the process holds while sending a period four times larger is about the same as for the small
 * one (rows read in pages, receipts one at a time, the client's pace respected). The archive is then
 * read back whole and checked entry by entry.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { somarDias } from '../../../shared/dates';
import { criarRotaAtiva, ontem, sha256 } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { lerZip } from '../../test/zip';
import { pastaUploads } from '../despesas/cupons';
import { despesaCupons, despesas, vendas } from '../db/tabelas';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const CIDADES = [5201108, 5204508, 5205109, 5208707, 5211503, 5217302, 5218805, 3104007, 3106200, 3148004];
const DIAS_PEQUENO = 90;
const DIAS_GRANDE = 4 * DIAS_PEQUENO;
const DESPESAS_POR_DIA = 12;
/** One receipt every 3 days, of this size: dozens of them, tens of MB for the big period. */
const COMPROVANTE_A_CADA = 3;
const TAMANHO_COMPROVANTE = 400 * 1024;

let t: AppDeTeste;
let token: string;
const inicio = somarDias(ontem(), -(DIAS_GRANDE - 1));
const hashes = new Map<number, string>();

beforeAll(async () => {
  t = await criarAppDeTeste();
  token = await t.tokenAdmin();
  const ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  const rota = await criarRotaAtiva(t, ana.id, CIDADES, 'Rota Grande');
  const pasta = pastaUploads(t.dataDir);
  fs.mkdirSync(pasta, { recursive: true });
  for (let dia = 0; dia < DIAS_GRANDE; dia++) {
    const data = somarDias(inicio, dia);
    await t.db.insert(vendas).values(
      CIDADES.map((cidadeId, i) => ({
        id: uuidv7(),
        rotaId: rota,
        cidadeId,
        funcionarioId: ana.id,
        dataVenda: data,
        dinheiroCentavos: 10000 + dia,
        pixCentavos: i * 100,
        observacoes: `Venda do dia ${dia} em ${cidadeId}`,
        registradoEm: new Date().toISOString(),
      })),
    );
    const linhas = Array.from({ length: DESPESAS_POR_DIA }, (_, i) => ({
      id: uuidv7(),
      rotaId: rota,
      cidadeId: CIDADES[i % CIDADES.length]!,
      funcionarioId: ana.id,
      dataDespesa: data,
      tipo: 'alimentacao' as const,
      valorCentavos: 4800,
      descricao: `Refeição ${i} do dia ${dia}; com descrição longa o bastante para pesar na memória se fosse guardada inteira`,
      registradoEm: new Date(Date.now() + i).toISOString(),
    }));
    if (dia % COMPROVANTE_A_CADA === 0) {
      const arquivo = `${uuidv7().replace(/-/g, '')}.jpg`;
      const bytes = Buffer.alloc(TAMANHO_COMPROVANTE, dia % 251);
      bytes.set([0xff, 0xd8, 0xff, 0xe0]);
      fs.writeFileSync(path.join(pasta, arquivo), bytes);
      hashes.set(dia, sha256(bytes));
      Object.assign(linhas[0]!, { arquivoCupom: arquivo, cupomMime: 'image/jpeg', cupomNomeOriginal: 'foto.jpg', cupomTamanho: bytes.length });
      await t.db.insert(despesas).values(linhas);
      await t.db.insert(despesaCupons).values({ despesaId: linhas[0]!.id, ordem: 0, arquivo, mime: 'image/jpeg', nomeOriginal: 'foto.jpg', tamanho: bytes.length });
    } else {
      await t.db.insert(despesas).values(linhas);
    }
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
}, 300_000);
afterAll(() => t.fechar());

const url = (dias: number) => {
  const { port } = t.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}/api/exportacoes/contabil?data_inicio=${inicio}&data_fim=${somarDias(inicio, dias - 1)}`;
};

/** Downloads the ZIP over HTTP; `aCada` bytes received, the process's live memory (after a GC) is sampled. */
function baixar(dias: number, guardar: boolean): Promise<{ bytes: number; picoMemoria: number; corpo: Buffer | null }> {
  return new Promise((ok, falha) => {
    const partes: Buffer[] = [];
    let bytes = 0;
    let proximaAmostra = 0;
    let pico = 0;
    const amostrar = () => {
      gc();
      const m = process.memoryUsage();
      pico = Math.max(pico, m.heapUsed + m.arrayBuffers);
    };
    http
      .get(url(dias), { headers: { authorization: `Bearer ${token}` } }, (resposta) => {
        if (resposta.statusCode !== 200) return falha(new Error(`status ${resposta.statusCode}`));
        resposta.on('data', (parte: Buffer) => {
          bytes += parte.length;
          if (guardar) partes.push(parte);
          if (bytes >= proximaAmostra) {
            amostrar();
            proximaAmostra = bytes + 2 * 1024 * 1024;
          }
        });
        resposta.on('end', () => ok({ bytes, picoMemoria: pico, corpo: guardar ? Buffer.concat(partes) : null }));
        resposta.on('error', falha);
      })
      .on('error', falha);
  });
}

describe('exportação para o contador com muitos dados', () => {
  it('a memória do processo durante o envio não cresce com o tamanho do período', async () => {
    // A first run warms up what loads once (pdfkit, the prepared statements).
    await baixar(DIAS_PEQUENO, false);
    const pequeno = await baixar(DIAS_PEQUENO, false);
    const grande = await baixar(DIAS_GRANDE, false);
    // Four times the rows and the receipts (tens of MB more), and about the same memory held while sending.
    expect(grande.bytes).toBeGreaterThan(pequeno.bytes * 3);
    expect(grande.bytes - pequeno.bytes).toBeGreaterThan(30 * 1024 * 1024);
    const MB = 1024 * 1024;
    expect((grande.picoMemoria - pequeno.picoMemoria) / MB, `pequeno ${(pequeno.picoMemoria / MB).toFixed(1)} MB, grande ${(grande.picoMemoria / MB).toFixed(1)} MB`).toBeLessThan(15);
  }, 300_000);

  it('o ZIP grande abre, com cada linha e cada comprovante', async () => {
    const { corpo } = await baixar(DIAS_GRANDE, true);
    const entradas = lerZip(corpo!);
    const porNome = new Map(entradas.map((e) => [e.nome, e]));
    const linhas = (nome: string) => porNome.get(nome)!.dados.toString('utf8').split('\r\n').filter(Boolean).length;
    expect(linhas('despesas.csv')).toBe(1 + DIAS_GRANDE * DESPESAS_POR_DIA);
    expect(linhas('vendas.csv')).toBe(1 + DIAS_GRANDE * CIDADES.length);
    expect(porNome.get('resumo.pdf')!.dados.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const comprovantes = entradas.filter((e) => e.nome.startsWith('comprovantes/'));
    expect(comprovantes).toHaveLength(DIAS_GRANDE / COMPROVANTE_A_CADA);
    for (const [dia, hash] of hashes) {
      const e = porNome.get(`comprovantes/${somarDias(inicio, dia)}_ana-estrada_alimentacao_48-00.jpg`);
      expect(e, `comprovante do dia ${dia}`).toBeDefined();
      expect(sha256(e!.dados)).toBe(hash);
    }
  }, 300_000);
});
