/**
 * The addresses that open one record on an admin screen (deep links). The server writes them into the
 * audit trail and each target screen reads its parameter from here, so the link and the screen that
 * honours it cannot drift apart.
 */

/** The query parameter each screen reads to open a record. */
export const PARAMETROS_DAS_TELAS = {
  /** Despesas: the expense's details (its UUID). */
  despesa: 'despesa',
  /** Relatórios: the route's details. */
  rota: 'rota',
  /** Usuários: the user, on the tab where they are listed. */
  usuario: 'usuario',
  /** Saldo: the employee's movements in 'Histórico de Movimentações'. */
  funcionario: 'funcionario',
  /** Vendas: the sale of a route, city and day (the filters that show exactly that row). */
  cidade: 'cidade',
  data: 'data',
} as const;

const P = PARAMETROS_DAS_TELAS;
const com = (caminho: string, parametros: Record<string, string | number>) =>
  `${caminho}?${new URLSearchParams(Object.entries(parametros).map(([k, v]) => [k, String(v)])).toString()}`;

export const enderecoDaDespesa = (id: string) => com('/despesas', { [P.despesa]: id });
export const enderecoDaRota = (id: number) => com('/relatorios', { [P.rota]: id });
export const enderecoDoUsuario = (id: number) => com('/usuarios', { [P.usuario]: id });
export const enderecoDoSaldo = (funcionarioId: number) => com('/saldo', { [P.funcionario]: funcionarioId });
export const enderecoDaVenda = (v: { rotaId: number; cidadeId: number; data: string }) => com('/vendas', { [P.rota]: v.rotaId, [P.cidade]: v.cidadeId, [P.data]: v.data });

/** A positive integer id from the address's parameter; null when absent or anything else. */
export function idDoEndereco(busca: URLSearchParams, parametro: string): number | null {
  const texto = busca.get(parametro);
  if (texto === null || !/^[1-9]\d{0,15}$/.test(texto)) return null;
  const id = Number(texto);
  return Number.isSafeInteger(id) ? id : null;
}
