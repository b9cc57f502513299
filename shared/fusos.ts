/**
 * A time zone's offsets from UTC over a window of time, worked out once with Intl (on the server, and
 * at build time for the default zone) and then read with arithmetic.
 *
 * Why: a page's first Intl object starts ICU, 20-100 ms of main thread on this machine and
 * 4x that on a cheap phone, on every app start; the dashboard's first screens only needed Intl for
 * "today" and "14:32" in APP_TZ. With the zone's table the phone writes those without ICU. The table
 * comes from the server's ICU (GET /api/config), so a change of the zone's rules reaches the phone
 * with the server's time-zone data, not the phone's. Outside the table's window, or for a zone with
 * no table, shared/dates.ts asks Intl as before.
 */

/** The offsets of `fuso` for instants in [de, ate) (ms since the epoch). */
export interface TabelaDoFuso {
  fuso: string;
  de: number;
  ate: number;
  /**
   * [first instant (ms), offset in minutes east of UTC] of each stretch, in order; the first starts at
   * `de`. São Paulo since 2019 is one stretch: [[de, -180]].
   */
  trechos: [number, number][];
}

const MINUTO = 60_000;
const DIA = 24 * 60 * MINUTO;

function formatoDasPartes(fuso: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: fuso,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
}

/** The offset (minutes) Intl gives `fuso` at `ms`: the local wall clock read as UTC, minus the instant. */
function deslocamentoPeloIntl(formato: Intl.DateTimeFormat, ms: number): number {
  const p: Record<string, number> = {};
  for (const parte of formato.formatToParts(new Date(ms))) if (parte.type !== 'literal') p[parte.type] = Number(parte.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((local - Math.floor(ms / 1000) * 1000) / MINUTO);
}

/**
 * The table of `fuso` for [de, ate), read from Intl one day apart; where two days differ, the change is
 * found to the minute by bisection (every zone changes on a minute boundary, at most a few times a
 * year). Throws RangeError for a zone Intl does not know.
 */
export function montarTabelaDoFuso(fuso: string, de: number, ate: number): TabelaDoFuso {
  const formato = formatoDasPartes(fuso);
  const inicio = Math.floor(de / MINUTO) * MINUTO;
  const trechos: [number, number][] = [[inicio, deslocamentoPeloIntl(formato, inicio)]];
  let anterior = inicio;
  while (anterior < ate) {
    const proximo = Math.min(anterior + DIA, Math.ceil(ate / MINUTO) * MINUTO);
    const atual = trechos[trechos.length - 1]![1];
    if (deslocamentoPeloIntl(formato, proximo) !== atual) {
      // The first minute in (anterior, proximo] with another offset.
      let baixo = anterior / MINUTO;
      let alto = proximo / MINUTO;
      while (alto - baixo > 1) {
        const meio = Math.floor((baixo + alto) / 2);
        if (deslocamentoPeloIntl(formato, meio * MINUTO) === atual) baixo = meio;
        else alto = meio;
      }
      trechos.push([alto * MINUTO, deslocamentoPeloIntl(formato, alto * MINUTO)]);
      anterior = alto * MINUTO;
      continue;
    }
    anterior = proximo;
  }
  return { fuso, de: inicio, ate, trechos };
}

/** The offset (minutes) at `ms`, or null outside the table's window. */
export function deslocamentoNaTabela(tabela: TabelaDoFuso, ms: number): number | null {
  if (!(ms >= tabela.de && ms < tabela.ate)) return null;
  const { trechos } = tabela;
  let i = trechos.length - 1;
  while (i > 0 && trechos[i]![0] > ms) i -= 1;
  return trechos[i]![1];
}

/** A table as it came from the network or from storage, checked; null if it is not one. */
export function lerTabelaDoFuso(valor: unknown): TabelaDoFuso | null {
  if (typeof valor !== 'object' || valor === null) return null;
  const t = valor as Partial<TabelaDoFuso>;
  if (typeof t.fuso !== 'string' || typeof t.de !== 'number' || typeof t.ate !== 'number' || !Array.isArray(t.trechos) || t.trechos.length === 0) return null;
  let antes = -Infinity;
  for (const trecho of t.trechos) {
    if (!Array.isArray(trecho) || trecho.length !== 2) return null;
    const [inicio, deslocamento] = trecho as unknown[];
    if (typeof inicio !== 'number' || !Number.isInteger(deslocamento) || Math.abs(deslocamento as number) > 18 * 60 || !(inicio > antes)) return null;
    antes = inicio;
  }
  return t.trechos[0]![0] === t.de ? (t as TabelaDoFuso) : null;
}

/** How far around today a table reaches: the dates a phone shows are from this year's routes. */
export const DIAS_DA_TABELA = 400;

/** The table of `fuso` from DIAS_DA_TABELA days before to as many after the UTC day of `agora`. */
export function tabelaAoRedor(fuso: string, agora: number = Date.now(), dias = DIAS_DA_TABELA): TabelaDoFuso {
  const dia = Math.floor(agora / DIA) * DIA;
  return montarTabelaDoFuso(fuso, dia - dias * DIA, dia + dias * DIA);
}
