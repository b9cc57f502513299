/**
 * Sign-in rules: after MAX_TENTATIVAS_LOGIN wrong passwords in a row the account is blocked for
 * LOGIN_BLOQUEIO_MINUTOS (an admin may lift it sooner). A blocked account, a wrong password and an
 * unknown e-mail get the same answer, after the same work, so the answer says nothing about who
 * exists or is blocked. Inactivity is only revealed to someone who knows the password.
 */
import { ErroApp } from '../errors';
import type { Db } from '../db';
import {
  buscarUsuarioPorEmail,
  registrarFalhaDeLogin,
  registrarLoginCerto,
  reservarTentativaDeLogin,
  type LinhaUsuario,
} from '../usuarios/repositorio';
import { conferirSenha, gerarHashSenha, hashParaComparacaoFicticia, precisaRefazerHash } from './senha';

/** Wrong passwords in a row that block the account for a while. */
export const MAX_TENTATIVAS_LOGIN = 5;

export const mensagemCredenciais = (minutos: number) =>
  `Email ou senha inválidos. Após ${MAX_TENTATIVAS_LOGIN} tentativas erradas, o acesso fica bloqueado por ${minutos} minutos.`;
export const MENSAGEM_INATIVO = 'Usuário inativo. Procure um administrador.';

export interface OpcoesLogin {
  bloqueioMinutos: number;
  /** The clock (ms); tests move it instead of waiting. */
  agora?: () => number;
}

export async function autenticarCredenciais(db: Db, email: string, senha: string, opcoes: OpcoesLogin): Promise<LinhaUsuario> {
  const agora = opcoes.agora?.() ?? Date.now();
  const recusa = () => new ErroApp(401, 'credenciais_invalidas', mensagemCredenciais(opcoes.bloqueioMinutos));
  const usuario = await buscarUsuarioPorEmail(db, email);
  // Blocks that began at or before this instant have lasted their minutes.
  const reservado = usuario && (await reservarTentativaDeLogin(db, usuario.id, MAX_TENTATIVAS_LOGIN, new Date(agora - opcoes.bloqueioMinutos * 60_000).toISOString()));
  if (!usuario || !reservado) {
    // Unknown, or no attempt left: the same work as a real check, so response time says nothing either.
    await conferirSenha(senha, await hashParaComparacaoFicticia());
    throw recusa();
  }
  if (!(await conferirSenha(senha, reservado.senhaHash))) {
    await registrarFalhaDeLogin(db, usuario.id, MAX_TENTATIVAS_LOGIN);
    throw recusa();
  }
  // The right password: the series starts again, and a hash made at an older cost is replaced now.
  const troca = precisaRefazerHash(reservado.senhaHash) ? { de: reservado.senhaHash, para: await gerarHashSenha(senha) } : undefined;
  const atualizado = await registrarLoginCerto(db, usuario.id, troca);
  if (!atualizado.ativo) throw new ErroApp(403, 'usuario_inativo', MENSAGEM_INATIVO);
  return atualizado;
}
