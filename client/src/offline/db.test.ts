/** The local database's upgrades, on queues written by earlier app versions (fake-indexeddb). */
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { montarDia } from '../vendas/estadoCidades';
import { operacoes } from '.';
import './operacoes';
import { BancoLocal } from './db';
import { montarExportacao } from './exportacao';
import { itensDoUsuario } from './outbox';

const ANA = { id: 7, nome: 'Ana', email: 'ana@escola.com.br' };
let n = 0;
let abertos: Dexie[] = [];

afterEach(async () => {
  for (const b of abertos) {
    b.close();
    await b.delete();
  }
  abertos = [];
});

/** The stores exactly as version 3 of the app declared them. */
const LOJAS_V3 = {
  outbox: '++seq, &id, usuarioId, [usuarioId+estado]',
  sincronizados: 'id, usuarioId, recebidoEm',
  arquivos: 'id',
  cache: 'chave, usuarioId, [usuarioId+atualizadoEm]',
  rascunhos: 'chave, usuarioId',
  meta: 'chave',
};

/** A sale as version 3 queued it: amounts in reais. */
const vendaEmReais = (id: string, cidade: number) => ({
  id,
  rota_id: 12,
  cidade_id: cidade,
  data_venda: '2026-11-20',
  valor_dinheiro: 150.1,
  valor_pix: 0.2,
  valor_cartao: 1234.56,
  valor_link: 0,
  valor_boletos: 2,
  observacoes: 'feira',
  registrado_em: '2026-11-20T15:00:00.000Z',
  versao_base: null,
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
});

const itemDaFila = (id: string, dados: unknown, tipo = 'venda.salvar') => ({
  id,
  usuarioId: ANA.id,
  tipo,
  dados,
  arquivos: [],
  chaves: ['venda:12:5208707:2026-11-20'],
  descricao: `Fechamento ${id}`,
  estado: 'pendente',
  tentativas: 0,
  proximaTentativaEm: null,
  erro: null,
  conflito: null,
  criadoEm: '2026-11-20T15:00:01.000Z',
});

/** What version 3 sent for that sale (its paraEnvio converted reais to centavos on the way out). */
const ENVIADO_PELA_V3 = {
  id: 'venda-1',
  rota_id: 12,
  cidade_id: 5208707,
  data_venda: '2026-11-20',
  valor_dinheiro: 15010,
  valor_pix: 20,
  valor_cartao: 123456,
  valor_link: 0,
  valor_boletos: 2,
  observacoes: 'feira',
  registrado_em: '2026-11-20T15:00:00.000Z',
  versao_base: null,
};

async function bancoDaVersao3(): Promise<string> {
  const nome = `teste-db-v3-${++n}`;
  const antigo = new Dexie(nome);
  antigo.version(3).stores(LOJAS_V3);
  await antigo.table('outbox').add(itemDaFila('op-1', vendaEmReais('venda-1', 5208707)));
  await antigo.table('outbox').add(itemDaFila('op-2', { id: 'x', rota_id: 12, cidade_id: 5201108, data: '2026-11-20', registrado_em: '2026-11-20T15:00:00.000Z' }, 'visita.registrar'));
  await antigo.table('outbox').add(itemDaFila('op-3', { ...vendaEmReais('venda-3', 5204508), valor_dinheiro: 'doze' }));
  await antigo.table('sincronizados').add({
    id: 'op-0',
    usuarioId: ANA.id,
    tipo: 'venda.salvar',
    descricao: 'Fechamento de ontem',
    chaves: [],
    criadoEm: '2026-11-19T15:00:00.000Z',
    recebidoEm: '2026-11-19T15:00:02.000Z',
    dados: { ...vendaEmReais('venda-0', 5201108), data_venda: '2026-11-19', valor_dinheiro: 0.1, valor_cartao: 0 },
    ordem: 1,
  });
  antigo.close();
  return nome;
}

describe('versão 4: a venda na fila guarda centavos', () => {
  it('uma fila gravada em reais é convertida ao abrir, e a venda sai com os mesmos centavos de antes (no envio e no arquivo de pendências)', async () => {
    const banco = new BancoLocal(await bancoDaVersao3());
    abertos.push(banco);
    await banco.open();
    expect(banco.verno).toBe(4);

    const [venda, visita, ilegivel] = await itensDoUsuario(banco, ANA.id);
    expect(venda!.dados).toEqual({ ...vendaEmReais('venda-1', 5208707), valor_dinheiro: 15010, valor_pix: 20, valor_cartao: 123456, valor_link: 0 });
    expect(visita!.dados).toEqual({ id: 'x', rota_id: 12, cidade_id: 5201108, data: '2026-11-20', registrado_em: '2026-11-20T15:00:00.000Z' });
    // Unreadable before, unreadable after: never turned into some other amount.
    expect((ilegivel!.dados as { valor_dinheiro: unknown }).valor_dinheiro).toBe('doze');
    expect(() => operacoes['venda.salvar']!.paraEnvio(ilegivel!.dados)).toThrow(/Registro ilegível/);

    // The confirmed copy laid over screens converts too.
    const historico = await banco.sincronizados.get('op-0');
    expect(historico!.dados).toMatchObject({ valor_dinheiro: 10, valor_pix: 20, valor_cartao: 0 });

    expect(operacoes['venda.salvar']!.paraEnvio(venda!.dados)).toEqual(ENVIADO_PELA_V3);
    const exportacao = await montarExportacao(banco, operacoes, ANA, { versaoApp: '1.4.0' });
    expect(exportacao.conteudo.operacoes[0]!.dados).toEqual(ENVIADO_PELA_V3);
  });

  it('a tela de Vendas mostra a venda convertida com os mesmos reais de antes', async () => {
    const banco = new BancoLocal(await bancoDaVersao3());
    abertos.push(banco);
    const [venda] = await itensDoUsuario(banco, ANA.id);
    const base = { rotaId: 12, data: '2026-11-20', cidades: [{ cidade_id: 5208707, cidade_nome: 'Goiânia', uf: 'GO' }], status: null, vendas: [], historico: [] };
    const [cidade] = montarDia(base, [{ id: venda!.id, tipo: venda!.tipo, dados: venda!.dados, estado: 'pendente', erro: null }]);
    expect(cidade!.venda).toMatchObject({ valor_dinheiro: 150.1, valor_pix: 0.2, valor_cartao: 1234.56, valor_link: 0, total: 1384.86 });
  });
});
