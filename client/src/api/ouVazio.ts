import { ErroOffline } from './client';

/**
 * Spec section 8: a list that fails to load is logged and shows empty. Not without connection: then
 * the failure goes on (`ErroOffline`), for the screen to say 'Sem conexão' instead of an empty list.
 */
export async function ouVazio<T>(carregar: () => Promise<T>, vazio: T, contexto: string): Promise<T> {
  try {
    return await carregar();
  } catch (erro) {
    if (erro instanceof ErroOffline) throw erro;
    console.error(contexto, erro);
    return vazio;
  }
}
