/**
 * The signed-in session kept on the device (spec: localStorage keys 'token' and 'user'), so an
 * employee stays signed in offline. Everything read back is checked: a corrupt value is dropped.
 */
import type { Usuario } from '../../../shared/schemas/usuarios';

export const CHAVE_TOKEN = 'token';
export const CHAVE_USUARIO = 'user';

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

type Ouvinte = () => void;
const ouvintes = new Set<Ouvinte>();

/** Subscribes to "the server said this session is no longer valid" (a 401 outside /login). */
export function aoSessaoExpirar(ouvinte: Ouvinte): () => void {
  ouvintes.add(ouvinte);
  return () => ouvintes.delete(ouvinte);
}

export function sessaoExpirou(): void {
  limparSessao();
  for (const o of ouvintes) o();
}
