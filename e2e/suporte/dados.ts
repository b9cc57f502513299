/** Data a browser test starts from, written through the real API as the admin would write it. */
import { expect } from 'vitest';
import { hoje, somarDias } from '../../shared/dates';
import type { ServidorDeTeste } from './servidor';

/**
 * An active route around today (APP_TZ), from `diasAntes` days ago to `diasDepois` days ahead, so
 * the phone's "today" falls inside it whenever the test runs. Returns its id.
 */
export async function criarRotaEmCurso(
  servidor: ServidorDeTeste,
  funcionarioId: number,
  { nome, cidades, diasAntes, diasDepois, valorAluguel = 0 }: { nome: string; cidades: number[]; diasAntes: number; diasDepois: number; valorAluguel?: number },
): Promise<number> {
  const dia = hoje('America/Sao_Paulo');
  const r = await servidor.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await servidor.tokenAdmin(),
    payload: {
      nome,
      funcionario_id: funcionarioId,
      tem_secretario: false,
      valor_aluguel: valorAluguel,
      data_inicio: somarDias(dia, -diasAntes),
      data_fim: somarDias(dia, diasDepois),
      observacoes: '',
      cidades,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id as number;
}

/** Money the admin adds to the employee's balance (for a route, or none). */
export async function creditarSaldo(
  servidor: ServidorDeTeste,
  funcionarioId: number,
  valor: number,
  { descricao = 'Adiantamento', rotaId }: { descricao?: string; rotaId: number | null },
): Promise<void> {
  const r = await servidor.chamar({
    method: 'POST',
    url: '/api/saldo/adicionar',
    token: await servidor.tokenAdmin(),
    payload: { funcionario_id: funcionarioId, valor, descricao, rota_id: rotaId },
  });
  expect(r.statusCode, r.body).toBe(201);
}

/**
 * An employee in the field: a route around today over `cidades` (`dias` before and after it) and
 * R$ 500 on their balance for it. Returns the employee (with password and token) and the route's id.
 */
export async function funcionarioEmCampo(
  servidor: ServidorDeTeste,
  { nome, email, cidades, dias, descricaoDoCredito }: { nome: string; email: string; cidades: number[]; dias: number; descricaoDoCredito: string },
) {
  const f = await servidor.criarFuncionario({ nome, email });
  const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: `Rota de ${nome}`, cidades, diasAntes: dias, diasDepois: dias });
  await creditarSaldo(servidor, f.id, 500, { descricao: descricaoDoCredito, rotaId });
  return { ...f, rotaId };
}
