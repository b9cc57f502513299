/**
 * The admin's bulk approval and rejection: the requests, and what the admin is told about
 * the outcome. Each id has its own result: the ones that could not be evaluated stay selected.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AvaliacaoEmLote } from '../../../shared/schemas/despesas';
import { contagem } from '../../../shared/texto';
import { api } from '../api/client';
import { chavesDespesas } from './consultas';

export type Decisao = 'aprovar' | 'rejeitar';

export function useAvaliarDespesasEmLote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ decisao, ids, motivo }: { decisao: Decisao; ids: string[]; motivo?: string }) =>
      api.patch<AvaliacaoEmLote>(`/despesas/${decisao}`, decisao === 'rejeitar' ? { ids, motivo } : { ids }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chavesDespesas.todos }),
  });
}

export interface ResumoDaAvaliacao {
  /** What the toast says: the successes, then each distinct reason for the failures. */
  mensagem: string;
  tudoCerto: boolean;
  /** The ids that were not evaluated: they stay ticked so the admin sees which. */
  naoAvaliadas: string[];
}

export function resumirAvaliacao(decisao: Decisao, r: AvaliacaoEmLote): ResumoDaAvaliacao {
  const feito = decisao === 'aprovar' ? ['aprovada', 'aprovadas'] : ['rejeitada', 'rejeitadas'];
  const naoAvaliadas = r.resultados.filter((x) => !x.ok).map((x) => x.id);
  const partes: string[] = [];
  if (r.avaliadas > 0) partes.push(contagem(r.avaliadas, `despesa ${feito[0]}`, `despesas ${feito[1]}`));
  if (r.falhas > 0) {
    const motivos = [...new Set(r.resultados.filter((x) => !x.ok).map((x) => x.error ?? 'erro desconhecido'))];
    const verbo = decisao === 'aprovar' ? 'aprovada' : 'rejeitada';
    partes.push(`${contagem(r.falhas, `não pôde ser ${verbo}`, `não puderam ser ${verbo}s`)}: ${motivos.join(' ')}`);
  }
  const mensagem = partes.join('; ');
  return { mensagem: /[.!?]$/.test(mensagem) ? mensagem : `${mensagem}.`, tudoCerto: r.falhas === 0, naoAvaliadas };
}
