/**
 * The real API (server/src) on a temporary database, listening on loopback, with the client's `api`
 * pointed at it: for the client tests that run the sync engine end to end over real HTTP.
 */
import { criarAppDeTeste, type AppDeTeste } from '../../../server/test/helper';
import { definirOrigemApi } from '../api/client';

export interface ApiReal {
  t: AppDeTeste;
  funcionario: Awaited<ReturnType<AppDeTeste['criarFuncionario']>>;
  rotaId: number;
}

/**
 * Starts the server and creates one employee with a route (long enough to cover every day the
 * tests queue sales on), as the admin would, so the engine has something real to write to.
 */
export async function iniciarApiReal({
  env,
  funcionario: nome,
  rota,
  cidades,
}: {
  env?: Record<string, string>;
  funcionario: string;
  rota: string;
  cidades: number[];
}): Promise<ApiReal> {
  const t = await criarAppDeTeste(env ? { env } : {});
  try {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    definirOrigemApi(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    const funcionario = await t.criarFuncionario({ nome });
    const r = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: await t.tokenAdmin(),
      payload: { nome: rota, funcionario_id: funcionario.id, tem_secretario: false, valor_aluguel: 0, data_inicio: '2024-01-01', data_fim: '2026-12-31', observacoes: '', cidades },
    });
    return { t, funcionario, rotaId: r.json().rota.id };
  } catch (erro) {
    // The caller never gets `t` to close: do it here, or the server outlives the test file.
    await fecharApiReal(t);
    throw erro;
  }
}

/** Points the client back at its own origin (other test files share the module) and closes the server. */
export async function fecharApiReal(t: AppDeTeste | undefined): Promise<void> {
  definirOrigemApi('');
  await t?.fechar();
}
