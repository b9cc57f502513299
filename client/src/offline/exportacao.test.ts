import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendenciasSchema, resumirPorTipo } from '../../../shared/schemas/pendencias';
import type { OperacaoSync } from '../../../shared/sync/operacoes';
import { enfileirarCriacao } from '../despesas/operacoes';
import { enfileirarVenda } from '../vendas/operacoes';
import { operacoes } from '.';
import './operacoes';
import { BancoLocal } from './db';
import { montarExportacao, nomeDoArquivoPendencias, resumoDaExportacao } from './exportacao';
import { arquivosDoItem, enfileirar, itensDoUsuario } from './outbox';
import { transporteEmLote } from './transporte';

const ANA = { id: 7, nome: 'Ana Conceição', email: 'ana@escola.com.br' };
let banco: BancoLocal;
let n = 0;

beforeEach(() => {
  banco = new BancoLocal(`teste-exportacao-${++n}`);
});
afterEach(async () => {
  banco.close();
  await banco.delete();
});

/** A receipt as the expense form keeps it: the chosen file (a Blob) read into bytes. */
async function cupomDeBlob(): Promise<{ nome: string; tipo: string; conteudo: ArrayBuffer; bytes: Uint8Array }> {
  const bytes = new Uint8Array(3000);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  for (let i = 4; i < bytes.length; i++) bytes[i] = (i * 37 + 11) % 256;
  const blob = new Blob([bytes], { type: 'image/jpeg' });
  const conteudo = await blob.arrayBuffer();
  return { nome: 'almoço.jpg', tipo: 'image/jpeg', conteudo, bytes };
}

const dadosVenda = (cidade: number) => ({
  id: `venda-${cidade}`,
  rota_id: 12,
  cidade_id: cidade,
  data_venda: '2026-11-20',
  valor_dinheiro: 15010,
  valor_pix: 0,
  valor_cartao: 0,
  valor_link: 0,
  valor_boletos: 2,
  observacoes: '',
  registrado_em: '2026-11-20T15:00:00.000Z',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
});

const dadosDespesa = {
  id: 'despesa-1',
  rota_id: 12,
  cidade_id: 5208707,
  data_despesa: '2026-11-20',
  tipo: 'alimentacao' as const,
  tipo_outro: '',
  valor: 45.9,
  descricao: 'Almoço sem sinal',
  registrado_em: '2026-11-20T16:00:00.000Z',
  rota_nome: 'Rota Goiás',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  funcionario_nome: 'Ana',
};

describe('montarExportacao', () => {
  it('escreve a fila do dono na ordem, cada item como a mesma operação do lote, com o comprovante dentro, sem tirar nada da fila', async () => {
    const cupom = await cupomDeBlob();
    await enfileirarVenda(banco, ANA.id, dadosVenda(5208707));
    await enfileirarCriacao(ANA.id, dadosDespesa, { nome: cupom.nome, tipo: cupom.tipo, conteudo: cupom.conteudo }, banco);
    await enfileirarVenda(banco, ANA.id, dadosVenda(5201108));
    // Refused on the phone: it goes too (the admin's import checks it again).
    const recusada = (await itensDoUsuario(banco, ANA.id))[2]!;
    await banco.outbox.where('id').equals(recusada.id).modify({ estado: 'erro', erro: 'Esta rota já foi finalizada.' });
    // Another person's item on the same phone never goes into Ana's file.
    await enfileirarVenda(banco, 99, dadosVenda(5204508));
    const antes = await banco.outbox.count();

    const agora = new Date('2026-11-22T18:05:00.000Z');
    const e = await montarExportacao(banco, operacoes, ANA, { agora, fuso: 'America/Sao_Paulo', versaoApp: '1.4.0' });

    expect(e.nomeArquivo).toBe('pendencias-ana-conceicao-2026-11-22-1505.sgp');
    expect(resumoDaExportacao(e)).toBe('3 itens e 1 comprovante exportados');
    expect(e.ignorados).toEqual([]);
    // The file is what the server's import reads.
    const arquivo = pendenciasSchema.parse(JSON.parse(JSON.stringify(e.conteudo)));
    expect(arquivo).toMatchObject({
      formato: 'sistema-de-gestao/pendencias',
      versao: 2,
      exportadoEm: '2026-11-22T18:05:00.000Z',
      funcionario: ANA,
      versaoApp: '1.4.0',
    });
    expect(arquivo.dispositivo).toMatch(/^[0-9a-f-]{36}$/);
    expect(resumirPorTipo(arquivo.operacoes)).toBe('2 vendas e 1 despesa');

    // Each operation is exactly what the batch transport sends for the same items.
    const itens = await itensDoUsuario(banco, ANA.id);
    let enviado: FormData | null = null;
    const transporte = transporteEmLote(async (_m, _c, { corpo }) => {
      enviado = corpo as FormData;
      return { resultados: [] };
    });
    await transporte(
      await Promise.all(
        itens.map(async (item) => ({
          item,
          arquivos: await arquivosDoItem(banco, item),
          operacao: { id: item.id, tipo: item.tipo, seq: item.seq!, dados: operacoes[item.tipo]!.paraEnvio(item.dados) } as OperacaoSync,
        })),
      ),
      null,
      arquivo.dispositivo!,
    );
    const lote = JSON.parse(String(enviado!.get('operacoes')));
    expect(lote.cliente_id).toBe(arquivo.dispositivo);
    expect(arquivo.operacoes.map(({ id, tipo, seq, dados }) => ({ id, tipo, seq, dados }))).toEqual(lote.operacoes);
    expect(arquivo.operacoes.map((o) => [o.id, o.criadoEm, o.estado])).toEqual(itens.map((i) => [i.id, i.criadoEm, i.estado]));
    expect(arquivo.operacoes.map((o) => o.tipo)).toEqual(['venda.salvar', 'despesa.criar', 'venda.salvar']);

    // The receipt: byte-identical to the Blob chosen in the form, with its name and type.
    const comprovante = arquivo.operacoes[1]!.arquivo!;
    expect(comprovante).toMatchObject({ nome: 'almoço.jpg', tipo: 'image/jpeg', tamanho: 3000 });
    expect(Uint8Array.from(atob(comprovante.base64), (c) => c.charCodeAt(0))).toEqual(cupom.bytes);
    const noLote = enviado!.get(`arquivo:${itens[1]!.id}`) as File;
    expect(new Uint8Array(await noLote.arrayBuffer())).toEqual(cupom.bytes);
    expect(arquivo.operacoes[0]!.arquivo).toBeNull();

    // Nothing left the queue or lost its files.
    expect(await banco.outbox.count()).toBe(antes);
    expect(await banco.arquivos.count()).toBe(1);
  });

  it('o mesmo aparelho leva o mesmo identificador em toda exportação; itens que esta versão não sabe enviar ficam de fora, nomeados', async () => {
    await enfileirarVenda(banco, ANA.id, dadosVenda(5208707));
    await enfileirar(banco, { tipo: 'coisa.antiga', usuarioId: ANA.id, dados: {}, chaves: [], descricao: 'Registro de uma versão antiga' });
    await enfileirar(banco, { tipo: 'venda.salvar', usuarioId: ANA.id, dados: { lixo: true }, chaves: [], descricao: 'Venda ilegível' });
    const a = await montarExportacao(banco, operacoes, ANA);
    const b = await montarExportacao(banco, operacoes, ANA);
    expect(a.conteudo.dispositivo).toBe(b.conteudo.dispositivo);
    expect(a.itens).toBe(1);
    expect(a.ignorados).toEqual(['Registro de uma versão antiga', 'Venda ilegível']);
    expect(resumoDaExportacao(a)).toBe('1 item exportado');
  });

  it('nome do arquivo na hora do fuso do negócio, sem acentos nem espaços', () => {
    expect(nomeDoArquivoPendencias('  José da Silva / Filial ', new Date('2026-01-02T02:07:00Z'), 'America/Sao_Paulo')).toBe('pendencias-jose-da-silva-filial-2026-01-01-2307.sgp');
    expect(nomeDoArquivoPendencias('!!!', new Date('2026-01-02T12:00:00Z'), 'America/Sao_Paulo')).toBe('pendencias-funcionario-2026-01-02-0900.sgp');
  });
});
