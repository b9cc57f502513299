/**
 * Exports off the request path: the PDF and the spreadsheet are drawn in a worker
 * thread (with its own read-only connection), so the phones' requests keep being answered while a
 * report of every route is produced; at most two at a time, a pt-BR 503 beyond.
 */
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { inserirDespesa, inserirVenda } from '../../test/fabricas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { abrirBanco, arquivoSqliteDe } from '../db';
import { localizarTrabalhador, recursosDoProjeto } from '../recursos';
import { EXPORTACOES_SIMULTANEAS, LimiteDeExportacoes, MENSAGEM_EXPORTACOES_OCUPADAS, origemDosDados, TrabalhadoresDeExportacao } from './foraDaThread';

let t: AppDeTeste;
let admin: string;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  // Twelve routes with sales and expenses: the PDF has a page of details for each.
  for (let i = 0; i < 12; i++) {
    const f = await t.criarFuncionario({ nome: `Funcionária ${i}` });
    const r = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: admin,
      payload: { nome: `Rota ${i}`, funcionario_id: f.id, tem_secretario: false, valor_aluguel: 100, data_inicio: somarDias(dia, -10), data_fim: dia, observacoes: '', cidades: [5208707, 5201108] },
    });
    expect(r.statusCode, r.body).toBe(201);
    const rota = r.json().rota.id as number;
    for (let d = 0; d < 5; d++) await inserirVenda(t.db, rota, f.id, d % 2 ? 5208707 : 5201108, somarDias(dia, -d), { dinheiro: 1000 * (i + 1), pix: 55 });
    await inserirDespesa(t.db, rota, f.id, 5208707, dia, 4_550);
  }
});
afterAll(() => t.fechar());

// The worker opens the database on its own read-only connection: the SQLite file, or a connection of its own to
// the same PostgreSQL (origemDosDados, the last test). The same tests on both engines.

const exportar = (formato: 'pdf' | 'excel') => t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=${formato}`, token: admin });

describe('exportações fora da thread principal', () => {
  it('o PDF não é desenhado na thread das requisições, e o health responde enquanto ele é gerado', async () => {
    const desenhos = vi.spyOn(PDFDocument.prototype, 'end');
    try {
      let terminou = false;
      const exportacao = exportar('pdf').then((r) => {
        terminou = true;
        return r;
      });
      const saude = await t.chamar({ method: 'GET', url: '/api/health' });
      expect(saude.statusCode).toBe(200);
      expect(terminou).toBe(false);
      const r = await exportacao;
      expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(r.headers['content-disposition']).toBe('attachment; filename="relatorio_rotas.pdf"');
      expect(r.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(r.rawPayload.subarray(-6).toString()).toContain('%%EOF');
      expect(desenhos).not.toHaveBeenCalled();
    } finally {
      desenhos.mockRestore();
    }
  }, 60_000);

  it('a planilha também sai do trabalhador, com as linhas de todas as rotas e o total', async () => {
    const abas = vi.spyOn(ExcelJS.Workbook.prototype, 'addWorksheet');
    try {
      const r = await exportar('excel');
      expect(r.statusCode).toBe(200);
      const livro = new ExcelJS.Workbook();
      await livro.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
      const aba = livro.getWorksheet('Relatório de Rotas')!;
      expect(aba.getRow(18).getCell(1).value).toBe('Total (12 rotas)');
      // 5 sales of (i+1) * R$ 10,00 + R$ 0,55 for i = 0..11
      expect(aba.getRow(18).getCell(4).value).toBeCloseTo(5 * (10 * 78 + 0.55 * 12), 2);
      // Only the check above opened a workbook on this thread.
      expect(abas).toHaveBeenCalledTimes(0);
    } finally {
      abas.mockRestore();
    }
  }, 60_000);

  it(`no máximo ${EXPORTACOES_SIMULTANEAS} ao mesmo tempo: as outras recebem 503 em português, e a vaga volta quando uma termina`, async () => {
    // Two admins (one user's requests already wait in a line of two: plugins/vezPorUsuario.ts), two exports each.
    const r = await t.chamar({ method: 'POST', url: '/api/usuarios', token: admin, payload: { nome: 'Outra Admin', email: 'outra@teste.com.br', senha: 'senha123', tipo: 'admin' } });
    expect(r.statusCode, r.body).toBe(201);
    const outra = await t.login('outra@teste.com.br', 'senha123');
    const deOutra = () => t.chamar({ method: 'GET', url: '/api/relatorios/rotas/exportar?formato=pdf', token: outra });
    const respostas = await Promise.all([exportar('pdf'), deOutra(), exportar('pdf'), deOutra()]);
    const recusadas = respostas.filter((r) => r.statusCode === 503);
    expect(recusadas.length).toBeGreaterThanOrEqual(1);
    for (const r of recusadas) {
      esperarRecusa(r, 503, 'indisponivel', MENSAGEM_EXPORTACOES_OCUPADAS);
      expect(r.headers['retry-after']).toBeDefined();
    }
    for (const r of respostas.filter((x) => x.statusCode !== 503)) expect(r.statusCode).toBe(200);
    expect((await exportar('excel')).statusCode).toBe(200);
  }, 120_000);

  it('o trabalhador fica para a próxima exportação (carregar pdfkit e exceljs de novo custa segundos numa máquina ocupada)', async () => {
    const trabalhadores = new TrabalhadoresDeExportacao(localizarTrabalhador('exportacao')!);
    try {
      const pedido = { formato: 'excel' as const, filtro: {}, geradoEm: new Date().toISOString(), fuso: 'America/Sao_Paulo', centro: 'Centro' };
      for (let vez = 0; vez < 2; vez++) {
        let liberada = 0;
        const e = await trabalhadores.exportar({ ...origemDosDados(t.db)!, pedido }, () => (liberada += 1));
        const partes: Buffer[] = [];
        for await (const parte of e.corpo) partes.push(parte as Buffer);
        expect(Buffer.concat(partes).length).toBe(e.bytes);
        expect(e.rotas).toBe(12);
        expect(liberada).toBe(1);
      }
      expect(trabalhadores.criados).toBe(1);
    } finally {
      await trabalhadores.encerrar();
    }
  }, 60_000);

  it('o limite conta vagas, não pedidos: uma vaga liberada duas vezes não vira três', () => {
    const limite = new LimiteDeExportacoes(2);
    const a = limite.ocupar();
    const b = limite.ocupar();
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(limite.ocupar()).toBeNull();
    a!();
    a!();
    expect(limite.emAndamento).toBe(1);
    const c = limite.ocupar();
    expect(c).not.toBeNull();
    expect(limite.ocupar()).toBeNull();
  });

  it('o trabalhador abre o arquivo SQLite ou o mesmo PostgreSQL; só um SQLite em memória fica nesta thread', () => {
    expect(origemDosDados(t.db)).toEqual(MOTOR_DE_TESTE === 'postgres' ? { urlPostgres: expect.stringMatching(/^postgres:\/\/.+\/sg_t/) } : { arquivo: t.db.$client.name });
    expect(arquivoSqliteDe(t.db)).toBe(MOTOR_DE_TESTE === 'postgres' ? null : t.db.$client.name);
    const memoria = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    try {
      expect(arquivoSqliteDe(memoria)).toBeNull();
      expect(origemDosDados(memoria)).toBeNull();
    } finally {
      memoria.$client.close();
    }
  });
});
