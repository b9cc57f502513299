/**
 * A real PostgreSQL for tests: a throwaway cluster of Debian's binaries (initdb, pg_ctl) in a
 * temporary folder, on a free loopback port with its unix socket in that folder, one database created,
 * stopped and removed after. Without the binaries the PostgreSQL tests say so and are skipped, except
 * under CI=true, where that is a failure (as e2e/ does with Chromium).
 *
 * PostgreSQL refuses to run as root: then the cluster belongs to the `postgres` system user (runuser),
 * and so does the folder.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const executar = promisify(execFile);

/** Bounded waits: initdb, start and stop each get this long before the test fails with the server's log. */
const LIMITE_COMANDO_MS = 60_000;
const LIMITE_PG_CTL_S = 30;
const TENTATIVAS_DE_PORTA = 3;

/** PG_BIN, or the newest /usr/lib/postgresql/<versão>/bin that has initdb and pg_ctl. */
function acharBinarios(): string | null {
  const candidatas = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : (fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql') : [])
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => path.join('/usr/lib/postgresql', v, 'bin'));
  return candidatas.find((p) => fs.existsSync(path.join(p, 'initdb')) && fs.existsSync(path.join(p, 'pg_ctl'))) ?? null;
}

const comoRoot = process.getuid?.() === 0;

/** The system user that owns clusters when this process is root: its uid and gid, or null when absent. */
function donoDoSistema(): { uid: number; gid: number } | null {
  if (!comoRoot) return null;
  try {
    const [uid, gid] = ['-u', '-g'].map((opcao) => Number(execFileSync('id', [opcao, 'postgres'], { stdio: 'pipe' }).toString().trim()));
    return { uid: uid!, gid: gid! };
  } catch {
    return null;
  }
}

export const PASTA_BINARIOS_POSTGRES = acharBinarios();
const DONO = donoDoSistema();

function motivoDaFalta(): string | null {
  if (!PASTA_BINARIOS_POSTGRES) return `PostgreSQL não encontrado (initdb e pg_ctl em /usr/lib/postgresql/<versão>/bin${process.env.PG_BIN ? ` ou PG_BIN=${process.env.PG_BIN}` : ''})`;
  if (comoRoot && !DONO) return 'rodando como root sem o usuário de sistema postgres (o PostgreSQL recusa rodar como root)';
  return null;
}

const falta = motivoDaFalta();
export const temPostgres = falta === null;

if (falta) {
  const aviso = `${falta}: os testes de PostgreSQL foram PULADOS. Instale com: apt-get install -y postgresql`;
  if (process.env.CI === 'true') throw new Error(`CI=true e ${aviso}`);
  console.warn(`\n⚠ ${aviso}\n`);
}

export interface PostgresDeTeste {
  /** postgres://usuario@127.0.0.1:porta/banco, trust authentication (loopback only). */
  url: string;
  /** The cluster's temporary folder (data, socket, servidor.log). */
  pasta: string;
  /** Stops the server and removes its folder; safe to call twice. */
  parar(): Promise<void>;
}

async function portaLivre(): Promise<number> {
  return new Promise((ok, falha) => {
    const s = net.createServer();
    s.once('error', falha);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => ok(port));
    });
  });
}

/** Runs one of the cluster's binaries as its owner. */
function comoDono(binario: string, argumentos: string[], pasta: string) {
  const caminho = path.join(PASTA_BINARIOS_POSTGRES!, binario);
  const [comando, args] = comoRoot ? ['runuser', ['-u', 'postgres', '--', caminho, ...argumentos]] : [caminho, argumentos];
  // cwd: the folder the owner can enter (a root-owned checkout may not be).
  return executar(comando as string, args as string[], { cwd: pasta, timeout: LIMITE_COMANDO_MS, env: { ...process.env, LC_ALL: 'C' } });
}

function finalDoLog(pasta: string): string {
  try {
    return fs.readFileSync(path.join(pasta, 'servidor.log'), 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(sem log)';
  }
}

/**
 * Initialises a cluster, starts it and creates database `banco`. Call `parar()` in afterAll; a failure
 * half-way stops and removes what was made before rethrowing, and a process that exits without
 * `parar()` stops the server on its way out.
 */
export async function iniciarPostgres(banco = 'sg_teste'): Promise<PostgresDeTeste> {
  if (!temPostgres) throw new Error(`${falta}.`);
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-postgres-'));
  if (DONO) fs.chownSync(pasta, DONO.uid, DONO.gid);
  const dados = path.join(pasta, 'dados');
  const usuario = comoRoot ? 'postgres' : os.userInfo().username;

  // A server runs (or is starting) while its postmaster.pid exists.
  const emPe = () => fs.existsSync(path.join(dados, 'postmaster.pid'));
  const pararJa = () => {
    // Synchronous: also used from the process's 'exit' event, where nothing asynchronous runs.
    if (emPe()) {
      try {
        const caminho = path.join(PASTA_BINARIOS_POSTGRES!, 'pg_ctl');
        const args = ['-D', dados, '-m', 'immediate', '-w', '-t', String(LIMITE_PG_CTL_S), 'stop'];
        execFileSync(comoRoot ? 'runuser' : caminho, comoRoot ? ['-u', 'postgres', '--', caminho, ...args] : args, { cwd: pasta, stdio: 'pipe', timeout: LIMITE_COMANDO_MS });
      } catch {
        // Already down.
      }
    }
    fs.rmSync(pasta, { recursive: true, force: true });
  };
  process.once('exit', pararJa);
  const parar = async () => {
    process.off('exit', pararJa);
    if (emPe()) {
      await comoDono('pg_ctl', ['-D', dados, '-m', 'fast', '-w', '-t', String(LIMITE_PG_CTL_S), 'stop'], pasta).catch(() => undefined);
    }
    // After a fast stop this only removes the folder; if it failed, an immediate stop is tried first.
    pararJa();
  };

  try {
    // --no-sync and fsync=off: a throwaway cluster; C locale: the same collation on every machine.
    await comoDono('initdb', ['-D', dados, '-U', usuario, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'], pasta);
    let porta = 0;
    let rodando = false;
    for (let tentativa = 1; !rodando; tentativa++) {
      porta = await portaLivre();
      const opcoes = `-p ${porta} -k ${pasta} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        await comoDono('pg_ctl', ['-D', dados, '-o', opcoes, '-l', path.join(pasta, 'servidor.log'), '-w', '-t', String(LIMITE_PG_CTL_S), 'start'], pasta);
        rodando = true;
      } catch (erro) {
        // Another process may have taken the port between the probe and the start: try another one.
        if (tentativa >= TENTATIVAS_DE_PORTA) throw erro;
      }
    }
    const cliente = new pg.Client({ host: '127.0.0.1', port: porta, user: usuario, database: 'postgres' });
    await cliente.connect();
    try {
      await cliente.query(`create database "${banco}"`);
    } finally {
      await cliente.end();
    }
    return { url: `postgres://${usuario}@127.0.0.1:${porta}/${banco}`, pasta, parar };
  } catch (erro) {
    const log = finalDoLog(pasta);
    await parar();
    throw new Error(`O PostgreSQL de teste não iniciou: ${erro instanceof Error ? erro.message : String(erro)}\n${log}`, { cause: erro });
  }
}
