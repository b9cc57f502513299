import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 } from 'uuid';
import { abrirBanco } from './db';
import { recursosDoProjeto } from './recursos';
const modo = process.argv[2] ?? 'um';
const N = Number(process.argv[3] ?? 50);
const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-log-'));
const db = abrirBanco({ arquivo: path.join(pasta, 'a.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes }).$client;
db.pragma('wal_autocheckpoint = 0');
const log = db.prepare('insert into operacoes_aplicadas (id, usuario_id, cliente_id, seq, tipo, status, recebido_em) values (?,?,?,?,?,?,?)');
const logN = db.prepare('insert into operacoes_aplicadas (id, usuario_id, cliente_id, seq, tipo, status, recebido_em) values ' + Array(N).fill('(?,?,?,?,?,?,?)').join(','));
const medidas: number[] = [];
for (let b = 0; b < 800; b++) {
  const agora = new Date().toISOString();
  const ops = Array.from({ length: 200 }, () => v7());
  const t = performance.now();
  db.transaction(() => {
    if (modo === 'um') { let seq = 0; for (const op of ops) log.run(op, 2, 'cliente-do-celular-0123456789', seq++, 'venda.salvar', 201, agora); }
    else {
      const args: unknown[] = [];
      let seq = 0;
      for (let i = 0; i < ops.length; i += N) {
        args.length = 0;
        for (const op of ops.slice(i, i + N)) args.push(op, 2, 'cliente-do-celular-0123456789', seq++, 'venda.salvar', 201, agora);
        logN.run(...args);
      }
    }
  })();
  if (b >= 100) medidas.push(performance.now() - t);
  if (b % 20 === 19) db.pragma('wal_checkpoint(TRUNCATE)');
}
medidas.sort((a, b) => a - b);
console.log(modo, N, 'ms por 200 linhas: mediana', medidas[350]!.toFixed(3));
fs.rmSync(pasta, { recursive: true });
