/**
 * The batch sync's usual case on SQLite, written without the generic steps: a queued sale that
 * creates a closing on a free (route, city, date) of the employee's own route, dated today or before. The
 * sale and its operation's log row go straight to the driver, their values in order. Every other case
 * (an id or a day already taken, a route that refuses the sale, a user who is not an employee) writes
 * nothing here and goes salvarVenda's way, whose outcome for the sales written here is the same: 201,
 * received now. The route's rule is the one salvarVenda asks (exigirRotaAtivaDoFuncionario; the route and
 * its cities are read once for the batch's run, rotas/situacaoParaEscrita.ts comSituacoesMemorizadas).
 */
import type { VendaCriarDados } from '../../../shared/schemas/vendas';
import { hoje } from '../../../shared/dates';
import { ehPostgres, type Db } from '../db';
import { exigirRotaAtivaDoFuncionario } from '../rotas/servico';
import { APLICADAS_POR_COMANDO, registrarAplicadaSqlite, registrarAplicadasSqlite, VALORES_POR_APLICADA } from '../sync/registroOperacoes';
import type { UsuarioSessao } from '../tipos';
import { inserirVendaNovaSqlite } from './repositorio';

/** The values of a full statement of log rows. */
const VALORES_POR_COMANDO = VALORES_POR_APLICADA * APLICADAS_POR_COMANDO;

export class VendasNovasDoLote {
  private readonly hoje: string;
  /** When the server took the run's sales: one instant for the whole transaction. */
  private readonly agora = new Date().toISOString();

  /** `tx`: the batch run's open SQLite transaction; `clienteId`: the device the operations come from. */
  constructor(
    private readonly tx: Db,
    private readonly usuario: UsuarioSessao,
    private readonly clienteId: string,
    private readonly fuso: string,
  ) {
    if (ehPostgres(tx)) throw new Error('VendasNovasDoLote é só do SQLite (as respostas chegam na hora).');
    this.hoje = hoje(fuso);
  }

  /**
   * The log rows of the sales written and not yet inserted, each row's values in registrarAplicadaSqlite's
   * order (the first `valoresPendentes`): they go APLICADAS_POR_COMANDO at a time, and the rest in
   * `terminar`. One array of a full statement's size, filled again each time (pushing into an emptied
   * array grows its storage anew every time).
   */
  private readonly registrosPendentes: unknown[] = new Array<unknown>(VALORES_POR_COMANDO).fill(null);
  private valoresPendentes = 0;

  /**
   * Writes the sale and records its operation (`tipo` venda.salvar): when the server took it, or null when
   * nothing was written. The record may wait for `terminar`, still inside the run's transaction; an
   * operation already recorded makes that insert fail there, and the run is rolled back as it would be here.
   */
  gravar(operacaoId: string, seq: number, dados: VendaCriarDados): string | null {
    if (this.usuario.tipo !== 'funcionario' || dados.data_venda > this.hoje || !this.rotaAceita(dados)) return null;
    if (!inserirVendaNovaSqlite(this.tx, dados, this.usuario.id, dados.registrado_em ?? this.agora, this.agora, this.clienteId)) return null;
    const p = this.registrosPendentes;
    let i = this.valoresPendentes;
    p[i++] = operacaoId;
    p[i++] = this.usuario.id;
    p[i++] = this.clienteId;
    p[i++] = seq;
    p[i++] = 'venda.salvar';
    p[i++] = 201;
    p[i++] = this.agora;
    this.valoresPendentes = i === VALORES_POR_COMANDO ? 0 : i;
    if (i === VALORES_POR_COMANDO) registrarAplicadasSqlite(this.tx, p);
    return this.agora;
  }

  /** Records the operations still pending: before the run's transaction commits. */
  terminar(): void {
    const p = this.registrosPendentes;
    for (let i = 0; i < this.valoresPendentes; i += VALORES_POR_APLICADA) {
      registrarAplicadaSqlite(this.tx, p[i] as string, p[i + 1] as number, p[i + 2] as string, p[i + 3] as number, p[i + 4] as string, p[i + 5] as number, p[i + 6] as string);
    }
    this.valoresPendentes = 0;
  }

  private rotaAceita(dados: VendaCriarDados): boolean {
    try {
      // At once on SQLite: a refusal throws here, and salvarVenda then gives it its answer.
      const pronta = exigirRotaAtivaDoFuncionario(this.tx, this.usuario, dados.rota_id, { data: dados.data_venda, fuso: this.fuso, cidadeId: dados.cidade_id });
      if (!(pronta instanceof Promise)) return true;
      // Not answered at once (never on SQLite): left to salvarVenda, which waits for it.
      void pronta.catch(() => undefined);
      return false;
    } catch {
      return false;
    }
  }
}
