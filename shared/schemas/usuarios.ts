/** Users and sessions: request and response schemas shared by the API and the forms. */
import { z } from '../zod';
import { booleano, email, opcao, senha, texto } from './campos';
import { celularComFilaSchema } from './dispositivos';
import { TIPOS_USUARIO } from './tiposUsuario';

// Zod-free, so the app shell can import them without the schema library.
export { ROTULO_TIPO, TIPOS_USUARIO, type TipoUsuario } from './tiposUsuario';

export const NOME_MAXIMO = 120;

export const usuarioSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  email: z.string(),
  tipo: z.enum(TIPOS_USUARIO),
  ativo: z.boolean(),
  bloqueado: z.boolean(),
  /** While blocked: when the block lifts by itself (ISO instant). */
  bloqueado_ate: z.string().nullable().optional(),
  tentativas_login: z.number().int(),
  data_criacao: z.string(),
});
export type Usuario = z.infer<typeof usuarioSchema>;

export const loginSchema = z.object({
  email: email(),
  // Only presence is checked at login: the length rule applies when a password is set.
  senha: z
    .string({ error: (iss) => (iss.input == null ? 'Senha é obrigatória.' : 'Senha deve ser um texto.') })
    .min(1, 'Senha é obrigatória.')
    .max(128, 'Senha inválida.'),
});
export type LoginPedido = z.input<typeof loginSchema>;

export const loginRespostaSchema = z.object({ token: z.string(), usuario: usuarioSchema });
export type LoginResposta = z.infer<typeof loginRespostaSchema>;

export const usuarioCriarSchema = z.object({
  nome: texto('Nome', { min: 2, max: NOME_MAXIMO }),
  email: email(),
  senha: senha(),
  tipo: opcao('Tipo', TIPOS_USUARIO),
});
export type UsuarioCriarPedido = z.input<typeof usuarioCriarSchema>;

export const usuarioEditarSchema = z
  .object({
    nome: texto('Nome', { min: 2, max: NOME_MAXIMO }).optional(),
    email: email().optional(),
    tipo: opcao('Tipo', TIPOS_USUARIO).optional(),
    ativo: booleano('Status').optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Informe ao menos um campo para alterar.' });
export type UsuarioEditarPedido = z.input<typeof usuarioEditarSchema>;

export const senhaAlterarSchema = z.object({ novaSenha: senha('Nova senha') });

/** The signed-in user's own change (PUT /auth/senha): the current password is required. */
export const senhaPropriaSchema = z.object({
  senhaAtual: z
    .string({ error: (iss) => (iss.input == null ? 'Senha atual é obrigatória.' : 'Senha atual deve ser um texto.') })
    .min(1, 'Senha atual é obrigatória.')
    .max(128, 'Senha atual inválida.'),
  novaSenha: senha('Nova senha'),
});
export type SenhaPropriaPedido = z.input<typeof senhaPropriaSchema>;

/** POST /usuarios/:id/encerrar-sessoes */
export const sessoesEncerradasSchema = z.object({ message: z.string(), encerradas: z.number().int() });
export type SessoesEncerradas = z.infer<typeof sessoesEncerradasSchema>;

/**
 * An open session as the admin sees it: what signed in (the browser's User-Agent) and when. `ref`
 * names it for ending it; the session's own id (its secret) never leaves the server.
 */
export const sessaoAbertaSchema = z.object({
  ref: z.string(),
  descricao: z.string(),
  criada_em: z.string(),
  expira_em: z.string(),
  /** The session this very request came from (the admin looking at their own). */
  atual: z.boolean(),
});
export type SessaoAberta = z.infer<typeof sessaoAbertaSchema>;
export const sessoesAbertasSchema = z.object({ sessoes: z.array(sessaoAbertaSchema) });
export const paramsSessao = z.object({
  id: z.coerce.number({ error: 'ID inválido.' }).int({ error: 'ID inválido.' }).positive({ error: 'ID inválido.' }),
  ref: z.string().regex(/^[0-9a-f]{16}$/, { error: 'Sessão inválida.' }),
});

export const usuarioRespostaSchema = z.object({ usuario: usuarioSchema });
export const usuariosRespostaSchema = z.object({ usuarios: z.array(usuarioSchema) });
export const funcionariosRespostaSchema = z.object({ funcionarios: z.array(usuarioSchema) });

/**
 * GET /usuarios/funcionarios: active employees (every picker). With `inativos_com_rotas=true`, also
 * the inactive ones who have routes (Relatórios' filter: their routes can still be reported).
 */
export const filtroFuncionariosSchema = z.object({
  inativos_com_rotas: z.enum(['true', 'false'], { error: "inativos_com_rotas deve ser 'true' ou 'false'." }).optional(),
});

/**
 * GET /usuarios/:id/desativacao (admin): what stays with the person when deactivated, asked before the
 * 'Sim'. The phones are those whose last report said something waits on them, oldest waiting first.
 */
export const resumoDesativacaoSchema = z.object({
  usuario_id: z.number(),
  nome: z.string(),
  /** One active route per employee; null without one. */
  rota_ativa: z.object({ id: z.number(), nome: z.string() }).nullable(),
  /** Reais; negative when the employee spent own money. */
  saldo_atual: z.number(),
  celulares: z.array(celularComFilaSchema),
});
export type ResumoDesativacao = z.infer<typeof resumoDesativacaoSchema>;
export const mensagemSchema = z.object({ message: z.string() });
