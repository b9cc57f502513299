/**
 * Precompression of the built client: next to each text file of the build, a
 * brotli (.br, quality 11) and a gzip (.gz, level 9) copy, made once at build time with Node's own
 * zlib, so the server sends compressed bytes without compressing on each request
 * (@fastify/static `preCompressed`, server/src/app.ts) and the single executable embeds them as it
 * embeds everything in build/public (scripts/build-binary.mjs).
 * Left as they are: source maps (never served), images already compressed (PNG), files under 1 KB
 * (the header and the round trip cost more than the bytes saved), and any copy that is not smaller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser downloads: the shell, the service worker, scripts, styles, icons in SVG, the manifest. */
export const COMPRIMIVEIS = /\.(html|js|mjs|css|svg|webmanifest|json|txt)$/i;
export const TAMANHO_MINIMO = 1024;

function arquivos(pasta: string): string[] {
  const lista: string[] = [];
  for (const entrada of fs.readdirSync(pasta, { withFileTypes: true })) {
    const caminho = path.join(pasta, entrada.name);
    if (entrada.isDirectory()) lista.push(...arquivos(caminho));
    else if (entrada.isFile()) lista.push(caminho);
  }
  return lista;
}

/** Writes `<file>.br` and `<file>.gz` for each file worth compressing under `pasta`; returns the paths written. */
export async function comprimirPasta(pasta: string): Promise<string[]> {
  const alvos = arquivos(pasta).filter((a) => COMPRIMIVEIS.test(a) && fs.statSync(a).size >= TAMANHO_MINIMO);
  const escritos: string[] = [];
  await Promise.all(
    alvos.map(async (arquivo) => {
      const original = await fs.promises.readFile(arquivo);
      const [br, gz] = await Promise.all([
        brotli(original, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: original.length,
          },
        }),
        gzip(original, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [extensao, bytes] of [['.br', br], ['.gz', gz]] as const) {
        const destino = arquivo + extensao;
        // A stale copy from an earlier build must never outlive its original.
        fs.rmSync(destino, { force: true });
        if (bytes.length >= original.length) continue;
        await fs.promises.writeFile(destino, bytes);
        escritos.push(destino);
      }
    }),
  );
  return escritos.sort();
}

/**
 * Vite plugin: compresses the output folder once everything is written, including the service
 * worker that vite-plugin-pwa generates in its own closeBundle (hence `order: 'post'`, sequential).
 */
export function comprimirNoBuild(): Plugin {
  let pasta = '';
  return {
    name: 'sg-comprimir-no-build',
    apply: 'build',
    configResolved(config) {
      pasta = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const escritos = await comprimirPasta(pasta);
        this.info?.(`${escritos.length} cópias comprimidas (.br, .gz) em ${pasta}`);
      },
    },
  };
}
