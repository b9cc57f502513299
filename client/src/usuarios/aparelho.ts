/** The device named from its User-Agent: the rule lives in shared/ (the audit export on the server reads it too). */
export { descreverAparelho } from '../../../shared/aparelho';
