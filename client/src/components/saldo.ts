/**
 * The colour of a balance wherever one shows: red only below zero (the employee used own
 * money), green above, no colour at zero — an employee with nothing left is not a problem.
 */
export function classeDoSaldo(valor: number): string | undefined {
  if (valor < 0) return 'valor-negativo';
  if (valor > 0) return 'valor-positivo';
  return undefined;
}
