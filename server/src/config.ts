/**
 * Configuration comes only from the environment and is validated once at start; a bad value
 * stops the server with a message that names the variable and what it expects.
 */
import path from 'node:path';
import { z } from 'zod';
import { APP_TZ_PADRAO, fusoValido } from '../../shared/dates';
import { PADRAO_EMAIL } from '../../shared/schemas/campos';
import { VERSAO_MINIMA_APP, versaoValida } from '../../shared/versao';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  adminName: string;
  /** Undefined: generated once and kept in DATA_DIR (see auth/segredo.ts). */
  jwtSecret: string | undefined;
  jwtTtlSegundos: number;
  appTz: string;
  logLevel: (typeof NIVEIS_LOG)[number];
  /** Name of the teaching centre shown at the top of the sidebar. */
  centroNome: string;
  /** Trust X-Forwarded-* from a reverse proxy on the same machine (HTTPS, client address): only loopback hops. */
  trustProxy: boolean;
  /** Login attempts allowed per client address per minute. */
  limiteLoginPorMinuto: number;
  /** Oldest client app version whose queued writes are accepted (older ones get 426 'Atualize o aplicativo'). */
  versaoMinimaApp: string;
  /** Minutes a block after 5 wrong passwords lasts before it lifts by itself (an admin may lift it sooner). */
  loginBloqueioMinutos: number;
  /** Receipt storage each employee may use, in bytes (COTA_COMPROVANTES_MB). */
  cotaComprovantesBytes: number;
  /** Authenticated requests each user may make per minute before a 429. */
  limiteRequisicoesPorMinuto: number;
  /** Requests of one user that run at once; the next ones wait in line (plugins/vezPorUsuario.ts). */
  requisicoesSimultaneasPorUsuario: number;
  /** DATABASE_URL (postgres:// or postgresql://); undefined: SQLite in DATA_DIR. Refused at start until the data functions are ported (db/motor.ts). */
  databaseUrl: string | undefined;
  /** Receipts in S3-compatible object storage (the S3_* variables); null: files under DATA_DIR/uploads. */
  s3: ConfigS3 | null;
  /**
   * How long one call to the receipts' bucket may take, connecting, sending and being answered, its
   * retries included (S3_TIMEOUT_MS): past it the call is abandoned and the request answers 503.
   */
  s3LimiteMs: number;
  /**
   * The continuous off-site copy of the database and the local receipts (COPIA_S3_BUCKET;
   * operacao/copiaContinua.ts); null: off. Its endpoint, region and keys are the COPIA_S3_*
   * ones, each falling back to the S3_* one (one set when both live with the same provider).
   */
  copia: ConfigS3 | null;
  /** Free space DATA_DIR's disk must keep (DISCO_MINIMO_MB); below it /api/health answers 503 (saude/verificacoes.ts). */
  discoMinimoBytes: number;
}

/** An S3-compatible bucket for receipts (arquivos/armazenamento.ts). */
export interface ConfigS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addresses (http://host/bucket/key): what self-hosted servers (MinIO, Garage) usually need. */
  forcePathStyle: boolean;
  /** Where the receipts' keys start ('cupons/' by default): installations sharing a bucket each need their own. */
  prefixo: string;
}

/**
 * One call to the receipts' bucket, unless S3_TIMEOUT_MS says otherwise: a 20 MB receipt goes up in a few
 * seconds on any link a server has, and a phone waits no longer than this for its 503 when the bucket hangs.
 */
export const LIMITE_S3_PADRAO_MS = 20_000;

/** Where receipts' keys start unless S3_PREFIX says otherwise. */
export const PREFIXO_S3_PADRAO = 'cupons/';

/** Where the continuous copy's keys start unless COPIA_S3_PREFIX says otherwise. */
export const PREFIXO_COPIA_PADRAO = 'copia-continua/';

/** The continuous copy's bucket settings, each falling back to the S3_* one of the same name. */
const VARIAVEIS_COPIA = ['ENDPOINT', 'REGION', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY'] as const;

/** Either all of these or none: half a bucket configuration must stop the start, not fall back to the disk. */
const VARIAVEIS_S3 = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

const UNIDADES: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** '7d', '12h', '30m', '3600s' or plain seconds -> seconds. */
export function lerDuracao(texto: string): number | null {
  const m = /^(\d+)\s*([smhd]?)$/.exec(texto.trim());
  if (!m) return null;
  const segundos = Number(m[1]) * UNIDADES[m[2] || 's']!;
  return segundos > 0 ? segundos : null;
}

const vazioComoAusente = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Every refusal carries its own pt-BR text: zod's English defaults would otherwise reach the operator.
const PORTA = 'deve ser uma porta entre 0 e 65535';
const LIMITE_LOGIN = 'deve ser um número inteiro entre 1 e 10000';
const MINUTOS_BLOQUEIO = 'deve ser um número inteiro de minutos entre 1 e 10080';
const COTA = 'deve ser um número inteiro de megabytes entre 1 e 100000';
const LIMITE_REQUISICOES = 'deve ser um número inteiro entre 10 e 100000';
const SIMULTANEAS = 'deve ser um número inteiro entre 1 e 1000';
const LIMITE_S3 = 'deve ser um número inteiro de milissegundos entre 500 e 600000';
const DISCO_MINIMO = 'deve ser um número inteiro de megabytes entre 0 e 1000000';
const NIVEIS_LOG = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const esquema = z.object({
  PORT: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: PORTA }).int(PORTA).min(0, PORTA).max(65535, PORTA).default(3000),
  ),
  HOST: z.preprocess(vazioComoAusente, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(vazioComoAusente, z.string().default('./data')),
  ADMIN_EMAIL: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(PADRAO_EMAIL, 'deve ser um e-mail válido')
      .optional(),
  ),
  ADMIN_PASSWORD: z.preprocess(vazioComoAusente, z.string().min(6, 'deve ter pelo menos 6 caracteres').optional()),
  ADMIN_NAME: z.preprocess(
    vazioComoAusente,
    z.string().trim().min(2, 'deve ter pelo menos 2 caracteres').max(120, 'deve ter no máximo 120 caracteres').default('Administrador'),
  ),
  JWT_SECRET: z.preprocess(
    vazioComoAusente,
    z.string().min(32, 'deve ter pelo menos 32 caracteres (use por exemplo `openssl rand -hex 32`)').optional(),
  ),
  JWT_TTL: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .default('7d')
      .transform((v, ctx) => {
        const s = lerDuracao(v);
        if (s === null) {
          ctx.addIssue({ code: 'custom', message: "deve ser uma duração como '7d', '12h', '30m' ou segundos" });
          return z.NEVER;
        }
        return s;
      }),
  ),
  APP_TZ: z.preprocess(
    vazioComoAusente,
    z.string().default(APP_TZ_PADRAO).refine(fusoValido, "deve ser um fuso horário IANA, como 'America/Sao_Paulo'"),
  ),
  LOG_LEVEL: z.preprocess(
    vazioComoAusente,
    z.enum(NIVEIS_LOG, { error: `deve ser um de: ${NIVEIS_LOG.join(', ')}` }).default('info'),
  ),
  CENTRO_NOME: z.preprocess(vazioComoAusente, z.string().trim().max(80, 'deve ter no máximo 80 caracteres').default('Centro de Ensino')),
  TRUST_PROXY: z.preprocess(
    vazioComoAusente,
    z.enum(['true', 'false', '1', '0'], { error: "deve ser 'true' ou 'false'" }).default('false'),
  ),
  LOGIN_RATE_LIMIT: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: LIMITE_LOGIN }).int(LIMITE_LOGIN).min(1, LIMITE_LOGIN).max(10_000, LIMITE_LOGIN).default(10),
  ),
  LOGIN_BLOQUEIO_MINUTOS: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: MINUTOS_BLOQUEIO }).int(MINUTOS_BLOQUEIO).min(1, MINUTOS_BLOQUEIO).max(10_080, MINUTOS_BLOQUEIO).default(15),
  ),
  COTA_COMPROVANTES_MB: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: COTA }).int(COTA).min(1, COTA).max(100_000, COTA).default(200),
  ),
  LIMITE_REQUISICOES_POR_MINUTO: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: LIMITE_REQUISICOES }).int(LIMITE_REQUISICOES).min(10, LIMITE_REQUISICOES).max(100_000, LIMITE_REQUISICOES).default(600),
  ),
  REQUISICOES_SIMULTANEAS_POR_USUARIO: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: SIMULTANEAS }).int(SIMULTANEAS).min(1, SIMULTANEAS).max(1000, SIMULTANEAS).default(2),
  ),
  DISCO_MINIMO_MB: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: DISCO_MINIMO }).int(DISCO_MINIMO).min(0, DISCO_MINIMO).max(1_000_000, DISCO_MINIMO).default(200),
  ),
  S3_ENDPOINT: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), "deve ser um endereço http:// ou https://, como 'https://s3.sa-east-1.amazonaws.com'")
      .optional(),
  ),
  S3_BUCKET: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'deve ser o nome de um bucket: de 3 a 63 letras minúsculas, números, pontos ou hífens')
      .optional(),
  ),
  S3_REGION: z.preprocess(vazioComoAusente, z.string().trim().regex(/^[a-z0-9-]{2,64}$/i, "deve ser uma região como 'sa-east-1' ou 'us-east-1'").optional()),
  S3_TIMEOUT_MS: z.preprocess(
    vazioComoAusente,
    z.coerce.number({ error: LIMITE_S3 }).int(LIMITE_S3).min(500, LIMITE_S3).max(600_000, LIMITE_S3).default(LIMITE_S3_PADRAO_MS),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(vazioComoAusente, z.string().trim().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(vazioComoAusente, z.string().optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(
    vazioComoAusente,
    z.enum(['true', 'false', '1', '0'], { error: "deve ser 'true' ou 'false'" }).optional(),
  ),
  S3_PREFIX: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, "deve ser um prefixo de chaves como 'empresa-a/cupons/' (letras, números, '.', '_', '-' e '/')")
      .refine((v) => !v.split('/').some((parte) => parte === '.' || parte === '..'), "não pode ter '.' nem '..' como parte")
      .transform((v) => (v.endsWith('/') ? v : `${v}/`))
      .optional(),
  ),
  COPIA_S3_BUCKET: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'deve ser o nome de um bucket: de 3 a 63 letras minúsculas, números, pontos ou hífens')
      .optional(),
  ),
  COPIA_S3_ENDPOINT: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), "deve ser um endereço http:// ou https://, como 'https://s3.sa-east-1.amazonaws.com'")
      .optional(),
  ),
  COPIA_S3_REGION: z.preprocess(vazioComoAusente, z.string().trim().regex(/^[a-z0-9-]{2,64}$/i, "deve ser uma região como 'sa-east-1' ou 'us-east-1'").optional()),
  COPIA_S3_ACCESS_KEY_ID: z.preprocess(vazioComoAusente, z.string().trim().optional()),
  COPIA_S3_SECRET_ACCESS_KEY: z.preprocess(vazioComoAusente, z.string().optional()),
  COPIA_S3_FORCE_PATH_STYLE: z.preprocess(
    vazioComoAusente,
    z.enum(['true', 'false', '1', '0'], { error: "deve ser 'true' ou 'false'" }).optional(),
  ),
  COPIA_S3_PREFIX: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, "deve ser um prefixo de chaves como 'empresa-a/copia/' (letras, números, '.', '_', '-' e '/')")
      .refine((v) => !v.split('/').some((parte) => parte === '.' || parte === '..'), "não pode ter '.' nem '..' como parte")
      .transform((v) => (v.endsWith('/') ? v : `${v}/`))
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    vazioComoAusente,
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\/\S+$/i, "deve ser uma URL do PostgreSQL, como 'postgres://usuario:senha@servidor:5432/banco'")
      .optional(),
  ),
  VERSAO_MINIMA_APP: z.preprocess(
    vazioComoAusente,
    z.string().trim().default(VERSAO_MINIMA_APP).refine(versaoValida, "deve ser uma versão como '0.2.0'"),
  ),
});

export class ErroDeConfiguracao extends Error {
  constructor(public readonly problemas: string[]) {
    super(`Configuração inválida:\n${problemas.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ErroDeConfiguracao';
  }
}

export function carregarConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = esquema.safeParse(env);
  if (!r.success) {
    const problemas = r.error.issues.map((i) => {
      const nome = String(i.path[0]);
      // A database URL usually carries its password: the variable is named, its value never echoed.
      const valor = nome === 'DATABASE_URL' ? '(oculto)' : JSON.stringify(env[nome] ?? '');
      return `${nome}=${valor}: ${i.message}`;
    });
    throw new ErroDeConfiguracao(problemas);
  }
  const e = r.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ErroDeConfiguracao(['ADMIN_EMAIL e ADMIN_PASSWORD devem ser definidos juntos (ou nenhum dos dois).']);
  }
  const s3Definidas = VARIAVEIS_S3.filter((nome) => e[nome] !== undefined);
  const s3Faltando = VARIAVEIS_S3.filter((nome) => e[nome] === undefined);
  if ((s3Definidas.length > 0 || e.S3_FORCE_PATH_STYLE !== undefined || e.S3_PREFIX !== undefined) && s3Faltando.length > 0) {
    throw new ErroDeConfiguracao([
      `Armazenamento de comprovantes em S3 incompleto: falta definir ${s3Faltando.join(', ')}. ` +
        'Defina todas as variáveis S3_* (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) ou nenhuma, para guardar em DATA_DIR/uploads.',
    ]);
  }
  const s3: ConfigS3 | null =
    s3Faltando.length === 0
      ? {
          endpoint: e.S3_ENDPOINT!,
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION!,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
          prefixo: e.S3_PREFIX ?? PREFIXO_S3_PADRAO,
        }
      : null;
  const copia = configDaCopia(e, s3);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    adminName: e.ADMIN_NAME,
    jwtSecret: e.JWT_SECRET,
    jwtTtlSegundos: e.JWT_TTL,
    appTz: e.APP_TZ,
    logLevel: e.LOG_LEVEL,
    centroNome: e.CENTRO_NOME,
    trustProxy: e.TRUST_PROXY === 'true' || e.TRUST_PROXY === '1',
    limiteLoginPorMinuto: e.LOGIN_RATE_LIMIT,
    versaoMinimaApp: e.VERSAO_MINIMA_APP,
    loginBloqueioMinutos: e.LOGIN_BLOQUEIO_MINUTOS,
    cotaComprovantesBytes: e.COTA_COMPROVANTES_MB * 1024 * 1024,
    limiteRequisicoesPorMinuto: e.LIMITE_REQUISICOES_POR_MINUTO,
    requisicoesSimultaneasPorUsuario: e.REQUISICOES_SIMULTANEAS_POR_USUARIO,
    databaseUrl: e.DATABASE_URL,
    s3,
    s3LimiteMs: e.S3_TIMEOUT_MS,
    copia,
    discoMinimoBytes: e.DISCO_MINIMO_MB * 1024 * 1024,
  };
}

/** COPIA_S3_* (each missing one taken from S3_*), refused in pt-BR when incomplete or overlapping the receipts' keys. */
function configDaCopia(e: z.infer<typeof esquema>, s3: ConfigS3 | null): ConfigS3 | null {
  const valor = (nome: (typeof VARIAVEIS_COPIA)[number]) => e[`COPIA_S3_${nome}`] ?? e[`S3_${nome}`];
  if (e.COPIA_S3_BUCKET === undefined) {
    const soltas = [...VARIAVEIS_COPIA.map((n) => `COPIA_S3_${n}` as const), 'COPIA_S3_FORCE_PATH_STYLE' as const, 'COPIA_S3_PREFIX' as const].filter((n) => e[n] !== undefined);
    if (soltas.length > 0) {
      throw new ErroDeConfiguracao([`Cópia contínua incompleta: ${soltas.join(', ')} definida(s) sem COPIA_S3_BUCKET. Defina COPIA_S3_BUCKET para ligar a cópia, ou remova essas variáveis.`]);
    }
    return null;
  }
  const faltando = VARIAVEIS_COPIA.filter((n) => valor(n) === undefined).map((n) => `COPIA_S3_${n} (ou S3_${n})`);
  if (faltando.length > 0) {
    throw new ErroDeConfiguracao([`Cópia contínua incompleta: falta definir ${faltando.join(', ')}. Com COPIA_S3_BUCKET, defina também o endereço, a região e as chaves do bucket da cópia.`]);
  }
  const estilo = e.COPIA_S3_FORCE_PATH_STYLE ?? e.S3_FORCE_PATH_STYLE;
  const copia: ConfigS3 = {
    endpoint: valor('ENDPOINT')!,
    bucket: e.COPIA_S3_BUCKET,
    region: valor('REGION')!,
    accessKeyId: valor('ACCESS_KEY_ID')!,
    secretAccessKey: valor('SECRET_ACCESS_KEY')!,
    forcePathStyle: estilo === 'true' || estilo === '1',
    prefixo: e.COPIA_S3_PREFIX ?? PREFIXO_COPIA_PADRAO,
  };
  // The receipts' orphan sweep deletes what its database does not name under its prefix: the two must not overlap.
  if (s3 && s3.bucket === copia.bucket && s3.endpoint === copia.endpoint && (s3.prefixo.startsWith(copia.prefixo) || copia.prefixo.startsWith(s3.prefixo))) {
    throw new ErroDeConfiguracao([
      `COPIA_S3_PREFIX=${JSON.stringify(copia.prefixo)} e S3_PREFIX=${JSON.stringify(s3.prefixo)} se sobrepõem no mesmo bucket: a limpeza de comprovantes apagaria a cópia. Use prefixos separados, como 'copia-continua/' e 'cupons/'.`,
    ]);
  }
  return copia;
}
