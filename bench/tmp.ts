import autocannon from 'autocannon';
import { iniciarFilho } from './processo';
const s = await iniciarFilho<{ porta: number; tokenAdmin: string }>('servidor.ts', ['--vazio']);
for (const [nome, caminho, token] of [['health', '/api/health', ''], ['me', '/api/auth/me', s.info.tokenAdmin]] as const) {
  await autocannon({ url: `http://127.0.0.1:${s.info.porta}${caminho}`, connections: 10, duration: 2, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const r = await autocannon({ url: `http://127.0.0.1:${s.info.porta}${caminho}`, connections: 10, duration: 4, headers: token ? { authorization: `Bearer ${token}` } : {} });
  console.log(nome, Math.round(r.requests.average), r.latency.p50, r.latency.p99, r.non2xx);
}
await s.parar();
