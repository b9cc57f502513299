/** The framework's ceiling in this run: a bare Fastify route, in its own process. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ola', async () => ({ ola: 'mundo' }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
