/** The framework's ceiling in this run: a bare Fastify route, in its own process. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ola', async () => ({ ola: 'mundo' }));
// The same bare route answering the exact bytes an endpoint answered (body, content type and
// encoding, stored once with PUT): the ceiling for that answer, with no work behind it. The same
// bytes matter, not only the same size: autocannon decodes every body as UTF-8 text, which costs it
// far more for gzip than for a run of ASCII letters.
const prontas = new Map<string, { corpo: Buffer; tipo: string; codificacao: string | undefined }>();
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 16 * 1024 * 1024 }, (_request, corpo, feito) => feito(null, corpo));
app.put<{ Params: { nome: string }; Body: Buffer }>('/resposta/:nome', async (request) => {
  const tipo = request.headers['x-tipo'];
  const codificacao = request.headers['x-codificacao'];
  prontas.set(request.params.nome, {
    corpo: request.body,
    tipo: typeof tipo === 'string' ? tipo : 'application/octet-stream',
    codificacao: typeof codificacao === 'string' && codificacao ? codificacao : undefined,
  });
  return { bytes: request.body.length };
});
app.get<{ Params: { nome: string } }>('/resposta/:nome', async (request, reply) => {
  const pronta = prontas.get(request.params.nome);
  if (!pronta) return reply.code(404).send({ error: 'nenhuma resposta guardada' });
  reply.type(pronta.tipo);
  if (pronta.codificacao) reply.header('content-encoding', pronta.codificacao);
  return reply.send(pronta.corpo);
});
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
