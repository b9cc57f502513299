/**
 * The round-robin proxy of bench/postgres.ts, in its own process (the load generator must not share
 * its event loop): node:http on loopback, the next upstream for every request, as an nginx upstream
 * block does — the same as server/test/multiprocesso/cenarioDoisProcessos.ts, plus a count of the
 * requests each upstream answered (GET /__bench/contagem, outside /api) so the bench shows that
 * both processes worked. Arguments: the upstream ports. Prints one JSON line, then serves until killed.
 */
import http from 'node:http';

const portas = process.argv.slice(2).map(Number);
if (portas.length === 0 || portas.some((p) => !Number.isInteger(p) || p <= 0)) throw new Error('uso: postgres-proxy.ts PORTA [PORTA...]');
const agente = new http.Agent({ keepAlive: true, maxSockets: 64 });
const contagem = portas.map(() => 0);
let proxima = 0;

const servidor = http.createServer((req, res) => {
  if (req.url === '/__bench/contagem') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(contagem));
    return;
  }
  const processo = proxima;
  proxima = (proxima + 1) % portas.length;
  contagem[processo]! += 1;
  const encaminhadoPor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const pedido = http.request(
    { host: '127.0.0.1', port: portas[processo], method: req.method, path: req.url, agent: agente, headers: { ...req.headers, 'x-forwarded-for': encaminhadoPor } },
    (resposta) => {
      res.writeHead(resposta.statusCode!, { ...resposta.headers, 'x-processo': String(processo) });
      resposta.pipe(res);
    },
  );
  pedido.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(pedido);
});
servidor.keepAliveTimeout = 65_000;
servidor.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ pronto: true, porta: (servidor.address() as { port: number }).port }));
});
const encerrar = () => {
  servidor.close(() => process.exit(0));
  servidor.closeAllConnections();
};
process.on('SIGTERM', encerrar);
process.on('SIGINT', encerrar);
