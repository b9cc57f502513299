/**
 * Writes that reached a route after its employee finished it (docs/decisions/rotas.md, 'A finalização
 * congela a rota; o que chega depois espera o admin'). The employee's finish freezes the route's figures (rotas/servico.ts): a
 * write sent alone is refused with 409. One that came queued in a sync batch was made on the road before the
 * phone knew of the finish (the finishing phone's own writes always precede its finish, so it is another
 * phone's, or a rescue file's): it is not lost. The batch keeps it here, answered 202, and records its
 * operation, so a replay is answered and never held twice. An admin then accepts it (it runs as it would
 * have before the finish, through the same service as any write, and the route's figures and salary move)
 * or refuses it with a reason the phone shows. Either way the decision is in the audit trail.
 */
import { inArray } from 'drizzle-orm';
import { formatarData } from '../../../shared/dates';
import { formatarCentavos } from '../../../shared/money';
import { nomeDoTipo, type TipoDespesa } from '../../../shared/schemas/despesas';
import type { Tardia } from '../../../shared/schemas/tardias';
import { OPERACOES, ehTipoOperacao, retencaoDe, type DadosOperacao, type TipoOperacao } from '../../../shared/sync/operacoes';
import { Temporarios } from '../arquivos/temporarios';
import { registrarAuditoria } from '../auditoria/registro';
import { emTransacao, type Db } from '../db';
import { cidades, usuarios } from '../db/tabelas';
import { nomeNovoCupom, type CupomRecebido } from '../despesas/cupons';
import { conflito, ErroApp, naoEncontrado } from '../errors';
import { exigirRotaVisivel } from '../rotas/servico';
import type { ContextoEscrita } from '../sync/escritas';
import { EXECUCOES } from '../sync/execucoes';
import type { UsuarioSessao } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { arquivosDaTardia, buscarTardia, decidirTardia, inserirTardia, tardiasDaRota, type ArquivoTardio, type LinhaTardia } from './repositorio';

export const TARDIO_NAO_ENCONTRADO = 'Registro não encontrado entre os que chegaram depois da finalização desta rota.';

export interface NovaTardia {
  operacaoId: string;
  usuarioId: number;
  rotaId: number;
  clienteId: string;
  seq: number;
  tipo: TipoOperacao;
  dados: unknown;
}

/** Inside the batch's transaction (`tx`): the held write, with the names its receipts were stored under. */
export async function guardarTardia(tx: Db, nova: NovaTardia, arquivos: readonly ArquivoTardio[] = []): Promise<string> {
  const recebidaEm = new Date().toISOString();
  await inserirTardia(tx, { ...nova, dados: JSON.stringify(nova.dados), arquivos: JSON.stringify(arquivos), recebidaEm });
  return recebidaEm;
}

/** Before the transaction that holds a write with receipts: each stored under a name of its own (undone if that does not commit). */
export async function guardarArquivosDaTardia(ctx: ContextoEscrita, cupons: readonly CupomRecebido[]): Promise<ArquivoTardio[]> {
  const nomes = cupons.map(nomeNovoCupom);
  await ctx.armazenamento.preparar(cupons, nomes);
  return cupons.map((c, i) => ({ nome: nomes[i]!, mime: c.mime, extensao: c.extensao, nome_original: c.nomeOriginal, tamanho: c.tamanho }));
}

type Cidades = Map<number, { nome: string; uf: string }>;

const dadosDe = <T extends TipoOperacao>(l: LinhaTardia) => JSON.parse(l.dados) as DadosOperacao[T];

function cidadeDe(lista: Cidades, id: number | undefined): string {
  const c = id === undefined ? undefined : lista.get(id);
  return c ? `${c.nome} (${c.uf})` : 'cidade desconhecida';
}

/** The held write in words: what it is, where, when and how much. */
function descrever(l: LinhaTardia, lista: Cidades): { descricao: string; data: string | null } {
  if (!ehTipoOperacao(l.tipo)) return { descricao: l.tipo, data: null };
  switch (l.tipo) {
    case 'venda.salvar': {
      const d = dadosDe<'venda.salvar'>(l);
      const total = d.valor_dinheiro + d.valor_pix + d.valor_cartao + d.valor_link;
      const boletos = d.valor_boletos > 0 ? ` e ${d.valor_boletos} ${d.valor_boletos === 1 ? 'boleto' : 'boletos'}` : '';
      return { descricao: `${cidadeDe(lista, d.cidade_id)}, ${formatarData(d.data_venda)}: ${formatarCentavos(total)}${boletos}`, data: d.data_venda };
    }
    case 'visita.registrar': {
      const d = dadosDe<'visita.registrar'>(l);
      return { descricao: `${cidadeDe(lista, d.cidade_id)}, ${formatarData(d.data)}: visitada sem venda`, data: d.data };
    }
    case 'visita.desfazer': {
      const d = dadosDe<'visita.desfazer'>(l);
      return { descricao: `${cidadeDe(lista, d.cidade_id)}, ${formatarData(d.data)}: visita desfeita`, data: d.data };
    }
    case 'despesa.criar':
    case 'despesa.editar':
    case 'despesa.corrigir': {
      const d = dadosDe<'despesa.criar'>(l);
      const arquivos = arquivosDaTardia(l).length;
      const comprovantes = arquivos > 0 ? `, ${arquivos} ${arquivos === 1 ? 'comprovante' : 'comprovantes'}` : '';
      return {
        descricao: `${nomeDoTipo(d.tipo as TipoDespesa, d.tipo_outro || null)} em ${cidadeDe(lista, d.cidade_id)}, ${formatarData(d.data_despesa)}: ${formatarCentavos(d.valor)}${comprovantes}`,
        data: d.data_despesa,
      };
    }
    case 'despesa.excluir':
      return { descricao: 'Exclusão de uma despesa da rota', data: null };
    case 'rota.finalizar':
      return { descricao: 'Finalização da rota', data: null };
  }
}

async function cidadesDas(db: Db, linhas: readonly LinhaTardia[]): Promise<Cidades> {
  const ids = new Set<number>();
  for (const l of linhas) {
    const id = (JSON.parse(l.dados) as { cidade_id?: unknown }).cidade_id;
    if (typeof id === 'number') ids.add(id);
  }
  const lista: Cidades = new Map();
  if (ids.size === 0) return lista;
  for (const c of await db.select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf }).from(cidades).where(inArray(cidades.id, [...ids]))) lista.set(c.id, c);
  return lista;
}

async function apresentar(db: Db, linhas: readonly LinhaTardia[]): Promise<Tardia[]> {
  const lista = await cidadesDas(db, linhas);
  const admins = new Map<number, string>();
  const ids = [...new Set(linhas.map((l) => l.decididaPor).filter((id): id is number => id !== null))];
  if (ids.length > 0) for (const u of await db.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios).where(inArray(usuarios.id, ids))) admins.set(u.id, u.nome);
  return linhas.map((l) => ({
    operacao_id: l.operacaoId,
    tipo: l.tipo,
    rotulo: ehTipoOperacao(l.tipo) ? OPERACOES[l.tipo].rotulo : l.tipo,
    ...descrever(l, lista),
    situacao: l.situacao,
    motivo: l.motivo,
    recebida_em: l.recebidaEm,
    decidida_em: l.decididaEm,
    decidida_por: l.decididaPor === null ? null : (admins.get(l.decididaPor) ?? null),
  }));
}

/** GET /api/rotas/:id/tardios: the admin, or the route's own employee (another employee's route is 404). */
export async function listarTardias(db: Db, usuario: UsuarioSessao, rotaId: number): Promise<Tardia[]> {
  const rota = await exigirRotaVisivel(db, usuario, rotaId);
  return apresentar(db, await tardiasDaRota(db, rota.id));
}

async function exigirPendente(db: Db, rotaId: number, operacaoId: string): Promise<LinhaTardia> {
  const tardia = await buscarTardia(db, operacaoId);
  if (!tardia || tardia.rotaId !== rotaId) throw naoEncontrado(TARDIO_NAO_ENCONTRADO);
  if (tardia.situacao !== 'pendente') throw conflito(tardia.situacao === 'aceita' ? 'Este registro já foi aceito.' : 'Este registro já foi recusado.');
  return tardia;
}

/**
 * Held writes on the same record are decided in the order they arrived: accepting a later change first
 * would be overwritten, or refused, by the earlier one.
 */
async function exigirAnterioresDecididas(db: Db, tardia: LinhaTardia): Promise<void> {
  if (!ehTipoOperacao(tardia.tipo)) return;
  const chaves = new Set(retencaoDe({ tipo: tardia.tipo, dados: JSON.parse(tardia.dados) }).retem.filter((c) => !c.startsWith('fim-da-rota:')));
  for (const outra of await tardiasDaRota(db, tardia.rotaId)) {
    if (outra.operacaoId === tardia.operacaoId) return;
    if (outra.situacao !== 'pendente' || !ehTipoOperacao(outra.tipo)) continue;
    if (retencaoDe({ tipo: outra.tipo, dados: JSON.parse(outra.dados) }).retem.some((c) => chaves.has(c))) {
      throw conflito('Há um registro anterior deste mesmo fechamento ou despesa aguardando decisão: aceite ou recuse aquele primeiro.');
    }
  }
}

async function auditarDecisao(tx: Db, admin: UsuarioSessao, tardia: LinhaTardia, situacao: 'aceita' | 'recusada', motivo: string | null, descricao: string): Promise<void> {
  await registrarAuditoria(tx, {
    adminId: admin.id,
    acao: situacao === 'aceita' ? 'rota.aceitar_tardio' : 'rota.recusar_tardio',
    alvoTipo: 'rota',
    alvoId: tardia.rotaId,
    antes: { operacao_id: tardia.operacaoId, situacao: 'pendente' },
    depois: { operacao_id: tardia.operacaoId, tipo: tardia.tipo, funcionario_id: tardia.usuarioId, descricao, situacao, motivo },
  });
}

async function decidir(tx: Db, admin: UsuarioSessao, tardia: LinhaTardia, situacao: 'aceita' | 'recusada', motivo: string | null): Promise<void> {
  if (!(await decidirTardia(tx, tardia.operacaoId, { situacao, motivo, adminId: admin.id }))) throw conflito('Este registro acabou de ser decidido por outro administrador.');
  const [apresentada] = await apresentar(tx, [tardia]);
  await auditarDecisao(tx, admin, tardia, situacao, motivo, `${apresentada!.rotulo}: ${apresentada!.descricao}`);
}

export interface ContextoTardias extends ContextoEscrita {
  /** Where the held receipts are copied back to temporary files to run the write (DATA_DIR/uploads-tmp). */
  pastaTemporaria: string;
}

/** The held receipts as received files again (temporary copies the write's service stores as usual). */
async function cuponsDaTardia(ctx: ContextoTardias, temporarios: Temporarios, arquivos: readonly ArquivoTardio[]): Promise<CupomRecebido[]> {
  const cupons: CupomRecebido[] = [];
  for (const a of arquivos) {
    const aberto = await ctx.armazenamento.abrir(a.nome);
    if (!aberto) throw conflito('Um comprovante deste registro não foi encontrado no armazenamento: recuse-o e peça ao funcionário que o registre de novo.');
    const recebido = await temporarios.receber(aberto.fluxo());
    cupons.push({ caminhoTemporario: recebido.caminho, tamanho: recebido.tamanho, mime: a.mime, extensao: a.extensao, nomeOriginal: a.nome_original });
  }
  return cupons;
}

/**
 * PATCH /api/rotas/:id/tardios/:operacaoId/aceitar: runs the held write as its employee, on the finished
 * route as it was before the finish, through the same service as any write (its own rules still apply: a
 * refusal there is the admin's answer, and the write stays pending). Recorded in the audit trail in the same
 * transaction as the write's effect.
 */
export async function aceitarTardia(ctx: ContextoTardias, admin: UsuarioSessao, rotaId: number, operacaoId: string): Promise<Tardia> {
  const tardia = await exigirPendente(ctx.db, rotaId, operacaoId);
  await exigirAnterioresDecididas(ctx.db, tardia);
  if (!ehTipoOperacao(tardia.tipo)) throw conflito('Este registro é de um tipo que esta versão não conhece: recuse-o.');
  const dono = await buscarUsuarioPorId(ctx.db, tardia.usuarioId);
  if (!dono) throw naoEncontrado(TARDIO_NAO_ENCONTRADO);
  const funcionario: UsuarioSessao = { id: dono.id, nome: dono.nome, email: dono.email, tipo: dono.tipo, aceitaTardiaNaRota: rotaId };
  const execucao = EXECUCOES[tardia.tipo];
  const dados = JSON.parse(tardia.dados) as never;
  const origem = { clienteId: tardia.clienteId };
  const arquivos = arquivosDaTardia(tardia);
  const temporarios = new Temporarios(ctx.pastaTemporaria);
  try {
    if (execucao.gravaArquivos) {
      // The write commits in a transaction of its own (its files are stored before it): decided inside it.
      let decidida = false;
      const aoAplicar = async (tx: Db) => {
        await decidir(tx, admin, tardia, 'aceita', null);
        decidida = true;
      };
      await execucao.executar({ ...ctx, aoAplicar }, funcionario, dados, origem, await cuponsDaTardia(ctx, temporarios, arquivos));
      // Nothing to change (the same record was already there): decided on its own.
      if (!decidida) await emTransacao(ctx.db, (tx) => decidir(tx, admin, tardia, 'aceita', null));
    } else {
      await emTransacao(ctx.db, async (tx) => {
        await execucao.executar({ ...ctx, db: tx }, funcionario, dados, origem);
        await decidir(tx, admin, tardia, 'aceita', null);
      });
    }
  } catch (erro) {
    if (erro instanceof ErroApp && erro.statusCode < 500) throw new ErroApp(erro.statusCode, erro.codigo, `Não foi possível aceitar este registro: ${erro.message}`);
    throw erro;
  } finally {
    await temporarios.limpar();
  }
  // The held copies are no one's now: the accepted write stored its own.
  for (const a of arquivos) await ctx.armazenamento.remover(a.nome);
  return (await apresentar(ctx.db, [(await buscarTardia(ctx.db, operacaoId))!]))[0]!;
}

/** PATCH /api/rotas/:id/tardios/:operacaoId/recusar { motivo }: the write is not applied; the phone shows why. */
export async function recusarTardia(ctx: ContextoEscrita, admin: UsuarioSessao, rotaId: number, operacaoId: string, motivo: string): Promise<Tardia> {
  const tardia = await exigirPendente(ctx.db, rotaId, operacaoId);
  await emTransacao(ctx.db, (tx) => decidir(tx, admin, tardia, 'recusada', motivo));
  for (const a of arquivosDaTardia(tardia)) await ctx.armazenamento.remover(a.nome);
  return (await apresentar(ctx.db, [(await buscarTardia(ctx.db, operacaoId))!]))[0]!;
}
