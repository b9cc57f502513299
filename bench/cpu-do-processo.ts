/**
 * The CPU time a benchmark's server process has used so far, served on a port of its own (loopback),
 * outside the server being measured: GET answers `{ "us": <user + system microseconds> }`. On a shared,
 * loaded machine a window's wall-clock time measures the other processes as much as this one; the
 * CPU the server spent in the window does not.
 */
import http from 'node:http';

export function servirCpu(): Promise<number> {
  const servidor = http.createServer((_req, res) => {
    const { user, system } = process.cpuUsage();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ us: user + system }));
  });
  // Not keeping the process up on its own: it ends with the server it measures.
  servidor.unref();
  return new Promise((resolve) => servidor.listen(0, '127.0.0.1', () => resolve((servidor.address() as { port: number }).port)));
}

/** The CPU microseconds the process behind `porta` has used so far. */
export async function cpuDe(porta: number): Promise<number> {
  const r = await fetch(`http://127.0.0.1:${porta}/`);
  return ((await r.json()) as { us: number }).us;
}
