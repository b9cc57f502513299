/**
 * First and repeat visits (issue 19, items 3 and 5), against the real server serving the real build
 * on a temporary database (an employee with an active route of 40 cities), in Debian's Chromium:
 * - Lighthouse mobile (npm's lighthouse, its default mobile settings: simulated slow 4G, 150 ms RTT,
 *   1.6 Mbit/s down, CPU 4x, Moto G Power screen) for /login and the employee's dashboard (signed in:
 *   the session is put in localStorage before the run, from a page that registers no service worker);
 *   score, LCP, TBT and CLS, median of RUNS runs, each in a new Chromium.
 * - First visit: time from navigation to the login form ready ('Entrar' on screen), nothing cached,
 *   on emulated 3G (Chromium's DevTools emulation: 300 ms per request, 1.6 Mbit/s down, 750 kbit/s up)
 *   with the CPU 4x slower. Baseline in the same run: the same build served without its .br/.gz
 *   copies (what was sent before issue 19).
 * - Repeat visit: the installed app (service worker and IndexedDB warm, signed in) opening the
 *   employee's Vendas until the first city card shows, same 3G and CPU 4x; online and offline.
 * Every figure is also a ratio to its target (login <= 3 s, repeat <= 1.5 s, score >= 90, CLS < 0.1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import { abrirNavegador, CAMINHO_CHROMIUM, temChromium } from '../e2e/suporte/navegador';
import { iniciarServidor, PASTA_CLIENTE, type ServidorDeTeste } from '../e2e/suporte/servidor';

export interface MedidaLighthouse {
  pagina: 'login' | 'dashboard';
  pontuacoes: number[];
  lcpMs: number[];
  tbtMs: number[];
  cls: number[];
  fcpMs: number[];
  mediana: { pontuacao: number; lcpMs: number; tbtMs: number; cls: number; fcpMs: number };
  /** Lighthouse's BenchmarkIndex of each run (this machine's speed then; a quiet one scores ~1000+). */
  indicesMaquina: number[];
}

export interface ResultadoLighthouse {
  versaoLighthouse: string;
  chromium: string;
  rodadas: number;
  lighthouse: MedidaLighthouse[];
  rede: { rttMs: number; descidaKbps: number; subidaKbps: number; cpu: number };
  primeiraVisita: {
    loginMs: number[];
    mediana: number;
    semCompressaoMs: number[];
    medianaSemCompressao: number;
    /** Bytes the page received until the login was ready (transfer size, compressed or not). */
    bytes: number;
    bytesSemCompressao: number;
    meta: number;
  };
  repetida: { onlineMs: number[]; offlineMs: number[]; medianaOnline: number; medianaOffline: number; meta: number };
}

const RTT_MS = 300;
const DESCIDA_KBPS = 1600;
const SUBIDA_KBPS = 750;
const CPU = 4;
const META_LOGIN_MS = 3000;
const META_REPETIDA_MS = 1500;
const CIDADES = 40;

const mediana = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const faixa = (v: number[]) => `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`;

export async function prepararFuncionario(servidor: ServidorDeTeste) {
  const sqlite = servidor.db.$client;
  const inserir = sqlite.prepare('insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
  const ids = Array.from({ length: CIDADES }, (_, i) => 9_300_000 + i);
  sqlite.transaction(() => ids.forEach((id, i) => inserir.run(id, `Município ${String(i + 1).padStart(2, '0')}`, normalizarBusca(`Municipio ${i + 1}`), 'GO')))();
  const f = await servidor.criarFuncionario({ nome: 'Lia Lighthouse', email: 'lia@escola.com.br', senha: 'lia12345' });
  const dia = hoje('America/Sao_Paulo');
  const r = await servidor.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await servidor.tokenAdmin(),
    payload: { nome: 'Rota do Farol', funcionario_id: f.id, tem_secretario: false, valor_aluguel: 1500, data_inicio: somarDias(dia, -3), data_fim: somarDias(dia, 20), observacoes: '', cidades: ids },
  });
  if (r.statusCode !== 201) throw new Error(`rota: ${r.statusCode} ${r.body}`);
  const sessao = (await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: f.email, senha: f.senha } })).json() as { token: string; usuario: unknown };
  return { ...f, sessao };
}

/** A run Lighthouse itself reports as failed (a trace without navigation start on a loaded machine): tried again. */
class ErroDeRodada extends Error {}
const TENTATIVAS_POR_RODADA = 3;

export async function rodarComNovaTentativa(url: string, sessao: { token: string; usuario: unknown } | null) {
  for (let tentativa = 1; ; tentativa++) {
    try {
      return await rodarLighthouse(url, sessao);
    } catch (erro) {
      if (!(erro instanceof ErroDeRodada) || tentativa >= TENTATIVAS_POR_RODADA) throw erro;
      console.log(`  (${(erro as Error).message}: rodada repetida)`);
    }
  }
}

/** One Lighthouse run in its own Chromium (chrome-launcher, Debian's binary, headless, no sandbox). */
async function rodarLighthouse(url: string, sessao: { token: string; usuario: unknown } | null) {
  const chrome = await chromeLauncher.launch({
    // CHROME_PATH as chrome-launcher reads it; Debian's Chromium otherwise.
    chromePath: process.env.CHROME_PATH ?? CAMINHO_CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--lang=pt-BR'],
    logLevel: 'silent',
  });
  try {
    if (sessao) {
      // Signed in as on an employee's phone: the session in localStorage, set from a same-origin
      // file that registers no service worker (so the run still loads everything from the network).
      const navegador = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const pagina = await navegador.newPage();
      await pagina.goto(new URL('/favicon.svg', url).href);
      await pagina.evaluate(
        (token, usuario) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', usuario);
        },
        sessao.token,
        JSON.stringify(sessao.usuario),
      );
      await pagina.close();
      await navegador.disconnect();
    }
    const resultado = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // Keeps the session just written; nothing else is stored for this origin in this new Chromium.
      disableStorageReset: sessao !== null,
    });
    if (!resultado) throw new Error('Lighthouse não devolveu resultado');
    const lhr = resultado.lhr;
    if (lhr.runtimeError) throw new ErroDeRodada(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // BENCH_LIGHTHOUSE_JSON=<folder>: each run's whole report kept there (long tasks, bootup time, requests).
    if (process.env.BENCH_LIGHTHOUSE_JSON) {
      fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_JSON, { recursive: true });
      const nome = `${new URL(url).pathname.replace(/\W+/g, '') || 'raiz'}-${Date.now()}.json`;
      fs.writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_JSON, nome), JSON.stringify(lhr));
    }
    const numero = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      // Lighthouse's own measure of this machine's speed at the time (its CPU 4x assumes a fast desktop, ~1000+).
      indiceMaquina: lhr.environment.benchmarkIndex,
      pontuacao: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: numero('largest-contentful-paint'),
      tbtMs: numero('total-blocking-time'),
      cls: numero('cumulative-layout-shift'),
      fcpMs: numero('first-contentful-paint'),
      versao: lhr.lighthouseVersion,
      agente: lhr.environment.hostUserAgent,
      telaFinal: (lhr.audits['final-screenshot']?.details as { data?: string } | undefined)?.data ?? null,
    };
  } finally {
    chrome.kill();
  }
}

async function emular(contexto: BrowserContext, pagina: Page, offline = false) {
  const cdp = await contexto.newCDPSession(pagina);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: RTT_MS,
    downloadThroughput: (DESCIDA_KBPS * 1000) / 8,
    uploadThroughput: (SUBIDA_KBPS * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  return cdp;
}

/** ms from the navigation's start (the page's own clock) until `seletor` matches. */
async function ate(pagina: Page, url: string, pronto: string): Promise<number> {
  await pagina.goto(url, { waitUntil: 'commit' });
  const h = await pagina.waitForFunction(
    (js) => (new Function(`return (${js})`)() ? performance.now() : false),
    pronto,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await h.jsonValue()) as number;
}

// Page-side conditions (run with the app's CSP off: they are evaluated by the test, not the app).
const LOGIN_PRONTO = `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Entrar')`;
const VENDAS_PRONTA = `document.querySelector('.grade-cidades li') !== null`;

async function primeiraVisita(navegador: Browser, url: string, repeticoes: number) {
  const tempos: number[] = [];
  let bytes = 0;
  for (let i = 0; i < repeticoes; i++) {
    const contexto = await navegador.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
    const pagina = await contexto.newPage();
    const cdp = await emular(contexto, pagina);
    let recebidos = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
      recebidos += e.encodedDataLength;
    });
    tempos.push(await ate(pagina, `${url}/login`, LOGIN_PRONTO));
    bytes = recebidos;
    await contexto.close();
  }
  return { tempos, bytes };
}

async function visitaRepetida(navegador: Browser, url: string, f: { email: string; senha: string }, repeticoes: number) {
  const contexto = await navegador.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
  try {
    // Installed: signed in once with the form, service worker in control, Vendas opened once online.
    const primeira = await contexto.newPage();
    await primeira.goto(`${url}/login`);
    await primeira.getByLabel('Email').fill(f.email);
    await primeira.getByLabel('Senha').fill(f.senha);
    await primeira.getByRole('button', { name: 'Entrar' }).click();
    await primeira.getByText('Rota Ativa').first().waitFor({ timeout: 60_000 });
    await primeira.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    await primeira.goto(`${url}/vendas`);
    await primeira.locator('.grade-cidades li').first().waitFor({ timeout: 60_000 });
    await primeira.close();
    const online: number[] = [];
    const offline: number[] = [];
    for (let i = 0; i < repeticoes; i++) {
      for (const semRede of [false, true]) {
        const p = await contexto.newPage();
        await emular(contexto, p, semRede);
        await contexto.setOffline(semRede);
        (semRede ? offline : online).push(await ate(p, `${url}/vendas`, VENDAS_PRONTA));
        await p.close();
        await contexto.setOffline(false);
      }
    }
    return { online, offline };
  } finally {
    await contexto.close();
  }
}

export async function medirLighthouse(rodadas = 3, repeticoes = 5): Promise<ResultadoLighthouse> {
  if (!temChromium) throw new Error('Chromium não encontrado em /usr/bin/chromium: instale com `apt-get install -y chromium`.');
  if (!fs.existsSync(path.join(PASTA_CLIENTE, 'index.html'))) throw new Error('Cliente não compilado: rode `npm run build:client`.');
  const comprimidos = fs.readdirSync(path.join(PASTA_CLIENTE, 'assets')).filter((n) => n.endsWith('.br'));
  if (comprimidos.length === 0) throw new Error(`${PASTA_CLIENTE} sem cópias .br: compile o cliente de novo (npm run build:client).`);
  // The baseline: the same build without its compressed copies.
  const semCompressao = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-sem-compressao-'));
  fs.cpSync(PASTA_CLIENTE, semCompressao, { recursive: true, filter: (origem) => !/\.(br|gz)$/.test(origem) });
  const servidor = await iniciarServidor({ LOGIN_RATE_LIMIT: '10000' });
  const servidorSemCompressao = await iniciarServidor({ LOGIN_RATE_LIMIT: '10000' }, semCompressao);
  let navegador: Browser | null = null;
  try {
    const f = await prepararFuncionario(servidor);
    const medidas: MedidaLighthouse[] = [];
    let versao = '?';
    let agente = '?';
    for (const [nome, caminho, sessao] of [
      ['login', '/login', null],
      ['dashboard', '/dashboard', f.sessao],
    ] as const) {
      const runs = [];
      for (let i = 0; i < rodadas; i++) {
        const r = await rodarComNovaTentativa(`${servidor.url}${caminho}`, sessao);
        versao = r.versao;
        agente = r.agente;
        if (r.telaFinal && i === 0) {
          fs.mkdirSync('test-results/screenshots', { recursive: true });
          fs.writeFileSync(`test-results/screenshots/lighthouse-${nome}.jpg`, Buffer.from(r.telaFinal.replace(/^data:image\/\w+;base64,/, ''), 'base64'));
        }
        console.log(`  Lighthouse ${caminho} #${i + 1}: ${r.pontuacao} (LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, CLS ${r.cls.toFixed(3)}; BenchmarkIndex ${Math.round(r.indiceMaquina)})`);
        runs.push(r);
      }
      const m = {
        pontuacao: mediana(runs.map((r) => r.pontuacao)),
        lcpMs: mediana(runs.map((r) => r.lcpMs)),
        tbtMs: mediana(runs.map((r) => r.tbtMs)),
        cls: mediana(runs.map((r) => r.cls)),
        fcpMs: mediana(runs.map((r) => r.fcpMs)),
      };
      medidas.push({
        pagina: nome,
        pontuacoes: runs.map((r) => r.pontuacao),
        lcpMs: runs.map((r) => r.lcpMs),
        tbtMs: runs.map((r) => r.tbtMs),
        cls: runs.map((r) => r.cls),
        fcpMs: runs.map((r) => r.fcpMs),
        mediana: m,
        indicesMaquina: runs.map((r) => Math.round(r.indiceMaquina)),
      });
    }

    navegador = await abrirNavegador();
    const comp = await primeiraVisita(navegador, servidor.url, repeticoes);
    const sem = await primeiraVisita(navegador, servidorSemCompressao.url, repeticoes);
    console.log(`  Primeira visita até o login (3G, CPU ${CPU}x): ${Math.round(mediana(comp.tempos))} ms (${faixa(comp.tempos)}), ${(comp.bytes / 1024).toFixed(0)} KB; sem compressão ${Math.round(mediana(sem.tempos))} ms (${faixa(sem.tempos)}), ${(sem.bytes / 1024).toFixed(0)} KB`);
    const rep = await visitaRepetida(navegador, servidor.url, f, repeticoes);
    console.log(`  Visita repetida a Vendas (3G, CPU ${CPU}x): online ${Math.round(mediana(rep.online))} ms (${faixa(rep.online)}), offline ${Math.round(mediana(rep.offline))} ms (${faixa(rep.offline)})`);
    return {
      versaoLighthouse: versao,
      chromium: agente,
      rodadas,
      lighthouse: medidas,
      rede: { rttMs: RTT_MS, descidaKbps: DESCIDA_KBPS, subidaKbps: SUBIDA_KBPS, cpu: CPU },
      primeiraVisita: {
        loginMs: comp.tempos,
        mediana: mediana(comp.tempos),
        semCompressaoMs: sem.tempos,
        medianaSemCompressao: mediana(sem.tempos),
        bytes: comp.bytes,
        bytesSemCompressao: sem.bytes,
        meta: META_LOGIN_MS,
      },
      repetida: { onlineMs: rep.online, offlineMs: rep.offline, medianaOnline: mediana(rep.online), medianaOffline: mediana(rep.offline), meta: META_REPETIDA_MS },
    };
  } finally {
    await navegador?.close();
    await servidor.fechar();
    await servidorSemCompressao.fechar();
    fs.rmSync(semCompressao, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${Math.round(n).toLocaleString('pt-BR')} ms`;
const x = (n: number) => `${n.toFixed(2)}x`;

/** docs/performance.md's section (bench/relatorio.ts). */
export function secaoLighthouse(r: ResultadoLighthouse & { medidoEm: string }): string {
  const linhasLh = r.lighthouse.map((m) => {
    const rotulo = m.pagina === 'login' ? '/login' : 'Dashboard do funcionário (com sessão)';
    return `| Lighthouse mobile: ${rotulo} | ${m.mediana.pontuacao} (${m.pontuacoes.join(', ')}); ${x(m.mediana.pontuacao / 90)} a meta | ≥ 90 |
| CLS: ${rotulo} | ${m.mediana.cls.toFixed(3)} (${m.cls.map((c) => c.toFixed(3)).join(', ')}); ${x(m.mediana.cls / 0.1)} o limite | < 0,1 |
| LCP / TBT: ${rotulo} | ${ms(m.mediana.lcpMs)} / ${ms(m.mediana.tbtMs)} (LCP ${faixa(m.lcpMs)}, TBT ${faixa(m.tbtMs)}); BenchmarkIndex da máquina ${(m.indicesMaquina ?? []).join(', ')} | — |`;
  });
  const p = r.primeiraVisita;
  const rep = r.repetida;
  return `## Primeira visita, visita repetida e Lighthouse (issue 19)

O servidor real (\`criarApp\` com o cliente compilado, banco temporário, uma funcionária com uma rota ativa de ${CIDADES} cidades)
e o Chromium do Debian. Lighthouse ${r.versaoLighthouse} do npm, configuração mobile padrão (rede simulada de 4G lento: 150 ms,
1,6 Mbit/s; CPU 4x; tela de celular), só a categoria desempenho, cada rodada num Chromium novo, **${r.rodadas} rodadas** (mediana e
todas). O dashboard roda com a sessão da funcionária no \`localStorage\`. Primeira e repetida: emulação de rede do DevTools
(${r.rede.rttMs} ms por pedido, ${r.rede.descidaKbps / 1000} Mbit/s de descida, ${r.rede.subidaKbps} kbit/s de subida — um 3G) e CPU ${r.rede.cpu}x mais lenta,
${p.loginMs.length} repetições cada. Medido em ${r.medidoEm.slice(0, 16).replace('T', ' ')} UTC.

| Medida | Hoje | Limite / meta |
|---|---|---|
| Primeira visita: até o login pronto | ${ms(p.mediana)} (${faixa(p.loginMs)}); ${x(p.mediana / p.meta)} a meta; ${(p.bytes / 1024).toFixed(0)} KB transferidos | ≤ 3 s |
| Linha de base: o mesmo build sem as cópias .br/.gz | ${ms(p.medianaSemCompressao)} (${faixa(p.semCompressaoMs)}); ${(p.bytesSemCompressao / 1024).toFixed(0)} KB; a compressão leva a ${x(p.mediana / p.medianaSemCompressao)} disso | — |
${linhasLh.join('\n')}
| Visita repetida a Vendas, online | ${ms(rep.medianaOnline)} (${faixa(rep.onlineMs)}); ${x(rep.medianaOnline / rep.meta)} a meta | ≤ 1,5 s |
| Visita repetida a Vendas, offline | ${ms(rep.medianaOffline)} (${faixa(rep.offlineMs)}); ${x(rep.medianaOffline / rep.meta)} a meta | ≤ 1,5 s |

O Lighthouse simula a CPU 4x mais lenta multiplicando o tempo observado nesta máquina: o "BenchmarkIndex" de cada rodada
diz quão rápida ela estava (uma máquina de mesa livre passa de 1000; com os 2 núcleos divididos entre várias tarefas ele
cai, e TBT e LCP sobem na mesma proporção). Compare rodadas com índices parecidos.

"Login pronto" é o botão "Entrar" na tela, contado pelo relógio da própria página desde o início da navegação, num contexto sem
nada guardado. A visita repetida é o app instalado (service worker no controle, IndexedDB com a cópia do aparelho, sessão
guardada) abrindo \`/vendas\` numa aba nova até o primeiro cartão de cidade aparecer. Rodar só esta parte:
\`BENCH_SO=lighthouse npx tsx bench/index.ts\` (o cliente compilado em \`build/public\`, ou \`E2E_PASTA_CLIENTE\`).
`;
}

if (process.argv[1]?.endsWith('/lighthouse.ts')) {
  const r = await medirLighthouse(process.argv.includes('--rapido') ? 1 : 3, process.argv.includes('--rapido') ? 2 : 5);
  console.log(JSON.stringify(r, null, 2));
}
