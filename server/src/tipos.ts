/** The Fastify instance type every route module receives, and what the app decorates it with. */
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ArmazenamentoCupons } from './arquivos/armazenamento';
import type { Config } from './config';
import type { Db } from './db';
import type { TipoUsuario } from '../../shared/schemas/usuarios';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Who is calling, loaded from the database on every authenticated request. */
export interface UsuarioSessao {
  id: number;
  nome: string;
  email: string;
  tipo: TipoUsuario;
  /**
   * Set only when an admin accepts a write that reached this employee's route after they finished it
   * (tardias/servico.ts): that finished route takes it as it would have before the finish.
   */
  aceitaTardiaNaRota?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Where receipt files live: DATA_DIR/uploads, or the S3 bucket (arquivos/armazenamento.ts). */
    armazenamento: ArmazenamentoCupons;
    /** onRequest hook (runs before body validation): 401 unless a valid token of an active user comes by header or cookie. */
    autenticar: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: `autenticar`, then 403 unless the user is an admin. */
    exigirAdmin: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: `autenticar`, then 403 unless the user is an employee (funcionario). */
    exigirFuncionario: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    usuario: UsuarioSessao;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** `sid`: the server-side session (auth/sessoes.ts); tokens without it or without `exp` are refused. */
    payload: { sub: string; tipo: TipoUsuario; sid: string };
    user: { sub: string; tipo: TipoUsuario; sid?: string; iat: number; exp?: number };
  }
}
