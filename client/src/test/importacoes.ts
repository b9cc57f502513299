/**
 * The source's runtime import graph, read as text (no bundler): the checks that keep a library out of a
 * screen's first bytes (app/primeiraTela.test.ts: zod and Dexie off the login; components/graficos/
 * pedacos.test.ts: uPlot on the admin's screens only) walk it from the modules that draw the screen.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Importacao {
  especificador: string;
  /** `import('...')`: loaded when the code runs it, in its own chunk. */
  sobDemanda: boolean;
}

/** Runtime imports and re-exports of a module: static ones (type-only left out) and `import('...')`. */
export function importacoes(codigo: string): Importacao[] {
  const semComentarios = codigo.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const lista: Importacao[] = [];
  for (const m of semComentarios.matchAll(/^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    const [, soTipo, nomes = '', origem = ''] = m;
    if (soTipo) continue;
    const chaves = /\{([\s\S]*)\}/.exec(nomes);
    const foraDasChaves = nomes.replace(/\{[\s\S]*\}/, '').replace(/,/g, '').trim();
    const especificadores = chaves?.[1]?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
    if (foraDasChaves || especificadores.length === 0 || especificadores.some((s) => !s.startsWith('type '))) lista.push({ especificador: origem, sobDemanda: false });
  }
  for (const m of semComentarios.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) lista.push({ especificador: m[1]!, sobDemanda: false });
  for (const m of semComentarios.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) lista.push({ especificador: m[1]!, sobDemanda: true });
  return lista;
}

/** The source file a relative specifier names (.ts, .tsx, or a folder's index). */
export function resolver(de: string, especificador: string): string | null {
  const base = path.resolve(path.dirname(de), especificador);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}
