/** The framework's ceiling in this run: a bare Fastify route, in its own process. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ola', async () => ({ ola: 'mundo' }));
// The same bare route answering N ready-made bytes: the ceiling for an answer of a given size
// (what the wire and the load generator cost, with no work behind it).
const prontos = new Map<number, Buffer>();
app.get<{ Params: { n: string } }>('/bytes/:n', async (request, reply) => {
  const n = Math.min(Number(request.params.n) || 0, 4 * 1024 * 1024);
  if (!prontos.has(n)) prontos.set(n, Buffer.alloc(n, 'a'));
  return reply.type('application/octet-stream').send(prontos.get(n));
});
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
