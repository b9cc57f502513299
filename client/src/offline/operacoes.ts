/** Every domain's queued write types, registered once at start (one import per domain). */
import '../despesas/operacoes';
