/** The phones with something waiting, as the admin dashboard lists them (all, or one employee's). */
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import { abaixoDaMinima } from '../../../shared/versao';
import type { Db } from '../db';
import { dispositivosComFila } from './repositorio';

export async function celularesComFila(db: Db, versaoMinimaApp: string, usuarioId?: number): Promise<CelularComFila[]> {
  return (await dispositivosComFila(db, usuarioId)).map((d) => ({
    funcionario_id: d.usuarioId,
    funcionario_nome: d.funcionarioNome,
    dispositivo_id: d.dispositivoId,
    versao: d.versao,
    versao_antiga: abaixoDaMinima(d.versao, versaoMinimaApp),
    fila: { venda: d.filaVendas, visita: d.filaVisitas, despesa: d.filaDespesas, rota: d.filaRotas },
    mais_antigo_em: d.maisAntigoEm,
    ultima_sync_em: d.ultimaSyncEm,
    visto_em: d.vistoEm,
  }));
}
