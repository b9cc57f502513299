/**
 * The chart library (uPlot) is for the admin's screens only. Following the source's
 * runtime imports, static and on demand (`import()`), from the app's entry, everything an employee
 * can ever load (never entering the admin's parts, which the router and the role-split pages load only
 * for an admin) reaches neither uplot nor the charts' modules; and the admin's screens reach uplot only
 * through an on-demand import (its own chunk), never in their first bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importacoes, resolver } from '../../test/importacoes';

const SRC = path.resolve(__dirname, '../..');
const daSrc = (f: string) => path.join(SRC, f);

/** The admin's parts: loaded only for an admin (the router's role guard, PaginaDashboard/PaginaVendas/PaginaRotas by role). */
const SO_ADMIN = new Set(
  [
    'dashboard/DashboardAdmin.tsx',
    'vendas/VendasAdmin.tsx',
    'rotas/PaginaRotasAdmin.tsx',
    'usuarios/PaginaUsuarios.tsx',
    'relatorios/PaginaRelatorios.tsx',
    'saldo/PaginaSaldo.tsx',
    'auditoria/PaginaAuditoria.tsx',
  ].map(daSrc),
);

/** Packages and source modules reached from `entradas`, each with one chain that reaches it. */
function alcance(entradas: string[], { sobDemanda, evitar = new Set<string>() }: { sobDemanda: boolean; evitar?: Set<string> }) {
  const pacotes = new Map<string, string[]>();
  const caminho = new Map<string, string[]>(entradas.map((f) => [f, [path.relative(SRC, f)]]));
  const fila = [...entradas];
  while (fila.length) {
    const arquivo = fila.shift()!;
    if (!/\.tsx?$/.test(arquivo)) continue;
    for (const imp of importacoes(fs.readFileSync(arquivo, 'utf8'))) {
      if (imp.sobDemanda && !sobDemanda) continue;
      const cadeia = caminho.get(arquivo)!;
      if (!imp.especificador.startsWith('.')) {
        if (!pacotes.has(imp.especificador)) pacotes.set(imp.especificador, cadeia);
        continue;
      }
      const alvo = resolver(arquivo, imp.especificador);
      if (alvo && !caminho.has(alvo) && !evitar.has(alvo)) {
        caminho.set(alvo, [...cadeia, `${imp.sobDemanda ? 'import() ' : ''}${path.relative(SRC, alvo)}`]);
        fila.push(alvo);
      }
    }
  }
  return { pacotes, modulos: caminho };
}

const ehUplot = (p: string) => p === 'uplot' || p.startsWith('uplot/');
const explicar = (achados: [string, string[]][]) => achados.map(([p, cadeia]) => `${p} <- ${[...cadeia].reverse().join(' <- ')}`);

describe('uPlot só nas telas do admin', () => {
  it('o login e tudo o que um funcionário pode carregar não chegam ao uplot nem aos gráficos', () => {
    const { pacotes, modulos } = alcance([daSrc('main.tsx')], { sobDemanda: true, evitar: SO_ADMIN });
    // The walk reached the app for real: the employee's screens, on demand, and their packages.
    expect(modulos.has(daSrc('dashboard/DashboardFuncionario.tsx'))).toBe(true);
    expect(modulos.has(daSrc('auth/PaginaLogin.tsx'))).toBe(true);
    expect(modulos.has(daSrc('despesas/PaginaDespesas.tsx'))).toBe(true);
    expect(pacotes.has('dexie')).toBe(true);
    expect(explicar([...pacotes].filter(([p]) => ehUplot(p)))).toEqual([]);
    const graficos = [...modulos].filter(([m]) => m.includes(`${path.sep}graficos${path.sep}`) || m.endsWith('PainelTendencias.tsx'));
    expect(explicar(graficos.map(([m, c]) => [path.relative(SRC, m), c]))).toEqual([]);
  });

  it('no dashboard do admin e em Relatórios o uplot vem só sob demanda (um pedaço à parte)', () => {
    const telas = [daSrc('dashboard/DashboardAdmin.tsx'), daSrc('relatorios/PaginaRelatorios.tsx')];
    const estatico = alcance(telas, { sobDemanda: false });
    expect(explicar([...estatico.pacotes].filter(([p]) => ehUplot(p)))).toEqual([]);
    const tudo = alcance(telas, { sobDemanda: true });
    expect([...tudo.pacotes.keys()].filter(ehUplot).sort()).toEqual(['uplot', 'uplot/dist/uPlot.min.css']);
    expect(tudo.pacotes.get('uplot')!.at(-1)).toBe(`import() ${path.join('components', 'graficos', 'GraficoUPlot.tsx')}`);
  });
});
