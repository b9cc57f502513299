/**
 * A property of the outbox (docs/decisions/sincronizacao.md, 'Nada sai do aparelho sem o servidor aceitar ou a pessoa
 * descartar'): random sequences of what a person and a server do to queued expenses and closings:
 * save, the server refusing, edit (save a new version, removing or adding receipts), edit then
 * cancel, discard after confirming, reopen the app, and sync. After every step, nothing saved is
 * lost (the last saved version of each record is either the server's or the queue's last word on
 * it, its receipts on the device or on the server) and no record has two versions queued.
 *
 * The real queue functions and the real sync engine run on fake-indexeddb; only the server is
 * simulated, at the transport boundary (as offline/sync.test.ts does). A seeded generator makes
 * every failure reproducible: the message names the seed and the steps.
 */
import { describe, expect, it } from 'vitest';
import { Retencoes } from '../../../shared/sync/operacoes';
import { operacoes } from '../offline';
import { BancoLocal, type ItemOutbox } from '../offline/db';
import { descartarItem, itensDoUsuario } from '../offline/outbox';
import { MotorSync } from '../offline/sync';
import type { ResultadoEnvio, Transporte } from '../offline/transporte';
import { enfileirarVenda } from '../vendas/operacoes';
import '../vendas/operacoes';
import { bytesDe } from '../test/arquivos';
import { OP_CRIAR, OP_EDITAR, type DadosDespesaNaFila } from './fila';
import { cuponsNaFila, enfileirarCriacao, enfileirarEdicao, enviarAgora, type CupomPreparado } from './operacoes';

const USUARIO = 1;
const SEQUENCIAS = 300;
const PASSOS_MAXIMOS = 14;

/** mulberry32: small, seeded, good enough to pick steps. */
function gerador(semente: number) {
  let a = semente >>> 0;
  const proximo = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { proximo, inteiro: (n: number) => Math.floor(proximo() * n), escolher: <T>(lista: readonly T[]): T => lista[Math.floor(proximo() * lista.length)]! };
}

/** What the simulated server holds per record: the amount and the names of the receipts it received. */
interface NoServidor {
  valor: number;
  nomes: string[];
}

/** What the person last saved for each record, and what of it is undecidable after a discard. */
interface Registro {
  tipo: 'despesa' | 'venda';
  id: string;
  valor: number;
  /** Receipt names the person kept (on the device or already on the server). */
  nomes: string[];
  /** A queued version was discarded: from then on the person chose to lose it; only the structure is checked. */
  descartado: boolean;
}

const dadosDespesa = (id: string, valor: number): Omit<DadosDespesaNaFila, 'cupom'> => ({
  id,
  rota_id: 7,
  cidade_id: 5208707,
  data_despesa: '2026-11-20',
  tipo: 'alimentacao',
  tipo_outro: '',
  valor,
  descricao: '',
  chave_nfce: null,
  registrado_em: '2026-11-20T15:00:00.000Z',
  rota_nome: 'Rota Sul',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  funcionario_nome: 'Eva',
});

const dadosVenda = (cidade: number, valor: number) => ({
  id: `0190a000-0000-7000-8000-${String(cidade).padStart(12, '0')}`,
  rota_id: 7,
  cidade_id: cidade,
  cidade_nome: `Cidade ${cidade}`,
  cidade_uf: 'GO',
  data_venda: '2026-11-20',
  valor_dinheiro: valor,
  valor_pix: 0,
  valor_cartao: 0,
  valor_link: 0,
  valor_boletos: 0,
  observacoes: '',
  registrado_em: '2026-11-20T15:00:00.000Z',
  versao_base: null,
});

const idDoItem = (item: Pick<ItemOutbox, 'dados'>) => (item.dados as { id: string }).id;

async function executarSequencia(semente: number): Promise<void> {
  const r = gerador(semente);
  const nome = `teste-propriedade-fila-${semente}`;
  let banco = new BancoLocal(nome);
  await banco.open();
  const servidor = new Map<string, NoServidor>();
  const registros = new Map<string, Registro>();
  /** Records whose next operation the server refuses (a bad receipt, a finished route...). */
  const recusando = new Set<string>();
  let arquivos = 0;
  const passos: string[] = [];

  // The server: applies each operation once, in order, holding later ones of a refused record.
  const transporte: Transporte = async (envios) => {
    const retencoes = new Retencoes();
    const resultados: ResultadoEnvio[] = [];
    for (const { item, arquivos: enviados } of envios) {
      const retencao = { espera: item.chaves, retem: item.chaves };
      if (retencoes.retida(retencao)) {
        resultados.push({ id: item.id, status: 'retido' });
        continue;
      }
      const id = idDoItem(item);
      const dados = item.dados as { valor?: number; valor_dinheiro?: number };
      const valor = dados.valor ?? dados.valor_dinheiro ?? 0;
      const nomes = enviados.map((a) => a.nome);
      const recusa = recusando.has(id)
        ? 'Tipo de arquivo não aceito. Envie imagem (JPG, PNG, WEBP, HEIC), PDF, DOC ou DOCX.'
        : item.tipo === OP_EDITAR && !servidor.has(id)
          ? 'Despesa não encontrada.'
          : null;
      if (recusa) {
        retencoes.reter(retencao);
        resultados.push({ id: item.id, status: recusa.startsWith('Tipo') ? 415 : 404, corpo: { error: recusa } });
        continue;
      }
      const antes = servidor.get(id);
      servidor.set(id, { valor, nomes: item.tipo === OP_CRIAR || !antes ? nomes : [...antes.nomes, ...nomes] });
      resultados.push({ id: item.id, status: 201, recebido_em: '2026-11-20T17:32:00.000Z' });
    }
    return resultados;
  };
  const novoMotor = () =>
    new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: USUARIO, token: 't' }), transporte, obterClienteId: async () => 'aparelho', travas: null, esperaBaseMs: 1, esperaMaximaMs: 1 });
  let motor = novoMotor();

  const arquivoNovo = (): CupomPreparado => {
    const n = ++arquivos;
    return { nome: `c${n}.pdf`, tipo: 'application/pdf', conteudo: bytesDe('pdf', 16 + n).buffer };
  };
  const fila = () => itensDoUsuario(banco, USUARIO);
  const daFila = (itens: ItemOutbox[], id: string) => itens.filter((i) => idDoItem(i) === id || i.chaves.some((c) => c.endsWith(`:${id}`)));
  /** A record the person can still open: on the server, or with something queued. */
  const visiveis = async () => {
    const itens = await fila();
    return [...registros.values()].filter((g) => servidor.has(g.id) || daFila(itens, g.id).length > 0);
  };

  async function conferir() {
    const itens = await fila();
    const ids = itens.map((i) => i.id);
    expect(new Set(ids).size, 'um item duas vezes na fila').toBe(ids.length);
    // Every file belongs to exactly one queued item, and every queued item's files are there.
    const todos = await banco.arquivos.toArray();
    const referidos = itens.flatMap((i) => i.arquivos);
    expect(new Set(referidos).size, 'um arquivo em dois itens').toBe(referidos.length);
    expect(todos.map((a) => a.id).sort(), 'arquivos da fila').toEqual([...referidos].sort());
    for (const g of registros.values()) {
      const doRegistro = daFila(itens, g.id);
      // Never two versions of one record: one create at most, one refused item at most.
      expect(doRegistro.filter((i) => i.tipo === OP_CRIAR).length, `duas criações de ${g.id}`).toBeLessThanOrEqual(1);
      expect(doRegistro.filter((i) => i.estado === 'erro').length, `duas versões recusadas de ${g.id}`).toBeLessThanOrEqual(1);
      if (g.descartado) continue;
      // Nothing lost: the last saved version is the queue's last word on it, or (nothing queued) the server's.
      const ultimo = doRegistro.at(-1);
      if (ultimo) {
        const d = ultimo.dados as { valor?: number; valor_dinheiro?: number };
        expect(d.valor ?? d.valor_dinheiro, `valor de ${g.id} na fila`).toBe(g.valor);
      } else {
        expect(servidor.get(g.id)?.valor, `${g.id} sumiu: nem na fila nem no servidor`).toBe(g.valor);
      }
      if (g.tipo === 'despesa') {
        const locais = (await Promise.all(doRegistro.map((i) => banco.arquivos.bulkGet(i.arquivos)))).flat().map((a) => a!.nome);
        expect([...locais, ...(servidor.get(g.id)?.nomes ?? [])].sort(), `comprovantes de ${g.id}`).toEqual([...g.nomes].sort());
      }
    }
  }

  const passosDaSequencia = 1 + r.inteiro(PASSOS_MAXIMOS);
  try {
    for (let p = 0; p < passosDaSequencia; p++) {
      const acao = r.escolher(['despesa', 'venda', 'recusar', 'editar', 'editar', 'editar-cancelar', 'descartar', 'reabrir', 'sincronizar'] as const);
      // Half the saves go to the server at once, as the form does (enviarAgora), and the server may refuse that one.
      const enviarNaHora = r.proximo() < 0.5;
      const recusarNaHora = enviarNaHora && r.proximo() < 0.5;
      const aoSalvar = async (item: ItemOutbox, id: string) => {
        if (!enviarNaHora) return;
        if (recusarNaHora) recusando.add(id);
        const resultado = await enviarAgora(item.id, { banco, motor });
        recusando.delete(id);
        passos.push(`  enviado na hora${recusarNaHora ? ', recusado' : ''}: ${resultado.estado}`);
        // Refused (this save, or an earlier version of the record it waits behind): it stays, refused, with the server's message.
        if (recusarNaHora) expect(daFila(await fila(), id).some((i) => i.estado === 'erro' && i.erro?.startsWith('Tipo de arquivo'))).toBe(true);
      };
      if (acao === 'despesa') {
        const id = `0190b000-0000-7000-8000-${String(registros.size + 1).padStart(12, '0')}`;
        const valor = 10 + r.inteiro(90);
        const cupons = r.proximo() < 0.7 ? [arquivoNovo()] : [];
        const item = await enfileirarCriacao(USUARIO, dadosDespesa(id, valor), cupons, banco);
        registros.set(id, { tipo: 'despesa', id, valor, nomes: cupons.map((c) => c.nome), descartado: false });
        passos.push(`despesa ${id.slice(-2)} R$${valor} ${cupons.map((c) => c.nome).join(',')}`);
        await aoSalvar(item, id);
      } else if (acao === 'venda') {
        // A city's closing of the day: saving it again replaces the refused one for that day.
        const cidade = 1 + r.inteiro(3);
        const valor = 100 + r.inteiro(900);
        const dados = dadosVenda(cidade, valor);
        await enfileirarVenda(banco, USUARIO, dados);
        const antes = registros.get(dados.id);
        registros.set(dados.id, { tipo: 'venda', id: dados.id, valor, nomes: [], descartado: antes?.descartado ?? false });
        passos.push(`venda cidade ${cidade} R$${valor}`);
      } else if (acao === 'recusar') {
        const pendentes = (await fila()).filter((i) => i.estado === 'pendente');
        if (pendentes.length === 0) continue;
        const alvo = idDoItem(r.escolher(pendentes));
        recusando.add(alvo);
        await motor.sincronizarAgora({ ignorarEspera: true });
        recusando.delete(alvo);
        passos.push(`servidor recusa ${alvo.slice(-2)} (e aceita o resto)`);
      } else if (acao === 'editar') {
        const despesas = (await visiveis()).filter((g) => g.tipo === 'despesa' && !g.descartado);
        if (despesas.length === 0) continue;
        const g = r.escolher(despesas);
        const locais = await cuponsNaFila(USUARIO, g.id, banco);
        const removidos = locais.filter(() => r.proximo() < 0.5).map((c) => c.id);
        const novos = r.proximo() < 0.5 ? [arquivoNovo()] : [];
        const valor = 10 + r.inteiro(90);
        const item = await enfileirarEdicao(USUARIO, dadosDespesa(g.id, valor), { valor: g.valor, tipo: 'alimentacao', data_despesa: '2026-11-20' }, { novos, removerCupons: [], removerLocais: removidos }, banco);
        const nomesRemovidos = locais.filter((c) => removidos.includes(c.id)).map((c) => c.nome);
        g.valor = valor;
        g.nomes = [...g.nomes.filter((n) => !nomesRemovidos.includes(n)), ...novos.map((c) => c.nome)];
        passos.push(`editar ${g.id.slice(-2)} R$${valor} -[${nomesRemovidos}] +[${novos.map((c) => c.nome)}]`);
        await aoSalvar(item, g.id);
      } else if (acao === 'editar-cancelar') {
        // The form opens (reads the queue), the person changes things, then 'Cancelar': nothing is written.
        const despesas = (await visiveis()).filter((g) => g.tipo === 'despesa');
        if (despesas.length === 0) continue;
        const g = r.escolher(despesas);
        const antes = JSON.stringify(await fila());
        await cuponsNaFila(USUARIO, g.id, banco);
        expect(JSON.stringify(await fila())).toBe(antes);
        passos.push(`editar e cancelar ${g.id.slice(-2)}`);
      } else if (acao === 'descartar') {
        // The sync panel's 'Descartar', confirmed: offered on refused items only.
        const recusados = (await fila()).filter((i) => i.estado === 'erro');
        if (recusados.length === 0) continue;
        const item = r.escolher(recusados);
        await descartarItem(banco, item.id);
        const g = registros.get(idDoItem(item));
        if (g) g.descartado = true;
        passos.push(`descartar ${idDoItem(item).slice(-2)}`);
      } else if (acao === 'reabrir') {
        // The app closed and opened again: a new connection to the same database, a new engine.
        motor.parar();
        banco.close();
        banco = new BancoLocal(nome);
        await banco.open();
        motor = novoMotor();
        passos.push('reabrir');
      } else {
        await motor.sincronizarAgora({ ignorarEspera: true });
        passos.push('sincronizar (o servidor aceita)');
      }
      await conferir();
    }
  } catch (erro) {
    throw new Error(`semente ${semente}, passos:\n  ${passos.join('\n  ')}\n${erro instanceof Error ? erro.message : String(erro)}`, { cause: erro });
  } finally {
    motor.parar();
    await banco.delete();
  }
}

describe('a fila nunca perde o que não foi aceito nem descartado', () => {
  it(`${SEQUENCIAS} sequências sorteadas de salvar, recusar, editar, cancelar, descartar, reabrir e sincronizar`, async () => {
    for (let semente = 1; semente <= SEQUENCIAS; semente++) {
      await executarSequencia(semente);
    }
  }, 240_000);
});
