/**
 * The peer a team would otherwise pick for offline sync: a CouchDB-protocol server (express-pouchdb)
 * that a PouchDB on the phone replicates to. Its databases live in memory (favouring the peer: the
 * app writes to disk).
 */
import express from 'express';
import expressPouchdb from 'express-pouchdb';
import PouchDB from 'pouchdb-core';
import memoria from 'pouchdb-adapter-memory';
import http from 'pouchdb-adapter-http';
import replicacao from 'pouchdb-replication';

const BancoServidor = PouchDB.plugin(memoria).plugin(http).plugin(replicacao).defaults({ adapter: 'memory' });
const app = express();
app.use('/', expressPouchdb(BancoServidor, { mode: 'minimumForPouchDB', inMemoryConfig: true, logPath: '/dev/null' }));
const servidor = app.listen(0, '127.0.0.1', () => {
  const endereco = servidor.address() as { port: number };
  console.log(JSON.stringify({ pronto: true, porta: endereco.port }));
});
process.on('SIGTERM', () => servidor.close(() => process.exit(0)));
