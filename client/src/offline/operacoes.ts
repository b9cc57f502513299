/** Every domain's queued write types, registered with the sync engine before the app starts. */
import '../vendas/operacoes';
