/**
 * Password hashing with scrypt from node:crypto (no native dependency).
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const TAMANHO = 64;

function scrypt(senha: string, sal: Buffer, tamanho: number, opcoes: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(senha.normalize('NFKC'), sal, tamanho, opcoes, (erro, chave) => (erro ? reject(erro) : resolve(chave)));
  });
}

export async function gerarHashSenha(senha: string): Promise<string> {
  const sal = randomBytes(16);
  const chave = await scrypt(senha, sal, TAMANHO, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${sal.toString('base64')}$${chave.toString('base64')}`;
}

export async function conferirSenha(senha: string, hash: string): Promise<boolean> {
  const partes = hash.split('$');
  if (partes.length !== 6 || partes[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(partes[1]), Number(partes[2]), Number(partes[3])];
  const sal = Buffer.from(partes[4]!, 'base64');
  const esperado = Buffer.from(partes[5]!, 'base64');
  const chave = await scrypt(senha, sal, esperado.length, { N: n, r, p, maxmem: 128 * n * r * 2 });
  return timingSafeEqual(chave, esperado);
}

/** A hash of a random password: compared against when the e-mail does not exist, so timing says nothing. */
let hashFicticio: Promise<string> | undefined;
export function hashParaComparacaoFicticia(): Promise<string> {
  hashFicticio ??= gerarHashSenha(randomBytes(12).toString('hex'));
  return hashFicticio;
}
