import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSAO_MINIMA_APP } from '../../shared/versao';
import { carregarConfig, ErroDeConfiguracao, lerDuracao } from './config';

/** The error `carregarConfig` throws for `env`. */
function erroDe(env: Record<string, string>): ErroDeConfiguracao {
  try {
    carregarConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ErroDeConfiguracao);
    return e as ErroDeConfiguracao;
  }
  throw new Error(`era esperado um erro para ${JSON.stringify(env)}`);
}

describe('carregarConfig', () => {
  it('padrões sem nenhuma variável', () => {
    expect(carregarConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      adminEmail: undefined,
      adminPassword: undefined,
      adminName: 'Administrador',
      jwtSecret: undefined,
      jwtTtlSegundos: 7 * 24 * 3600,
      appTz: 'America/Sao_Paulo',
      logLevel: 'info',
      centroNome: 'Centro de Ensino',
      trustProxy: false,
      limiteLoginPorMinuto: 10,
      versaoMinimaApp: VERSAO_MINIMA_APP,
      loginBloqueioMinutos: 15,
      cotaComprovantesBytes: 200 * 1024 * 1024,
      limiteRequisicoesPorMinuto: 600,
      requisicoesSimultaneasPorUsuario: 2,
      databaseUrl: undefined,
      s3: null,
      s3LimiteMs: 20_000,
      copia: null,
      discoMinimoBytes: 200 * 1024 * 1024,
    });
  });

  it('S3_TIMEOUT_MS: o prazo de cada chamada ao bucket, em milissegundos, validado', () => {
    expect(carregarConfig({ S3_TIMEOUT_MS: '1500' }).s3LimiteMs).toBe(1500);
    expect(erroDe({ S3_TIMEOUT_MS: '0' }).problemas).toEqual(['S3_TIMEOUT_MS="0": deve ser um número inteiro de milissegundos entre 500 e 600000']);
    expect(erroDe({ S3_TIMEOUT_MS: '20s' }).problemas).toEqual(['S3_TIMEOUT_MS="20s": deve ser um número inteiro de milissegundos entre 500 e 600000']);
  });

  it('LOGIN_BLOQUEIO_MINUTOS, COTA_COMPROVANTES_MB e LIMITE_REQUISICOES_POR_MINUTO: inteiros validados', () => {
    expect(carregarConfig({ LOGIN_BLOQUEIO_MINUTOS: '30', COTA_COMPROVANTES_MB: '50', LIMITE_REQUISICOES_POR_MINUTO: '120' })).toMatchObject({
      loginBloqueioMinutos: 30,
      cotaComprovantesBytes: 50 * 1024 * 1024,
      limiteRequisicoesPorMinuto: 120,
    });
    expect(erroDe({ LOGIN_BLOQUEIO_MINUTOS: '0' }).problemas).toEqual([
      'LOGIN_BLOQUEIO_MINUTOS="0": deve ser um número inteiro de minutos entre 1 e 10080',
    ]);
    expect(erroDe({ COTA_COMPROVANTES_MB: 'muito' }).problemas).toEqual([
      'COTA_COMPROVANTES_MB="muito": deve ser um número inteiro de megabytes entre 1 e 100000',
    ]);
  });

  it('VERSAO_MINIMA_APP: a versão mínima do aplicativo, validada', () => {
    expect(carregarConfig({ VERSAO_MINIMA_APP: ' 0.3.1 ' }).versaoMinimaApp).toBe('0.3.1');
    expect(erroDe({ VERSAO_MINIMA_APP: 'dois' }).problemas).toEqual([`VERSAO_MINIMA_APP="dois": deve ser uma versão como '0.2.0'`]);
  });

  it('DATABASE_URL: postgres:// ou postgresql://; outra coisa é recusada sem mostrar o valor (a senha)', () => {
    expect(carregarConfig({ DATABASE_URL: ' postgres://app:segredo@127.0.0.1:5432/gestao ' }).databaseUrl).toBe('postgres://app:segredo@127.0.0.1:5432/gestao');
    expect(carregarConfig({ DATABASE_URL: 'postgresql://app@db.interno/gestao?sslmode=require' }).databaseUrl).toBe('postgresql://app@db.interno/gestao?sslmode=require');
    expect(carregarConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    for (const url of ['mysql://app:segredo@db/gestao', 'segredo', 'postgres://']) {
      const erro = erroDe({ DATABASE_URL: url });
      expect(erro.problemas).toEqual([`DATABASE_URL=(oculto): deve ser uma URL do PostgreSQL, como 'postgres://usuario:senha@servidor:5432/banco'`]);
      expect(erro.message).not.toContain('segredo');
    }
  });

  it('variáveis vazias valem como ausentes', () => {
    expect(carregarConfig({ PORT: '', APP_TZ: ' ', JWT_TTL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' })).toMatchObject({
      port: 3000,
      appTz: 'America/Sao_Paulo',
      jwtTtlSegundos: 604800,
      adminEmail: undefined,
    });
  });

  it('lê os valores dados', () => {
    const c = carregarConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/sg-dados',
      ADMIN_EMAIL: ' Chefe@Escola.com.br ',
      ADMIN_PASSWORD: 'segredo-1',
      ADMIN_NAME: 'Chefe',
      JWT_SECRET: 'x'.repeat(32),
      APP_TZ: 'America/Manaus',
      LOG_LEVEL: 'warn',
      CENTRO_NOME: 'Escola Modelo',
      TRUST_PROXY: 'true',
      LOGIN_RATE_LIMIT: '5',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/sg-dados',
      adminEmail: 'chefe@escola.com.br',
      adminPassword: 'segredo-1',
      adminName: 'Chefe',
      jwtSecret: 'x'.repeat(32),
      appTz: 'America/Manaus',
      logLevel: 'warn',
      centroNome: 'Escola Modelo',
      trustProxy: true,
      limiteLoginPorMinuto: 5,
    });
    expect(carregarConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(carregarConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it.each([
    ['12h', 12 * 3600],
    ['30m', 30 * 60],
    ['3600', 3600],
    ['3600s', 3600],
    ['7d', 7 * 86400],
    [' 1d ', 86400],
  ])('JWT_TTL=%j vira %d segundos', (valor, segundos) => {
    expect(carregarConfig({ JWT_TTL: valor }).jwtTtlSegundos).toBe(segundos);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['APP_TZ', 'Brasil/Goiania'],
    ['APP_TZ', 'GMT-3 horas'],
    ['JWT_SECRET', 'curto-demais'],
    ['JWT_TTL', 'sete dias'],
    ['JWT_TTL', '0'],
    ['JWT_TTL', '-5m'],
    ['JWT_TTL', '1.5h'],
    ['LOG_LEVEL', 'verbose'],
    ['TRUST_PROXY', 'sim'],
    ['LOGIN_RATE_LIMIT', '0'],
    ['LOGIN_RATE_LIMIT', 'muitos'],
    ['ADMIN_NAME', 'A'],
    ['CENTRO_NOME', 'C'.repeat(81)],
    ['ADMIN_EMAIL', 'nao-e-email'],
  ])('%s=%j: recusado com uma mensagem em português que nomeia a variável', (variavel, valor) => {
    const env = variavel === 'ADMIN_EMAIL' ? { ADMIN_EMAIL: valor, ADMIN_PASSWORD: 'segredo-1' } : { [variavel]: valor };
    const erro = erroDe(env);
    expect(erro.message).toMatch(/^Configuração inválida:/);
    expect(erro.problemas).toHaveLength(1);
    expect(erro.problemas[0]).toContain(`${variavel}=${JSON.stringify(valor)}`);
    // What it expects, in the operator's language (zod's English defaults would leak otherwise).
    expect(erro.problemas[0]).toMatch(/: deve /);
  });

  it('mensagens específicas: porta, fuso, segredo e duração', () => {
    expect(erroDe({ PORT: '70000' }).message).toContain('deve ser uma porta entre 0 e 65535');
    expect(erroDe({ APP_TZ: 'Marte/Olimpo' }).message).toContain("deve ser um fuso horário IANA, como 'America/Sao_Paulo'");
    expect(erroDe({ JWT_SECRET: 'abc' }).message).toContain('deve ter pelo menos 32 caracteres');
    expect(erroDe({ JWT_TTL: 'amanhã' }).message).toContain("deve ser uma duração como '7d', '12h', '30m' ou segundos");
  });

  it('vários problemas de uma vez: todos listados', () => {
    const erro = erroDe({ PORT: 'abc', APP_TZ: 'Lugar/Nenhum', JWT_TTL: 'x' });
    expect(erro.problemas.map((p) => p.split('=')[0]).sort()).toEqual(['APP_TZ', 'JWT_TTL', 'PORT']);
  });

  it('ADMIN_EMAIL sem ADMIN_PASSWORD (ou o contrário) é recusado', () => {
    const envs: Record<string, string>[] = [{ ADMIN_EMAIL: 'chefe@escola.com.br' }, { ADMIN_PASSWORD: 'segredo-1' }];
    for (const env of envs) {
      const erro = erroDe(env);
      expect(erro.message).toContain('ADMIN_EMAIL e ADMIN_PASSWORD devem ser definidos juntos');
    }
  });

  it('ADMIN_PASSWORD curta é recusada', () => {
    expect(erroDe({ ADMIN_EMAIL: 'chefe@escola.com.br', ADMIN_PASSWORD: '12345' }).message).toContain('ADMIN_PASSWORD');
  });

  it('ADMIN_EMAIL admin@localhost é aceito', () => {
    expect(carregarConfig({ ADMIN_EMAIL: 'admin@localhost', ADMIN_PASSWORD: 'segredo-1' }).adminEmail).toBe('admin@localhost');
  });
});

describe('lerDuracao', () => {
  it('unidades e números puros; o resto é null', () => {
    expect(lerDuracao('45s')).toBe(45);
    expect(lerDuracao('2d')).toBe(172800);
    expect(lerDuracao('10')).toBe(10);
    for (const ruim of ['', 'd', '1w', '1 h 30m', '0s', 'abc', '1e3']) expect(lerDuracao(ruim), ruim).toBeNull();
  });
});
