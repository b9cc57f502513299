/** User management rules (admin only): unique e-mail, at least one active admin, no self-lockout. */
import { randomBytes } from 'node:crypto';
import type { TipoUsuario } from '../../../shared/schemas/usuarios';
import { registrarAuditoria, retratoUsuario } from '../auditoria/registro';
import { gerarHashSenha } from '../auth/senha';
import { refDaSessao, revogarSessao, revogarSessoesDoUsuario, sessoesAbertas } from '../auth/sessoes';
import { emTransacao, type Db } from '../db';
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

/** A unique index refused the write: SQLite's code or PostgreSQL's 23505, on the error or the one drizzle wraps. */
function ehViolacaoDeUnicidade(erro: unknown): boolean {
  const codigo = (e: unknown) => (e as { code?: unknown } | undefined)?.code;
  const causa = (erro as { cause?: unknown } | undefined)?.cause;
  return [codigo(erro), codigo(causa)].some((c) => c === 'SQLITE_CONSTRAINT_UNIQUE' || c === '23505');
}

export async function exigirUsuario(db: Db, id: number): Promise<LinhaUsuario> {
  const u = await buscarUsuarioPorId(db, id);
  if (!u) throw naoEncontrado('Usuário não encontrado.');
  return u;
}

/** `adminId`: the admin who creates (recorded in the audit trail); absent for the first admin made at start. */
export async function criarUsuario(
  db: Db,
  dados: { nome: string; email: string; senha: string; tipo: TipoUsuario },
  adminId?: number,
): Promise<LinhaUsuario> {
  if (await buscarUsuarioPorEmail(db, dados.email)) throw conflito(EMAIL_EM_USO);
  const senhaHash = await gerarHashSenha(dados.senha);
  try {
    return await emTransacao(db, async (tx) => {
      const criado = await inserirUsuario(tx, { nome: dados.nome, email: dados.email, senhaHash, tipo: dados.tipo });
      if (adminId !== undefined) await registrarAuditoria(tx, { adminId, acao: 'usuario.criar', alvoTipo: 'usuario', alvoId: criado.id, antes: null, depois: retratoUsuario(criado) });
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

/**
 * Applies an admin's edit, refusing changes that would leave nobody able to administer. The checks and
 * the write are one transaction: two admins deactivating each other at once cannot both pass the
 * "another active admin remains" check.
 */
export async function editarUsuario(db: Db, atorId: number, id: number, alteracao: AlteracaoUsuario): Promise<LinhaUsuario> {
  try {
    return await emTransacao(db, async (tx) => {
      const atual = await exigirUsuario(tx, id);
      const campos: CamposUsuario = {};
      if (alteracao.nome !== undefined) campos.nome = alteracao.nome;
      if (alteracao.email !== undefined && alteracao.email !== atual.email) {
        const dono = await buscarUsuarioPorEmail(tx, alteracao.email);
        if (dono && dono.id !== id) throw conflito(EMAIL_EM_USO);
        campos.email = alteracao.email;
      }
      if (alteracao.tipo !== undefined && alteracao.tipo !== atual.tipo) {
        if (atorId === id) throw regraDeNegocio('Você não pode alterar o tipo do seu próprio usuário.');
        if (atual.tipo === 'funcionario' && (await funcionarioTemRotaAtiva(tx, id))) {
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
      if (deixaDeSerAdminAtivo && (await contarAdminsAtivos(tx)) <= 1) {
        throw conflito('É preciso manter pelo menos um administrador ativo.');
      }
      if (Object.keys(campos).length === 0) return atual;
      // A deactivated user's sessions end for good: reactivating does not bring old tokens back.
      if (campos.ativo === false) await revogarSessoesDoUsuario(tx, id);
      const editado = (await atualizarUsuario(tx, id, campos))!;
      const soStatus = Object.keys(campos).length === 1 && campos.ativo !== undefined;
      const acao = !soStatus ? 'usuario.editar' : campos.ativo ? 'usuario.ativar' : 'usuario.desativar';
      await registrarAuditoria(tx, { adminId: atorId, acao, alvoTipo: 'usuario', alvoId: id, antes: retratoUsuario(atual), depois: retratoUsuario(editado) });
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
  await exigirUsuario(db, id);
  const senhaHash = await gerarHashSenha(novaSenha);
  return emTransacao(db, async (tx) => {
    const encerradas = await revogarSessoesDoUsuario(tx, id, opcoes.manterSessao);
    // An admin setting someone's password is recorded (never the password); a person changing their own is not an admin action.
    if (opcoes.adminId !== undefined) {
      await registrarAuditoria(tx, { adminId: opcoes.adminId, acao: 'usuario.senha', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: encerradas } });
    }
    return (await atualizarUsuario(tx, id, { senhaHash }))!;
  });
}

/**
 * The admin's 'Encerrar sessões': every open session of the user ends (their devices ask for a login;
 * an employee's queued writes stay on the phone). An admin ending their own keeps the one asking.
 */
export async function encerrarSessoes(db: Db, id: number, ator: { id: number; sessao: string | undefined }): Promise<number> {
  await exigirUsuario(db, id);
  return emTransacao(db, async (tx) => {
    const encerradas = await revogarSessoesDoUsuario(tx, id, ator.id === id ? ator.sessao : undefined);
    await registrarAuditoria(tx, { adminId: ator.id, acao: 'usuario.encerrar_sessoes', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: encerradas } });
    return encerradas;
  });
}

/**
 * Ends one open session of a user, named by its ref (the admin's list). The admin's own current
 * session is not ended here: 'Sair' does that, and ends it knowingly.
 */
export async function encerrarSessao(db: Db, id: number, ref: string, ator: { id: number; sessao: string | undefined }): Promise<void> {
  await exigirUsuario(db, id);
  await emTransacao(db, async (tx) => {
    const sessao = (await sessoesAbertas(tx, id)).find((s) => refDaSessao(s.id) === ref);
    if (!sessao) throw naoEncontrado('Sessão não encontrada ou já encerrada.');
    if (sessao.id === ator.sessao) throw regraDeNegocio('Esta é a sessão que você está usando. Para sair dela, use "Sair".');
    await revogarSessao(tx, sessao.id, id);
    await registrarAuditoria(tx, { adminId: ator.id, acao: 'usuario.encerrar_sessoes', alvoTipo: 'usuario', alvoId: id, antes: null, depois: { sessoes_encerradas: 1, aparelho: sessao.descricao } });
  });
}

/**
 * For the operator who lost access (`user:reset-password EMAIL`): a new random password,
 * unblocked, other sessions ended. Returns the password to show once.
 */
export async function redefinirSenhaPorEmail(db: Db, email: string): Promise<{ usuario: LinhaUsuario; senha: string }> {
  const usuario = await buscarUsuarioPorEmail(db, email.trim().toLowerCase());
  if (!usuario) throw naoEncontrado(`Nenhum usuário com o email ${email}.`);
  const senha = randomBytes(9).toString('base64url');
  const senhaHash = await gerarHashSenha(senha);
  const atualizado = await emTransacao(db, async (tx) => {
    await revogarSessoesDoUsuario(tx, usuario.id);
    return (await atualizarUsuario(tx, usuario.id, { senhaHash, bloqueado: false, bloqueadoEm: null, tentativasLogin: 0 }))!;
  });
  return { usuario: atualizado, senha };
}

export async function desbloquearUsuario(db: Db, adminId: number, id: number): Promise<LinhaUsuario> {
  return emTransacao(db, async (tx) => {
    const atual = await exigirUsuario(tx, id);
    const desbloqueado = (await atualizarUsuario(tx, id, { bloqueado: false, bloqueadoEm: null, tentativasLogin: 0 }))!;
    await registrarAuditoria(tx, { adminId, acao: 'usuario.desbloquear', alvoTipo: 'usuario', alvoId: id, antes: retratoUsuario(atual), depois: retratoUsuario(desbloqueado) });
    return desbloqueado;
  });
}
