/**
 * Password hashing with scrypt from node:crypto (no native dependency).
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes:
 * a hash made with other parameters is still checked with its own, and replaced by one at today's
 * cost at the next successful login (precisaRefazerHash).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

interface Custo {
  N: number;
  r: number;
  p: number;
}

/**
 * One of OWASP's equivalent scrypt settings (Password Storage Cheat Sheet): N=2^14, r=8, p=5 costs the
 * same work as N=2^17, r=8, p=1 but needs 16 MiB per hash instead of 128 MiB. On the 512 MB VPS of
 * docs/deploy.md, four logins at once (libuv's four threads) at 2^17 would take 512 MiB by themselves.
 */
export const CUSTO_OWASP: Readonly<Custo> = Object.freeze({ N: 2 ** 14, r: 8, p: 5 });
const TAMANHO = 64;
/** Hashes stored with a larger N than this are refused instead of computed (a tampered row must not eat the memory). */
const N_MAXIMO = 2 ** 20;

let custoAtual: Readonly<Custo> = CUSTO_OWASP;

/**
 * TESTS ONLY: hash new passwords with a small N so the server suite (hundreds of logins and
 * users) does not spend minutes in scrypt. Called by server/test/helper.ts; nothing in the
 * server calls it, so production always uses CUSTO_OWASP.
 */
export function usarCustoDeSenhaBaixoSomenteEmTestes(N = 2 ** 10): void {
  custoAtual = Object.freeze({ N, r: 8, p: 1 });
}

/** scrypt needs about 128·N·r bytes; node's default ceiling is 32 MiB, below what an older hash (2^17) needs. */
const memoriaPara = ({ N, r }: Custo) => 128 * N * r + 1024 * 1024;

function scrypt(senha: string, sal: Buffer, tamanho: number, custo: Custo): Promise<Buffer> {
  const opcoes: ScryptOptions = { N: custo.N, r: custo.r, p: custo.p, maxmem: memoriaPara(custo) };
  return new Promise((resolve, reject) => {
    scryptCb(senha.normalize('NFKC'), sal, tamanho, opcoes, (erro, chave) => (erro ? reject(erro) : resolve(chave)));
  });
}

export async function gerarHashSenha(senha: string): Promise<string> {
  const custo = custoAtual;
  const sal = randomBytes(16);
  const chave = await scrypt(senha, sal, TAMANHO, custo);
  return `scrypt$${custo.N}$${custo.r}$${custo.p}$${sal.toString('base64')}$${chave.toString('base64')}`;
}

function lerHash(hash: string): (Custo & { sal: Buffer; esperado: Buffer }) | null {
  const partes = hash.split('$');
  if (partes.length !== 6 || partes[0] !== 'scrypt') return null;
  const [N, r, p] = [Number(partes[1]), Number(partes[2]), Number(partes[3])];
  const potenciaDeDois = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!potenciaDeDois || N > N_MAXIMO || !Number.isSafeInteger(r) || r < 1 || r > 32 || !Number.isSafeInteger(p) || p < 1 || p > 16) return null;
  const sal = Buffer.from(partes[4]!, 'base64');
  const esperado = Buffer.from(partes[5]!, 'base64');
  if (sal.length === 0 || esperado.length === 0) return null;
  return { N, r, p, sal, esperado };
}

export async function conferirSenha(senha: string, hash: string): Promise<boolean> {
  const lido = lerHash(hash);
  if (!lido) return false;
  const chave = await scrypt(senha, lido.sal, lido.esperado.length, lido);
  return timingSafeEqual(chave, lido.esperado);
}

/** True when the hash was made with other parameters than today's: re-hash it once the password is known right. */
export function precisaRefazerHash(hash: string): boolean {
  const lido = lerHash(hash);
  return !lido || lido.N !== custoAtual.N || lido.r !== custoAtual.r || lido.p !== custoAtual.p;
}

/** A hash of a random password: compared against when the e-mail does not exist, so timing says nothing. */
let hashFicticio: { custo: Custo; hash: Promise<string> } | undefined;
export function hashParaComparacaoFicticia(): Promise<string> {
  if (hashFicticio?.custo !== custoAtual) hashFicticio = { custo: custoAtual, hash: gerarHashSenha(randomBytes(12).toString('hex')) };
  return hashFicticio.hash;
}
