/**
 * The bucket of bench/carga.ts's continuous-copy part in a process of its own (s3rver, server/test/s3.ts):
 * on this machine, as asked, but not on the load generator's event loop. Prints one JSON line with the
 * COPIA_S3_* variables, then serves until killed.
 */
import { envDaCopiaContinua, iniciarServidorS3 } from '../server/test/s3';

const s3 = await iniciarServidorS3('copia-bench');
console.log(JSON.stringify({ pronto: true, env: envDaCopiaContinua(s3) }));
process.on('SIGTERM', () => void s3.fechar().then(() => process.exit(0)));
