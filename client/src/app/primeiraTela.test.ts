/**
 * The employee's first screen (app shell + dashboard) loads no zod: the library is an eighth of that
 * screen's JavaScript and the 200 KB target has little room (docs/decisions/desempenho-cliente.md). This follows the
 * source's runtime imports (not `import type`, not the lazy `import()` of other screens) from the
 * modules that draw it, so a constant imported from a schema file fails here, not months later in
 * the benchmark.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importacoes, resolver } from '../test/importacoes';

const SRC = path.resolve(__dirname, '..');
const PRIMEIRA_TELA = ['main.tsx', 'dashboard/PaginaDashboard.tsx', 'dashboard/DashboardFuncionario.tsx'].map((f) => path.join(SRC, f));

/** Specifiers of the static runtime imports and re-exports of a module (type-only and on-demand ones left out). */
const estaticas = (codigo: string): string[] => importacoes(codigo).filter((i) => !i.sobDemanda).map((i) => i.especificador);

/**
 * The login of a phone that never opened the app (the goal: login ready within 3 s on 3G with the CPU
 * 4x slower): the shell and the login screen's chunk, without what only a rare case needs (the
 * export of another person's pending writes, with zod and the file format, loads when there is one).
 */
const LOGIN = ['main.tsx', 'auth/PaginaLogin.tsx'].map((f) => path.join(SRC, f));

/** Every package the first screen's modules import at run time, with one chain that reaches it. */
function pacotesDaPrimeiraTela(entradas: string[] = PRIMEIRA_TELA): Map<string, string[]> {
  const pacotes = new Map<string, string[]>();
  const caminho = new Map<string, string[]>(entradas.map((f) => [f, [path.relative(SRC, f)]]));
  const fila = [...entradas];
  while (fila.length) {
    const arquivo = fila.shift()!;
    if (!/\.tsx?$/.test(arquivo)) continue;
    for (const esp of estaticas(fs.readFileSync(arquivo, 'utf8'))) {
      const cadeia = caminho.get(arquivo)!;
      if (!esp.startsWith('.')) {
        if (!pacotes.has(esp)) pacotes.set(esp, cadeia);
        continue;
      }
      const alvo = resolver(arquivo, esp);
      if (alvo && !caminho.has(alvo)) {
        caminho.set(alvo, [...cadeia, path.relative(SRC, alvo)]);
        fila.push(alvo);
      }
    }
  }
  return pacotes;
}

/** Every source file the app's first file runs (static imports from main.tsx, on-demand chunks left out). */
function arquivosDoPrimeiroArquivo(): Set<string> {
  const vistos = new Set<string>([path.join(SRC, 'main.tsx')]);
  const fila = [...vistos];
  while (fila.length) {
    const arquivo = fila.shift()!;
    if (!/\.tsx?$/.test(arquivo)) continue;
    for (const esp of estaticas(fs.readFileSync(arquivo, 'utf8'))) {
      const alvo = esp.startsWith('.') ? resolver(arquivo, esp) : null;
      if (alvo && !vistos.has(alvo)) {
        vistos.add(alvo);
        fila.push(alvo);
      }
    }
  }
  return vistos;
}

describe('JavaScript da primeira tela do funcionário', () => {
  it('o título do dashboard vem no primeiro arquivo do app, não no pedaço da página (o maior texto na primeira pintura)', () => {
    const arquivos = arquivosDoPrimeiroArquivo();
    expect(arquivos.has(path.join(SRC, 'app/rotas.tsx'))).toBe(true); // the walk reached the routes
    expect(arquivos.has(path.join(SRC, 'dashboard/molduraDoPainel.tsx'))).toBe(true);
    expect(arquivos.has(path.join(SRC, 'dashboard/esqueletoDoPainel.tsx'))).toBe(false);
  });

  it('lê só as importações que rodam', () => {
    const codigo = [
      "import type { A } from './so-tipo';",
      "import { type B, type C } from './so-tipos';",
      "import { d, type E } from './misto';",
      "import F from './padrao';",
      "import './efeito';",
      "export { g } from './reexporta';",
      "export type { H } from './reexporta-tipo';",
      "import {\n  i,\n  type J,\n} from './varias-linhas';",
      "// import { k } from './comentado';",
      "const L = lazy(() => import('./tardio'));",
    ].join('\n');
    expect(estaticas(codigo).sort()).toEqual(['./efeito', './misto', './padrao', './reexporta', './varias-linhas'].sort());
  });

  it('o login de um celular novo não carrega zod (só quando há pendências de outra pessoa a exportar)', () => {
    const pacotes = pacotesDaPrimeiraTela(LOGIN);
    expect(pacotes.has('react-dom/client')).toBe(true);
    const zod = [...pacotes].filter(([p]) => p === 'zod' || p.startsWith('zod/'));
    expect(zod.map(([p, cadeia]) => `${p} <- ${[...cadeia].reverse().join(' <- ')}`)).toEqual([]);
  });

  it('o login de um celular novo não carrega o IndexedDB (Dexie) nem o motor de sincronização: vêm no pedaço deles, depois', () => {
    const pacotes = pacotesDaPrimeiraTela(LOGIN);
    const dexie = [...pacotes].filter(([p]) => p === 'dexie' || p.startsWith('dexie/') || p === 'dexie-react-hooks');
    expect(dexie.map(([p, cadeia]) => `${p} <- ${[...cadeia].reverse().join(' <- ')}`)).toEqual([]);
  });

  it('não carrega zod (nem schemas que o importam)', () => {
    const pacotes = pacotesDaPrimeiraTela();
    expect(pacotes.has('react-dom/client')).toBe(true); // the walk reached the app's real imports
    expect(pacotes.has('dexie')).toBe(true);
    const zod = [...pacotes].filter(([p]) => p === 'zod' || p.startsWith('zod/'));
    expect(zod.map(([p, cadeia]) => `${p} <- ${[...cadeia].reverse().join(' <- ')}`)).toEqual([]);
  });
});
