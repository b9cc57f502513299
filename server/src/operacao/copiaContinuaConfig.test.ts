/** COPIA_S3_*: on only with COPIA_S3_BUCKET, the rest taken from S3_* when absent, refused in pt-BR when incomplete or overlapping the receipts. */
import { describe, expect, it } from 'vitest';
import { carregarConfig, ErroDeConfiguracao } from '../config';

const S3 = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'comprovantes', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_FORCE_PATH_STYLE: 'true' };
const COPIA_PROPRIA = { COPIA_S3_BUCKET: 'copias', COPIA_S3_ENDPOINT: 'https://s3.sa-east-1.amazonaws.com', COPIA_S3_REGION: 'sa-east-1', COPIA_S3_ACCESS_KEY_ID: 'ck', COPIA_S3_SECRET_ACCESS_KEY: 'cs' };

function mensagem(env: Record<string, string>): string {
  try {
    carregarConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ErroDeConfiguracao);
    return (e as Error).message;
  }
  throw new Error('era esperado um erro');
}

describe('configuração da cópia contínua', () => {
  it('desligada sem COPIA_S3_BUCKET', () => {
    expect(carregarConfig({}).copia).toBeNull();
    expect(carregarConfig(S3).copia).toBeNull();
  });

  it('com o bucket dos comprovantes: só COPIA_S3_BUCKET, o resto vem de S3_*, prefixo padrão copia-continua/', () => {
    expect(carregarConfig({ ...S3, COPIA_S3_BUCKET: 'copias' }).copia).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'copias',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefixo: 'copia-continua/',
    });
  });

  it('comprovantes na pasta local: o bucket da cópia com as suas próprias variáveis, sem ligar o S3 dos comprovantes', () => {
    const config = carregarConfig({ ...COPIA_PROPRIA, COPIA_S3_PREFIX: 'escola-a/copia' });
    expect(config.s3).toBeNull();
    expect(config.copia).toMatchObject({ bucket: 'copias', endpoint: 'https://s3.sa-east-1.amazonaws.com', forcePathStyle: false, prefixo: 'escola-a/copia/' });
  });

  it('recusa em pt-BR: incompleta, variáveis sem o bucket, prefixo ruim, prefixo sobreposto ao dos comprovantes no mesmo bucket', () => {
    expect(mensagem({ COPIA_S3_BUCKET: 'copias', COPIA_S3_REGION: 'sa-east-1' })).toMatch(/falta definir COPIA_S3_ENDPOINT \(ou S3_ENDPOINT\), COPIA_S3_ACCESS_KEY_ID/);
    expect(mensagem({ COPIA_S3_PREFIX: 'copia/' })).toMatch(/COPIA_S3_PREFIX definida\(s\) sem COPIA_S3_BUCKET/);
    expect(mensagem({ ...COPIA_PROPRIA, COPIA_S3_PREFIX: '../fora' })).toMatch(/COPIA_S3_PREFIX=.*não pode ter/);
    expect(mensagem({ ...COPIA_PROPRIA, COPIA_S3_BUCKET: 'X' })).toMatch(/COPIA_S3_BUCKET="X": deve ser o nome de um bucket/);
    expect(mensagem({ ...S3, COPIA_S3_BUCKET: 'comprovantes', COPIA_S3_PREFIX: 'cupons/copia' })).toMatch(/se sobrepõem no mesmo bucket/);
    expect(carregarConfig({ ...S3, COPIA_S3_BUCKET: 'comprovantes' }).copia?.prefixo).toBe('copia-continua/');
  });
});
