/**
 * This app's version ('0.1.0', from package.json at build time): sent as X-Versao-App on every
 * request, so the server can refuse queued writes from an app too old for it (426).
 */
import { versaoValida } from '../../shared/versao';

const DA_COMPILACAO = typeof __VERSAO_APP__ === 'string' && versaoValida(__VERSAO_APP__) ? __VERSAO_APP__ : '0.0.0';

let atual = DA_COMPILACAO;

export function versaoApp(): string {
  return atual;
}

/** Tests only: pretend to be another build (an update that arrived). */
export function definirVersaoAppParaTeste(versao: string | null): void {
  atual = versao ?? DA_COMPILACAO;
}
