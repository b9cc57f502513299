/**
 * What stays with a person when an admin deactivates them, read before the 'Sim': the active route
 * (it stays active until an admin finishes or cancels it), the balance (it stays in Saldo while not
 * zero) and what the phones last reported as unsent (it can still reach the server through
 * 'Exportar pendências' on the phone's login screen and 'Importar pendências' here). Read only.
 */
import { centavosParaReais } from '../../../shared/money';
import type { ResumoDesativacao } from '../../../shared/schemas/usuarios';
import type { Db } from '../db';
import { celularesComFila } from '../dispositivos/servico';
import { listarLinhasRotas } from '../rotas/repositorio';
import { saldoAtual } from '../saldo/servico';
import { exigirUsuario } from './servico';

export async function resumoDaDesativacao(db: Db, id: number, versaoMinimaApp: string): Promise<ResumoDesativacao> {
  const usuario = await exigirUsuario(db, id);
  // One active route per employee (rotas/servico.ts); an admin has none, no balance and no phone report.
  const [rota] = await listarLinhasRotas(db, { status: 'ativa', funcionarioId: id });
  const saldo = await saldoAtual(db, id);
  return {
    usuario_id: usuario.id,
    nome: usuario.nome,
    rota_ativa: rota ? { id: rota.id, nome: rota.nome } : null,
    saldo_atual: centavosParaReais(saldo.centavos),
    celulares: await celularesComFila(db, versaoMinimaApp, id),
  };
}
