/**
 * The signed-in session kept on the device (spec: localStorage keys 'token' and 'user'), so an
 * employee stays signed in offline. Everything read back is checked: a corrupt value is dropped.
 */
import type { Usuario } from '../../../shared/schemas/usuarios';

export const CHAVE_TOKEN = 'token';
export const CHAVE_USUARIO = 'user';
/** Why the last session ended and whose it was, for the login screen that follows it. */
export const CHAVE_SAIDA = 'saida';

export interface SaidaDaSessao {
  /** The server's words (e.g. 'Sua sessão foi encerrada pelo administrador.'); null when none came. */
  motivo: string | null;
  email: string | null;
}

export function lerToken(): string | null {
  return localStorage.getItem(CHAVE_TOKEN);
}

export function lerUsuarioSalvo(): Usuario | null {
  const texto = localStorage.getItem(CHAVE_USUARIO);
  if (!texto) return null;
  try {
    const u = JSON.parse(texto) as Partial<Usuario>;
    if (typeof u.id === 'number' && typeof u.nome === 'string' && (u.tipo === 'admin' || u.tipo === 'funcionario')) {
      return u as Usuario;
    }
  } catch {
    // falls through: a value we cannot read is as good as none
  }
  localStorage.removeItem(CHAVE_USUARIO);
  return null;
}

export function salvarSessao(token: string | null, usuario: Usuario): void {
  if (token) localStorage.setItem(CHAVE_TOKEN, token);
  localStorage.setItem(CHAVE_USUARIO, JSON.stringify(usuario));
}

export function limparSessao(): void {
  localStorage.removeItem(CHAVE_TOKEN);
  localStorage.removeItem(CHAVE_USUARIO);
}

/**
 * Kept before the session is cleared, so the login screen can say why and have the e-mail typed.
 * Only the server's refusal writes it; leaving by 'Sair' forgets it.
 */
export function guardarSaida(motivo: string | null): void {
  const email = lerUsuarioSalvo()?.email ?? null;
  if (motivo === null && email === null) return;
  localStorage.setItem(CHAVE_SAIDA, JSON.stringify({ motivo, email } satisfies SaidaDaSessao));
}

export function lerSaida(): SaidaDaSessao | null {
  const texto = localStorage.getItem(CHAVE_SAIDA);
  if (!texto) return null;
  try {
    const s = JSON.parse(texto) as Partial<SaidaDaSessao>;
    return { motivo: typeof s.motivo === 'string' ? s.motivo : null, email: typeof s.email === 'string' ? s.email : null };
  } catch {
    localStorage.removeItem(CHAVE_SAIDA);
    return null;
  }
}

export function esquecerSaida(): void {
  localStorage.removeItem(CHAVE_SAIDA);
}

type Ouvinte = () => void;
const ouvintes = new Set<Ouvinte>();

/** Subscribes to "the server said this session is no longer valid" (a 401 outside /login). */
export function aoSessaoExpirar(ouvinte: Ouvinte): () => void {
  ouvintes.add(ouvinte);
  return () => ouvintes.delete(ouvinte);
}

export function sessaoExpirou(motivo: string | null = null): void {
  if (lerUsuarioSalvo()) guardarSaida(motivo);
  limparSessao();
  for (const o of ouvintes) o();
}
