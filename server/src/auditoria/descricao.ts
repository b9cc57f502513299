/**
 * What each audit row is about, in words and with the address that opens it: 'Despesa de Ana Souza ·
 * Alimentação · R$ 48,00 · 03/12/2026' instead of an id whose first characters every expense of the
 * same minute shares (UUIDv7). The one place that names a row's target: the list (rotas.ts) and any
 * export of the trail call it.
 *
 * An action on a route says what within it (the settlement's amount, the late write decided) before its name.
 *
 * `buscarAlvos` reads the records a set of rows is about, one query per kind of record for all of them
 * (never one per row); `descreverAlvo` is pure: a row plus what was read gives the text. A record that
 * no longer exists is named from what the trail itself kept (the row's snapshots, a route's deletion
 * row), says '(excluída)' and has no address.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { ROTULO_SENTIDO_ACERTO } from '../../../shared/acerto';
import { formatarData } from '../../../shared/dates';
import { enderecoDaDespesa, enderecoDaRota, enderecoDaVenda, enderecoDoSaldo, enderecoDoUsuario } from '../../../shared/enderecosDasTelas';
import { formatarCentavos, somarCentavos } from '../../../shared/money';
import type { NomesCitados, RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { nomeDoTipo, type TipoDespesa } from '../../../shared/schemas/tiposDespesa';
import type { Db } from '../db';
import { auditoria, cidades, despesas, rotas, usuarios, vendas } from '../db/tabelas';

/** What describing a row needs of it. */
export type RegistroParaDescrever = Pick<RegistroAuditoria, 'acao' | 'alvo_tipo' | 'alvo_id' | 'antes' | 'depois'>;

export interface DescricaoDoAlvo {
  /** The person's or the route's name (a deleted route: its name when deleted); null for an expense or a sale. */
  nome: string | null;
  /** The record in words, '(excluída)' at the end when it no longer exists. */
  texto: string;
  /** The screen's address that opens it; null when it no longer exists. */
  link: string | null;
}

type Retrato = Record<string, unknown>;

/** The records a set of rows is about, as `buscarAlvos` read them. */
export interface AlvosDaPagina {
  usuarios: Map<number, { nome: string; email: string }>;
  rotas: Map<number, { nome: string }>;
  /** Routes deleted since: what their deletion row kept of them ('antes'). */
  rotasExcluidas: Map<number, Retrato>;
  despesas: Map<string, { funcionarioNome: string; tipo: TipoDespesa; tipoOutro: string | null; valorCentavos: number; data: string; excluida: boolean }>;
  vendas: Map<string, { funcionarioNome: string; cidadeNome: string; uf: string; totalCentavos: number; data: string; rotaId: number; cidadeId: number }>;
}

const EXCLUIDA = ' (excluída)';
const inteiro = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null);
const texto = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
/** Parts joined by ' · ', the dot kept on the line of the part before it when the text wraps. */
const juntar = (...partes: (string | null | undefined)[]) => partes.filter((p): p is string => !!p).join('\u00a0· ');
/** The snapshot that says most about the record: after the action, or before it when it was deleted. */
const retratoDe = (r: RegistroParaDescrever): Retrato => ({ ...r.antes, ...r.depois });

function descreverDespesa(r: RegistroParaDescrever, a: AlvosDaPagina): DescricaoDoAlvo {
  const d = a.despesas.get(r.alvo_id);
  if (d) {
    const frase = juntar(`Despesa de ${d.funcionarioNome}`, nomeDoTipo(d.tipo, d.tipoOutro), formatarCentavos(d.valorCentavos), formatarData(d.data));
    return { nome: null, texto: d.excluida ? frase + EXCLUIDA : frase, link: d.excluida ? null : enderecoDaDespesa(r.alvo_id) };
  }
  // Gone from the table (expenses are only marked deleted, but a row may outlive any record): the evaluation's snapshot.
  const retrato = retratoDe(r);
  const funcionario = a.usuarios.get(inteiro(retrato.funcionario_id) ?? 0)?.nome;
  const valor = inteiro(retrato.valor_centavos);
  return { nome: null, texto: juntar(funcionario ? `Despesa de ${funcionario}` : 'Despesa', valor === null ? null : formatarCentavos(valor)) + EXCLUIDA, link: null };
}

function descreverVenda(r: RegistroParaDescrever, a: AlvosDaPagina): DescricaoDoAlvo {
  const v = a.vendas.get(r.alvo_id);
  if (v) {
    return {
      nome: null,
      texto: juntar(`Venda de ${v.funcionarioNome}`, `${v.cidadeNome} (${v.uf})`, formatarCentavos(v.totalCentavos), formatarData(v.data)),
      link: enderecoDaVenda({ rotaId: v.rotaId, cidadeId: v.cidadeId, data: v.data }),
    };
  }
  const funcionario = a.usuarios.get(inteiro(retratoDe(r).funcionario_id) ?? 0)?.nome;
  return { nome: null, texto: (funcionario ? `Venda de ${funcionario}` : 'Venda') + EXCLUIDA, link: null };
}

/** What an action on a route was about within it: the settlement's money, or the late write decided. */
function dentroDaRota(r: RegistroParaDescrever, a: AlvosDaPagina): string | null {
  if (r.acao === 'rota.acertar') {
    const valor = inteiro(r.depois?.valor_centavos);
    const sentido = r.depois?.sentido;
    if (valor === 0) return 'Acerto sem troca de dinheiro';
    const como = sentido === 'devolvido' || sentido === 'pago' ? ` ${ROTULO_SENTIDO_ACERTO[sentido].toLowerCase()}` : '';
    return valor === null ? 'Acerto' : `Acerto de ${formatarCentavos(valor)}${como}`;
  }
  if (r.acao === 'rota.aceitar_tardio' || r.acao === 'rota.recusar_tardio') {
    // The held write as the employee's phone sent it ('Fechamento do dia: Goiânia (GO), 03/12/2026: R$ 750,50'), and whose.
    return juntar(texto(r.depois?.descricao) ?? 'Registro tardio', a.usuarios.get(inteiro(r.depois?.funcionario_id) ?? 0)?.nome);
  }
  return null;
}

function descreverRota(r: RegistroParaDescrever, a: AlvosDaPagina): DescricaoDoAlvo {
  const id = inteiro(r.alvo_id);
  const rota = id === null ? undefined : a.rotas.get(id);
  const dentro = dentroDaRota(r, a);
  if (rota) return { nome: rota.nome, texto: juntar(dentro, rota.nome), link: enderecoDaRota(id!) };
  // Deleted: the name it had when deleted (every row about it reads the same), else what this row kept.
  const nome = texto(((id === null ? undefined : a.rotasExcluidas.get(id)) ?? retratoDe(r)).nome);
  return { nome, texto: juntar(dentro, nome ?? `Rota #${r.alvo_id}`) + EXCLUIDA, link: null };
}

function descreverUsuario(r: RegistroParaDescrever, a: AlvosDaPagina): DescricaoDoAlvo {
  const id = inteiro(r.alvo_id);
  const usuario = id === null ? undefined : a.usuarios.get(id);
  const retrato = retratoDe(r);
  const nome = usuario?.nome ?? texto(retrato.nome);
  const quem = nome ?? `Usuário #${r.alvo_id}`;
  const fim = usuario ? '' : ' (excluído)';
  // A credit is about the employee's balance: the amount, and the address of their movements.
  if (r.acao === 'saldo.creditar') {
    const valor = inteiro(r.depois?.valor_centavos);
    return { nome, texto: `Crédito${valor === null ? '' : ` de ${formatarCentavos(valor)}`} para ${quem}${fim}`, link: usuario ? enderecoDoSaldo(id!) : null };
  }
  const link = usuario ? enderecoDoUsuario(id!) : null;
  if (r.acao === 'pendencias.importar') return { nome, texto: juntar(`Pendências de ${quem}`, texto(r.depois?.arquivo)) + fim, link };
  return { nome, texto: juntar(quem, usuario?.email ?? texto(retrato.email)) + fim, link };
}

/** The row's target in words and its address, from what `buscarAlvos` read for the row's page. */
export function descreverAlvo(r: RegistroParaDescrever, a: AlvosDaPagina): DescricaoDoAlvo {
  switch (r.alvo_tipo) {
    case 'despesa':
      return descreverDespesa(r, a);
    case 'venda':
      return descreverVenda(r, a);
    case 'rota':
      return descreverRota(r, a);
    case 'usuario':
      return descreverUsuario(r, a);
  }
}

/** At most 500 ids per IN list: any number of rows (a whole export) stays within every engine's limit of parameters. */
const TAMANHO_DA_PARTE = 500;

async function emPartes<I, L>(ids: Iterable<I>, buscar: (parte: I[]) => Promise<L[]>): Promise<L[]> {
  const todos = [...ids];
  const achados: L[] = [];
  for (let i = 0; i < todos.length; i += TAMANHO_DA_PARTE) achados.push(...(await buscar(todos.slice(i, i + TAMANHO_DA_PARTE))));
  return achados;
}

/** The ids of one kind of target, and the integers the snapshots cite under `campo`. */
function idsDoAlvo(registros: readonly RegistroParaDescrever[], tipo: RegistroAuditoria['alvo_tipo']): string[] {
  return [...new Set(registros.filter((r) => r.alvo_tipo === tipo).map((r) => r.alvo_id))];
}
function citados(registros: readonly RegistroParaDescrever[], campo: string, em: Set<number>): void {
  for (const r of registros) for (const retrato of [r.antes, r.depois]) {
    const v = inteiro(retrato?.[campo]);
    if (v !== null) em.add(v);
  }
}

/**
 * Reads what the rows are about: their expenses, sales, routes and people, the names their snapshots cite
 * (funcionario_id, rota_id) and the last snapshot of routes deleted since. One query per kind, for all rows.
 */
export async function buscarAlvos(db: Db, registros: readonly RegistroParaDescrever[]): Promise<AlvosDaPagina> {
  const idsRotas = new Set(idsDoAlvo(registros, 'rota').map(inteiro).filter((id): id is number => id !== null));
  citados(registros, 'rota_id', idsRotas);
  const idsUsuarios = new Set(idsDoAlvo(registros, 'usuario').map(inteiro).filter((id): id is number => id !== null));
  citados(registros, 'funcionario_id', idsUsuarios);

  const linhasRotas = await emPartes(idsRotas, (parte) => db.select({ id: rotas.id, nome: rotas.nome }).from(rotas).where(inArray(rotas.id, parte)));
  const achadas = new Map(linhasRotas.map((l) => [l.id, { nome: l.nome }]));

  // A route that is gone was deleted by an admin: its deletion row kept it whole ('antes').
  const idsExcluidas = idsDoAlvo(registros, 'rota').filter((id) => !achadas.has(inteiro(id) ?? 0));
  const exclusoes = await emPartes(idsExcluidas, (parte) =>
    db.select({ alvoId: auditoria.alvoId, antes: auditoria.antes }).from(auditoria).where(and(eq(auditoria.acao, 'rota.excluir'), eq(auditoria.alvoTipo, 'rota'), inArray(auditoria.alvoId, parte))),
  );
  const rotasExcluidas = new Map<number, Retrato>();
  for (const e of exclusoes) if (e.antes !== null) rotasExcluidas.set(Number(e.alvoId), JSON.parse(e.antes) as Retrato);

  const linhasDespesas = await emPartes(idsDoAlvo(registros, 'despesa'), (parte) =>
    db
      .select({
        id: despesas.id,
        tipo: despesas.tipo,
        tipoOutro: despesas.tipoOutro,
        valorCentavos: despesas.valorCentavos,
        data: despesas.dataDespesa,
        excluidaEm: despesas.excluidaEm,
        funcionarioNome: usuarios.nome,
      })
      .from(despesas)
      .innerJoin(usuarios, eq(usuarios.id, despesas.funcionarioId))
      .where(inArray(despesas.id, parte)),
  );

  const linhasVendas = await emPartes(idsDoAlvo(registros, 'venda'), (parte) =>
    db
      .select({
        id: vendas.id,
        rotaId: vendas.rotaId,
        cidadeId: vendas.cidadeId,
        data: vendas.dataVenda,
        dinheiro: vendas.dinheiroCentavos,
        pix: vendas.pixCentavos,
        cartao: vendas.cartaoCentavos,
        link: vendas.linkCentavos,
        funcionarioNome: usuarios.nome,
        cidadeNome: cidades.nome,
        uf: cidades.uf,
      })
      .from(vendas)
      .innerJoin(usuarios, eq(usuarios.id, vendas.funcionarioId))
      .innerJoin(cidades, eq(cidades.id, vendas.cidadeId))
      .where(inArray(vendas.id, parte)),
  );

  const linhasUsuarios = await emPartes(idsUsuarios, (parte) => db.select({ id: usuarios.id, nome: usuarios.nome, email: usuarios.email }).from(usuarios).where(inArray(usuarios.id, parte)));

  return {
    usuarios: new Map(linhasUsuarios.map((u) => [u.id, { nome: u.nome, email: u.email }])),
    rotas: achadas,
    rotasExcluidas,
    despesas: new Map(
      linhasDespesas.map((d) => [d.id, { funcionarioNome: d.funcionarioNome, tipo: d.tipo, tipoOutro: d.tipoOutro, valorCentavos: d.valorCentavos, data: d.data, excluida: d.excluidaEm !== null }]),
    ),
    vendas: new Map(
      linhasVendas.map((v) => [
        v.id,
        // Boletos are a count, never money: the sale's amount is the four forms of payment.
        { funcionarioNome: v.funcionarioNome, cidadeNome: v.cidadeNome, uf: v.uf, totalCentavos: somarCentavos([v.dinheiro, v.pix, v.cartao, v.link]), data: v.data, rotaId: v.rotaId, cidadeId: v.cidadeId },
      ]),
    ),
  };
}

/** Today's names of the people and routes the rows' snapshots cite, for 'O que mudou' ('Rota: Rota Sul (#7)'). */
export function nomesCitados(a: AlvosDaPagina): NomesCitados {
  const porId = (mapa: Map<number, { nome: string }>) => Object.fromEntries([...mapa].map(([id, { nome }]) => [String(id), nome]));
  return { usuarios: porId(a.usuarios), rotas: porId(a.rotas) };
}

/** Every row's target described, the lookups batched for all of them (the list's page, or a whole export). */
export async function descreverRegistros(db: Db, registros: readonly RegistroParaDescrever[]): Promise<DescricaoDoAlvo[]> {
  const alvos = await buscarAlvos(db, registros);
  return registros.map((r) => descreverAlvo(r, alvos));
}
