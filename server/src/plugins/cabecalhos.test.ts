/**
 * HSTS only on answers to HTTPS requests: over plain HTTP (loopback, a LAN
 * install without TLS) the header means nothing to a browser at best, and at worst, sent through a
 * proxy that terminates TLS for one name only, pins a host that has no HTTPS. request.protocol tells
 * which: with TRUST_PROXY, the X-Forwarded-Proto of the proxy on this machine; without it, the socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';

const HSTS = 'strict-transport-security';

describe('Strict-Transport-Security', () => {
  let atrasDoProxy: AppDeTeste;
  let direto: AppDeTeste;
  beforeAll(async () => {
    atrasDoProxy = await criarAppDeTeste({ cidades: false, env: { TRUST_PROXY: '1' } });
    direto = await criarAppDeTeste({ cidades: false });
  });
  afterAll(async () => {
    await atrasDoProxy.fechar();
    await direto.fechar();
  });

  it('pedido que chegou por HTTPS (o proxy desta máquina diz X-Forwarded-Proto: https): com HSTS', async () => {
    for (const url of ['/api/health', '/api/auth/me', '/api/nao-existe']) {
      const r = await atrasDoProxy.chamar({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      const hsts = /^max-age=(\d+); includeSubDomains$/.exec(String(r.headers[HSTS]));
      expect(hsts, `${url}: ${String(r.headers[HSTS])}`).not.toBeNull();
      expect(Number(hsts![1])).toBeGreaterThanOrEqual(180 * 24 * 3600);
    }
  });

  it('pedido por HTTP simples: sem HSTS', async () => {
    for (const t of [atrasDoProxy, direto]) {
      const r = await t.chamar({ method: 'GET', url: '/api/health' });
      expect(r.statusCode).toBe(200);
      expect(r.headers[HSTS]).toBeUndefined();
      // The other security headers stay.
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(String(r.headers['content-security-policy'])).toContain("default-src 'self'");
    }
    const http = await atrasDoProxy.chamar({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers[HSTS]).toBeUndefined();
  });

  it('sem TRUST_PROXY, um X-Forwarded-Proto: https forjado não liga o HSTS', async () => {
    const r = await direto.chamar({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(r.headers[HSTS]).toBeUndefined();
  });
});
