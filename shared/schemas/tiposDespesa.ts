/**
 * The expense types and their labels, with no zod: the employee's dashboard and the offline queue
 * need them on the first screen, which loads no schema library. despesas.ts re-exports them.
 */
export const TIPOS_DESPESA = ['alimentacao', 'hospedagem', 'combustivel', 'pedagio', 'aluguel_sala', 'outro'] as const;
export type TipoDespesa = (typeof TIPOS_DESPESA)[number];

/** The type as the form's select shows it. */
export const ROTULO_TIPO_DESPESA: Record<TipoDespesa, string> = {
  alimentacao: 'Alimentação',
  hospedagem: 'Hospedagem',
  combustivel: 'Combustível',
  pedagio: 'Pedágio',
  aluguel_sala: 'Aluguel de Sala',
  outro: 'Outro',
};

/** The type as lists and descriptions show it: 'outro' shows what the person wrote. */
export function nomeDoTipo(tipo: TipoDespesa, tipoOutro?: string | null): string {
  return tipo === 'outro' && tipoOutro ? tipoOutro : ROTULO_TIPO_DESPESA[tipo];
}
