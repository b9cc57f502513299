/** Sign-in rules: lockout after repeated failures, blocked and inactive users refused. */
import { ErroApp } from '../errors';
import type { Db } from '../db';
import {
  atualizarUsuario,
  buscarUsuarioPorEmail,
  registrarFalhaDeLogin,
  type LinhaUsuario,
} from '../usuarios/repositorio';
import { conferirSenha, hashParaComparacaoFicticia } from './senha';

/** Failed logins in a row that block the user until an admin unlocks them. */
export const MAX_TENTATIVAS_LOGIN = 5;

export const MENSAGEM_CREDENCIAIS = 'Email ou senha inválidos.';
export const MENSAGEM_BLOQUEADO = `Usuário bloqueado após ${MAX_TENTATIVAS_LOGIN} tentativas de login sem sucesso. Procure um administrador para desbloquear.`;
export const MENSAGEM_INATIVO = 'Usuário inativo. Procure um administrador.';

export async function autenticarCredenciais(db: Db, email: string, senha: string): Promise<LinhaUsuario> {
  const usuario = buscarUsuarioPorEmail(db, email);
  if (!usuario) {
    // Same work as a real check, so response time does not reveal which e-mails exist.
    await conferirSenha(senha, await hashParaComparacaoFicticia());
    throw new ErroApp(401, 'credenciais_invalidas', MENSAGEM_CREDENCIAIS);
  }
  // A blocked account is not even checked: guessing must stop being useful.
  if (usuario.bloqueado) throw new ErroApp(403, 'usuario_bloqueado', MENSAGEM_BLOQUEADO);

  if (!(await conferirSenha(senha, usuario.senhaHash))) {
    const depois = registrarFalhaDeLogin(db, usuario.id, MAX_TENTATIVAS_LOGIN);
    if (depois.bloqueado) throw new ErroApp(403, 'usuario_bloqueado', MENSAGEM_BLOQUEADO);
    throw new ErroApp(401, 'credenciais_invalidas', MENSAGEM_CREDENCIAIS);
  }
  // Inactivity is only revealed to someone who knows the password.
  if (!usuario.ativo) throw new ErroApp(403, 'usuario_inativo', MENSAGEM_INATIVO);
  if (usuario.tentativasLogin > 0) return atualizarUsuario(db, usuario.id, { tentativasLogin: 0 })!;
  return usuario;
}
