/**
 * The field day (bench/campo.ts) on two builds of the client alternately, in one window, so the load of
 * a shared machine weighs the same on both: `npx tsx bench/campo-par.ts <antes> <depois>` (two client
 * folders, e.g. built from the commit before and after a change to the sync engine). RODADAS (2) rounds,
 * order Hoje, Agora, Agora, Hoje...; BENCH_CAMPO_CENARIOS (3g-1x,3g-4x) the scenarios, once per round.
 * Writes `campo.par` in bench/resultados.json; `BENCH_SO=nada npx tsx bench/index.ts` then regenerates
 * docs/performance.md.
 */
import fs from 'node:fs';
import { medirCampo, type ParCampo } from './campo';

const [antes, depois] = process.argv.slice(2);
if (!antes || !depois) throw new Error('uso: npx tsx bench/campo-par.ts <pasta do cliente antes> <pasta do cliente depois>');
process.env.BENCH_CAMPO_CENARIOS ??= '3g-1x,3g-4x';
const rodadas: ParCampo['rodadas'] = [];
const total = Number(process.env.RODADAS ?? 2);
for (let i = 0; i < total; i++) {
  const ordem = i % 2 === 0 ? (['antes', 'depois'] as const) : (['depois', 'antes'] as const);
  for (const cliente of ordem) {
    console.log(`Rodada ${i + 1} de ${total}: ${cliente}`);
    const r = await medirCampo({ repeticoes: 1, pastaCliente: cliente === 'antes' ? antes : depois });
    rodadas.push({ cliente, commit: r.commit, cenarios: r.cenarios });
  }
}
const ARQUIVO = 'bench/resultados.json';
const resultados = JSON.parse(fs.readFileSync(ARQUIVO, 'utf8')) as { campo?: { par?: ParCampo } };
if (!resultados.campo) throw new Error('bench/resultados.json não tem a parte campo: rode `BENCH_SO=campo npx tsx bench/index.ts` antes.');
resultados.campo.par = { medidoEm: new Date().toISOString(), rodadas };
fs.writeFileSync(ARQUIVO, `${JSON.stringify(resultados, null, 2)}\n`);
console.log(`campo.par gravado em ${ARQUIVO}`);
