/**
 * Parallel uploads: the server's peak memory (VmHWM of its process) while three phones upload at
 * once. Each run starts a fresh server process per variant, sends three requests in parallel over
 * loopback, waits for the three answers and reads the process's peak RSS. Variants:
 * - base: a bare Fastify + @fastify/multipart route streaming every file to /dev/null (the floor);
 * - antes: the app before uploads were streamed to disk (files read whole with toBuffer()), from a
 *   copy of that code (BENCH_RAIZ_ANTES, skipped when unset);
 * - agora: the app as it is.
 * Scenarios: 'issue' is the load that exhausted the old server's memory (three batches of 10 × 20 MB:
 * now refused with 413 past the request's file budget, the rest of each body read and thrown away); 'aceito' is three
 * batches that fit the budget and are all stored (one 20 MB receipt and three of 2 MB each).
 * Run alone: `npx tsx bench/uploads.ts` (BENCH_RAPIDO=1: one run).
 */
import fs from 'node:fs';
import { hoje, somarDias } from '../shared/dates';
import { iniciarFilho } from './processo';

const MB = 1024 * 1024;
export const ALVO_MB = 300;

interface InfoServidor {
  porta: number;
  token: string;
  rota: number;
  cidade: number;
}

type Variante = 'base' | 'antes' | 'agora';
type Cenario = 'issue' | 'aceito';

const CENARIOS: Record<Cenario, number[]> = {
  issue: Array.from({ length: 10 }, () => 20 * MB),
  aceito: [20 * MB, 2 * MB, 2 * MB, 2 * MB],
};

export interface MedidaUploads {
  variante: Variante;
  cenario: Cenario;
  /** Peak RSS of the server process while the three uploads arrive (VmHWM reset just before), MB (one per run). */
  picosMb: number[];
  /** RSS of the idle server just before the uploads, MB (one per run). */
  repousoMb: number[];
  /** HTTP statuses of the three requests of the last run. */
  status: number[];
  /** Per-operation statuses of the last run's first request, when it answered 200. */
  operacoes: (number | string)[];
}

export interface ResultadoUploads {
  repeticoes: number;
  alvoMb: number;
  medidas: MedidaUploads[];
}

const lerStatus = (pid: number, campo: 'VmHWM' | 'VmRSS') => {
  const linha = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${campo}:`))!;
  return Number(/(\d+)/.exec(linha)![1]) / 1024;
};

/** A multipart body generated as it is sent: never whole in this process either. */
function corpo(info: InfoServidor, tamanhos: number[], fronteira: string): ReadableStream<Uint8Array> {
  const dia = somarDias(hoje('America/Sao_Paulo'), -1);
  const ops = tamanhos.map((_, i) => ({
    id: crypto.randomUUID(),
    tipo: 'despesa.criar',
    seq: i + 1,
    dados: { id: crypto.randomUUID(), rota_id: info.rota, cidade_id: info.cidade, data_despesa: dia, tipo: 'alimentacao', tipo_outro: '', valor: 1, descricao: `Bench ${i}` },
  }));
  const pedaco = Buffer.alloc(64 * 1024, 0x5a);
  const inicioJpeg = Buffer.from(pedaco);
  inicioJpeg.set([0xff, 0xd8, 0xff, 0xe0], 0);
  async function* partes(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(`--${fronteira}\r\nContent-Disposition: form-data; name="operacoes"\r\n\r\n${JSON.stringify({ cliente_id: 'bench', operacoes: ops })}\r\n`);
    for (const [i, tamanho] of tamanhos.entries()) {
      yield Buffer.from(`--${fronteira}\r\nContent-Disposition: form-data; name="arquivo:${ops[i]!.id}"; filename="nota${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      for (let enviado = 0; enviado < tamanho; enviado += pedaco.length) {
        const n = Math.min(pedaco.length, tamanho - enviado);
        yield (enviado === 0 ? inicioJpeg : pedaco).subarray(0, n);
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${fronteira}--\r\n`);
  }
  const it = partes();
  return new ReadableStream({
    async pull(controle) {
      const { value, done } = await it.next();
      if (done) controle.close();
      else controle.enqueue(value);
    },
  });
}

async function enviar(info: InfoServidor, tamanhos: number[], n: number): Promise<{ status: number; operacoes: (number | string)[] }> {
  const fronteira = `----bench-uploads-${n}`;
  const resposta = await fetch(`http://127.0.0.1:${info.porta}/api/sync/lote`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${fronteira}`, authorization: `Bearer ${info.token}` },
    body: corpo(info, tamanhos, fronteira),
    duplex: 'half',
  } as RequestInit);
  const json = (await resposta.json()) as { resultados?: { status: number | string }[] };
  return { status: resposta.status, operacoes: json.resultados?.map((r) => r.status) ?? [] };
}

async function umaRodada(variante: Variante, cenario: Cenario, raizAntes: string | undefined) {
  const args = variante === 'base' ? ['--base'] : variante === 'antes' ? ['--raiz', raizAntes!] : [];
  const filho = await iniciarFilho<InfoServidor>('uploads-servidor.ts', args);
  try {
    const pid = filho.processo.pid!;
    const repouso = lerStatus(pid, 'VmRSS');
    // The peak so far is the start (compiling the TypeScript, opening the database): reset it, so
    // the figure is the peak while the uploads arrive (Linux: '5' in clear_refs resets VmHWM).
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const respostas = await Promise.all([0, 1, 2].map((i) => enviar(filho.info, CENARIOS[cenario], i)));
    return { pico: lerStatus(pid, 'VmHWM'), repouso, status: respostas.map((r) => r.status), operacoes: respostas[0]!.operacoes };
  } finally {
    await filho.parar();
  }
}

export async function medirUploads(repeticoes: number): Promise<ResultadoUploads> {
  const raizAntes = process.env.BENCH_RAIZ_ANTES;
  const variantes: Variante[] = raizAntes ? ['base', 'antes', 'agora'] : ['base', 'agora'];
  const medidas: MedidaUploads[] = [];
  for (const cenario of ['issue', 'aceito'] as Cenario[]) {
    for (const variante of variantes) medidas.push({ variante, cenario, picosMb: [], repousoMb: [], status: [], operacoes: [] });
  }
  // Interleaved: run r of every variant before run r + 1 of any, so a slow moment hits all alike.
  for (let r = 0; r < repeticoes; r++) {
    for (const m of medidas) {
      const rodada = await umaRodada(m.variante, m.cenario, raizAntes);
      m.picosMb.push(Math.round(rodada.pico));
      m.repousoMb.push(Math.round(rodada.repouso));
      m.status = rodada.status;
      m.operacoes = rodada.operacoes;
      console.log(`  ${m.cenario} ${m.variante} #${r + 1}: pico ${Math.round(rodada.pico)} MB (repouso ${Math.round(rodada.repouso)} MB), status ${rodada.status.join('/')}`);
    }
  }
  return { repeticoes, alvoMb: ALVO_MB, medidas };
}

const mediana = (xs: number[]) => {
  const o = [...xs].sort((a, b) => a - b);
  return o.length % 2 ? o[(o.length - 1) / 2]! : (o[o.length / 2 - 1]! + o[o.length / 2]!) / 2;
};

const NOMES: Record<Variante, string> = {
  base: 'base: Fastify + @fastify/multipart para /dev/null',
  antes: 'antes dos uploads em disco (toBuffer)',
  agora: 'agora (disco, orçamento por requisição)',
};

/** The section of docs/performance.md. */
export function secaoUploads(r: ResultadoUploads | undefined, medidoEm?: string): string {
  if (!r) return '';
  const linhas = r.medidas.map((m) => {
    const base = r.medidas.find((b) => b.cenario === m.cenario && b.variante === 'base')!;
    const ops = m.operacoes.length ? ` (operações: ${[...new Set(m.operacoes)].join(', ')})` : '';
    return `| ${m.cenario === 'issue' ? '3 × (10 × 20 MB)' : '3 × (20 MB + 3 × 2 MB)'} | ${NOMES[m.variante]} | ${mediana(m.picosMb)} | ${Math.min(...m.picosMb)}–${Math.max(...m.picosMb)} | ${(mediana(m.picosMb) / mediana(base.picosMb)).toFixed(2)} | ${mediana(m.repousoMb)} | ${m.status.join('/')}${ops} |`;
  });
  return [
    '',
    '## Uploads em paralelo: memória do servidor',
    '',
    `${medidoEm ? `Medido em ${medidoEm}. ` : ''}Pico de RSS (VmHWM, zerado logo antes dos envios: o pico da partida não entra) do processo do servidor enquanto três envios chegam ao mesmo tempo em POST /api/sync/lote, um processo novo por rodada, ${r.repeticoes} rodadas intercaladas por variante; mediana e faixa (mín–máx). Alvo: abaixo de ${r.alvoMb} MB. Base: a rota mais simples que recebe multipart (Fastify + @fastify/multipart, cada arquivo para /dev/null), medida na mesma execução. \`npx tsx bench/uploads.ts\` (ou \`BENCH_SO=uploads npm run bench\`); \`BENCH_RAIZ_ANTES=<cópia do código de antes dos uploads em disco>\` mede também o código antigo.`,
    '',
    '| Envios | Servidor | Pico mediano (MB) | Faixa (MB) | × base | Em repouso (MB) | Respostas (última rodada) |',
    '| --- | --- | ---: | --- | ---: | ---: | --- |',
    ...linhas,
    '',
    'No cenário de três lotes de 10 × 20 MB o código atual recusa cada pedido com 413 ao passar de 28 MB de arquivos (orçamento por requisição: 10 comprovantes, 28 MB), lê o resto do corpo e o descarta, para que o 413 chegue ao aparelho em vez de uma conexão cortada; o aparelho nunca monta um lote assim (fecha o lote em 10 comprovantes ou 8 MB e manda sozinho um comprovante maior). No cenário aceito os doze comprovantes são gravados.',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rapido = process.env.BENCH_RAPIDO === '1';
  const r = await medirUploads(rapido ? 1 : 5);
  fs.mkdirSync('bench/.results', { recursive: true });
  fs.writeFileSync('bench/.results/uploads.json', `${JSON.stringify(r, null, 2)}\n`);
  console.log(secaoUploads(r, new Date().toISOString()));
}
