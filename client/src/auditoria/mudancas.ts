/** What an audit row changed, in words: the rule lives in shared/ (the server's CSV export writes the same lines). */
export { descreverMudancas, linhasDasMudancas, type ContextoMudancas, type Mudanca } from '../../../shared/mudancasAuditoria';
