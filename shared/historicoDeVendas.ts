/**
 * The sales history's size, without zod: the employee's list of cities (client/src/vendas/estadoCidades.ts)
 * must not load the schema library to appear (docs/decisions/desempenho-cliente.md, 'O zod fora da primeira tela'). shared/schemas/vendas.ts re-exports it.
 */

/** How many past sales of a city the employee's 'Histórico de vendas' shows (spec section 9). */
export const HISTORICO_POR_CIDADE = 6;
