/** Every domain's queued write types, registered with the sync engine before the app starts. */
import '../rotas/operacoes';
import '../vendas/operacoes';
import '../despesas/operacoes';
