/** User management rules (admin only): unique e-mail, at least one active admin, no self-lockout. */
import { randomBytes } from 'node:crypto';
import type { TipoUsuario } from '../../../shared/schemas/usuarios';
import { registrarAuditoria, retratoUsuario } from '../auditoria/registro';
import { gerarHashSenha } from '../auth/senha';
import { refDaSessao, revogarSessao, revogarSessoesDoUsuario, sessoesAbertas } from '../auth/sessoes';
import { emTransacaoSincrona, type Db } from '../db';
import { conflito, naoEncontrado, regraDeNegocio } from '../errors';
import {
  atualizarUsuario,
  buscarUsuarioPorEmail,
  buscarUsuarioPorId,
  contarAdminsAtivos,
  funcionarioTemRotaAtiva,
  inserirUsuario,
  type CamposUsuario,
  type LinhaUsuario,
} from './repositorio';

const EMAIL_EM_USO = 'Já existe um usuário com este email.';

function ehViolacaoDeUnicidade(erro: unknown): boolean {
  return (erro as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export function exigirUsuario(db: Db, id: number): LinhaUsuario {
  const u = buscarUsuarioPorId(db, id);
  if (!u) throw naoEncontrado('Usuário não encontrado.');
  return u;
}

/** `adminId`: the admin who creates (recorded in the audit trail); absent for the first admin made at start. */
export async function criarUsuario(
  db: Db,
  dados: { nome: string; email: string; senha: string; tipo: TipoUsuario },
  adminId?: number,
): Promise<LinhaUsuario> {
  if (buscarUsuarioPorEmail(db, dados.email)) throw conflito(EMAIL_EM_USO);
  const senhaHash = await gerarHashSenha(dados.senha);
  try {
    return emTransacaoSincrona(db, () => {
      const criado = inserirUsuario(db, { nome: dados.nome, email: dados.email, senhaHash, tipo: dados.tipo });
      if (adminId !== undefined) registrarAuditoria(db, { adminId, acao: 'usuario.criar', alvoTipo: 'usuario', alvoId: criado.id, antes: null, depois: retratoUsuario(criado) });
      return criado;
    });
  } catch (erro) {
    if (ehViolacaoDeUnicidade(erro)) throw conflito(EMAIL_EM_USO); // lost a race with another create
    throw erro;
  }
}

export interface AlteracaoUsuario {
  nome?: string;
  email?: string;
  tipo?: TipoUsuario;
  ativo?: boolean;
}

/** Applies an admin's edit, refusing changes that would leave nobody able to administer. */
export function editarUsuario(db: Db, atorId: number, id: number, alteracao: AlteracaoUsuario): LinhaUsuario {
  const atual = exigirUsuario(db, id);
  const campos: CamposUsuario = {};
  if (alteracao.nome !== undefined) campos.nome = alteracao.nome;
  if (alteracao.email !== undefined && alteracao.email !== atual.email) {
    const dono = buscarUsuarioPorEmail(db, alteracao.email);
    if (dono && dono.id !== id) throw conflito(EMAIL_EM_USO);
    campos.email = alteracao.email;
  }
  if (alteracao.tipo !== undefined && alteracao.tipo !== atual.tipo) {
    if (atorId === id) throw regraDeNegocio('Você não pode alterar o tipo do seu próprio usuário.');
    if (atual.tipo === 'funcionario' && funcionarioTemRotaAtiva(db, id)) {
      throw conflito('Este funcionário tem uma rota ativa. Finalize ou cancele a rota antes de mudar o tipo.');
    }
    campos.tipo = alteracao.tipo;
  }
  if (alteracao.ativo !== undefined && alteracao.ativo !== atual.ativo) {
    if (atorId === id && !alteracao.ativo) throw regraDeNegocio('Você não pode desativar o seu próprio usuário.');
    campos.ativo = alteracao.ativo;
  }
  const deixaDeSerAdminAtivo =
    atual.tipo === 'admin' && atual.ativo && (campos.tipo === 'funcionario' || campos.ativo === false);
  if (deixaDeSerAdminAtivo && contarAdminsAtivos(db) <= 1) {
    throw conflito('É preciso manter pelo menos um administrador ativo.');
  }
  if (Object.keys(campos).length === 0) return atual;
  try {
    return emTransacaoSincrona(db, () => {
      // A deactivated user's sessions end for good: reactivating does not bring old tokens back.
      if (campos.ativo === false) revogarSessoesDoUsuario(db, id);
      const editado = atualizarUsuario(db, id, campos)!;
      const soStatus = Object.keys(campos).length === 1 && campos.ativo !== undefined;
      const acao = !soStatus ? 'usuario.editar' : campos.ativo ? 'usuario.ativar' : 'usuario.desativar';
      registrarAuditoria(db, { adminId: atorId, acao, alvoTipo: 'usuario', alvoId: id, antes: retratoUsuario(atual), depois: retratoUsuario(editado) });
      return editado;
    });
  } catch (erro) {
    if (ehViolacaoDeUnicidade(erro)) throw conflito(EMAIL_EM_USO);
    throw erro;
  }
}

/**
 * A new password ends the user's sessions: all of them when an admin sets it, all but the one
 * asking (`manterSessao`) when the user changes their own.
 */
export async function alterarSenha(db: Db, id: number, novaSenha: string, opcoes: { manterSessao?: string; adminId?: number } = {}): Promise<LinhaUsuario> {
  exigirUsuario(db, id);
  const senhaHash = await gerarHashSenha(novaSenha);
  return emTransacaoSincrona(db, () => {
    const encerradas = revogarSessoesDoUsuario(db, id, opcoes.manterSessao);
    // An admin setting someone's password is recorded (never the password); a person changing their own is not an admin action.
    if (opcoes.adminId !== undefined) {
      registrarAuditoria(db, { adminId: opcoes.adminId, acao: 'usuario.senha', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: encerradas } });
    }
    return atualizarUsuario(db, id, { senhaHash })!;
  });
}

/**
 * The admin's 'Encerrar sessões': every open session of the user ends (their devices ask for a login;
 * an employee's queued writes stay on the phone). An admin ending their own keeps the one asking.
 */
export function encerrarSessoes(db: Db, id: number, ator: { id: number; sessao: string | undefined }): number {
  exigirUsuario(db, id);
  return emTransacaoSincrona(db, () => {
    const encerradas = revogarSessoesDoUsuario(db, id, ator.id === id ? ator.sessao : undefined);
    registrarAuditoria(db, { adminId: ator.id, acao: 'usuario.encerrar_sessoes', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: encerradas } });
    return encerradas;
  });
}

/**
 * Ends one open session of a user, named by its ref (the admin's list). The admin's own current
 * session is not ended here: 'Sair' does that, and ends it knowingly.
 */
export function encerrarSessao(db: Db, id: number, ref: string, ator: { id: number; sessao: string | undefined }): void {
  exigirUsuario(db, id);
  emTransacaoSincrona(db, () => {
    const sessao = sessoesAbertas(db, id).find((s) => refDaSessao(s.id) === ref);
    if (!sessao) throw naoEncontrado('Sessão não encontrada ou já encerrada.');
    if (sessao.id === ator.sessao) throw regraDeNegocio('Esta é a sessão que você está usando. Para sair dela, use "Sair".');
    revogarSessao(db, sessao.id, id);
    registrarAuditoria(db, { adminId: ator.id, acao: 'usuario.encerrar_sessoes', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: 1, aparelho: sessao.descricao } });
  });
}

/**
 * For the operator who lost access (`user:reset-password EMAIL`): a new random password,
 * unblocked, other sessions ended. Returns the password to show once.
 */
export async function redefinirSenhaPorEmail(db: Db, email: string): Promise<{ usuario: LinhaUsuario; senha: string }> {
  const usuario = buscarUsuarioPorEmail(db, email.trim().toLowerCase());
  if (!usuario) throw naoEncontrado(`Nenhum usuário com o email ${email}.`);
  const senha = randomBytes(9).toString('base64url');
  const senhaHash = await gerarHashSenha(senha);
  const atualizado = emTransacaoSincrona(db, () => {
    revogarSessoesDoUsuario(db, usuario.id);
    return atualizarUsuario(db, usuario.id, { senhaHash, bloqueado: false, bloqueadoEm: null, tentativasLogin: 0 })!;
  });
  return { usuario: atualizado, senha };
}

export function desbloquearUsuario(db: Db, adminId: number, id: number): LinhaUsuario {
  return emTransacaoSincrona(db, () => {
    const atual = exigirUsuario(db, id);
    const desbloqueado = atualizarUsuario(db, id, { bloqueado: false, bloqueadoEm: null, tentativasLogin: 0 })!;
    registrarAuditoria(db, { adminId, acao: 'usuario.desbloquear', alvoTipo: 'usuario', alvoId: id, antes: retratoUsuario(atual), depois: retratoUsuario(desbloqueado) });
    return desbloqueado;
  });
}
