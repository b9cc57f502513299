/**
 * Priming (docs/decisions/copias-do-aparelho.md, 'O preparo automático'): the app fetches by itself
 * every copy the employee screens read offline, so a
 * person who logs in with signal never has to know about copies. One run at a time for the whole app
 * (the automatic triggers and 'Atualizar tudo' share it); a trigger during a run asks for one more
 * run after it, since the run in progress may have read its copies before what triggered it.
 */
import { useSyncExternalStore } from 'react';
import { atualizarTudo, type OpcoesAtualizacao, type ResultadoAtualizacao } from './dadosDaViagem';

export interface EstadoPreparo {
  /** Whose copies the state is about (a shared phone changes person). */
  usuarioId: number | null;
  rodando: boolean;
  /** Copies answered in the current run, of how many. */
  feitos: number;
  total: number;
  /** The last run's outcome in this session; null before the first one ends. */
  ultimo: ResultadoAtualizacao | null;
}

type OpcoesPreparo = Omit<OpcoesAtualizacao, 'aoProgredir'>;

export class Preparo {
  private atual: EstadoPreparo = { usuarioId: null, rodando: false, feitos: 0, total: 0, ultimo: null };
  private readonly ouvintes = new Set<() => void>();
  private emCurso: Promise<ResultadoAtualizacao> | null = null;
  private outraVez: OpcoesPreparo | null = null;

  constructor(private readonly atualizar: (o: OpcoesAtualizacao) => Promise<ResultadoAtualizacao> = atualizarTudo) {}

  assinar = (ouvinte: () => void): (() => void) => {
    this.ouvintes.add(ouvinte);
    return () => this.ouvintes.delete(ouvinte);
  };

  estado = (): EstadoPreparo => this.atual;

  /** Forgets the last outcome (a new session; tests). A run in progress ends unseen. */
  esquecer(): void {
    this.outraVez = null;
    this.definir({ usuarioId: null, rodando: false, feitos: 0, total: 0, ultimo: null });
  }

  /** The run in progress, if any. */
  emAndamento(): Promise<ResultadoAtualizacao> | null {
    return this.emCurso;
  }

  private definir(parcial: Partial<EstadoPreparo>) {
    this.atual = { ...this.atual, ...parcial };
    for (const o of this.ouvintes) o();
  }

  /** Fetches every copy (after sending the queue); resolves with the run that covers this call. */
  preparar(o: OpcoesPreparo): Promise<ResultadoAtualizacao> {
    if (this.emCurso) {
      this.outraVez = o;
      return this.emCurso.then(() => this.emCurso ?? this.preparar(o));
    }
    if (this.atual.usuarioId !== o.usuarioId) this.definir({ usuarioId: o.usuarioId, ultimo: null });
    this.definir({ rodando: true, feitos: 0, total: 0 });
    const execucao = this.atualizar({ ...o, aoProgredir: (feitos, total) => this.definir({ feitos, total }) })
      .catch((erro: unknown): ResultadoAtualizacao => {
        console.error('Erro ao preparar o aparelho:', erro);
        return { falhas: ['Rota ativa'], semConexao: false, em: new Date().toISOString(), confirmacoesAte: 0 };
      })
      .then((resultado) => {
        this.emCurso = null;
        // A run for another person (logged out meanwhile) says nothing about this one's copies.
        if (this.atual.usuarioId === o.usuarioId) this.definir({ rodando: false, ultimo: resultado });
        else this.definir({ rodando: false });
        const seguinte = this.outraVez;
        this.outraVez = null;
        if (seguinte) void this.preparar(seguinte);
        return resultado;
      });
    this.emCurso = execucao;
    return execucao;
  }
}

export const preparo = new Preparo();

export function useEstadoPreparo(): EstadoPreparo {
  return useSyncExternalStore(preparo.assinar, preparo.estado, preparo.estado);
}
