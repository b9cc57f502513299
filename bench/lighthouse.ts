/**
 * First and repeat visits (targets: login <= 3 s, repeat <= 1.5 s), against the real server serving the real build
 * on a temporary database (an employee with an active route of 40 cities), in Debian's Chromium:
 * - Lighthouse mobile (npm's lighthouse, its default mobile settings: simulated slow 4G, 150 ms RTT,
 *   1.6 Mbit/s down, CPU 4x, Moto G Power screen) for /login and the employee's dashboard (signed in:
 *   the session is put in localStorage before the run, from a page that registers no service worker);
 *   score, LCP, TBT and CLS, median of RUNS runs, each in a new Chromium.
 * - First visit: time from navigation to the login form ready ('Entrar' on screen), nothing cached,
 *   on emulated 3G (Chromium's DevTools emulation: 300 ms per request, 1.6 Mbit/s down, 750 kbit/s up)
 *   with the CPU 4x slower. Baseline in the same run: the same build served without its .br/.gz
 *   copies (what was sent before the build was precompressed).
 * - Repeat visit: the installed app (service worker and IndexedDB warm, signed in) opening the
 *   employee's Vendas until the first city card shows, same 3G and CPU 4x; online and offline.
 * Every figure is also a ratio to its target (login <= 3 s, repeat <= 1.5 s, score >= 90, CLS < 0.1).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import { abrirNavegador, ARGUMENTOS_CHROMIUM, CAMINHO_CHROMIUM, temChromium } from '../e2e/suporte/navegador';
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
  /** The client build measured (`.commit` written beside it, else this checkout's HEAD). */
  commit?: string;
  /**
   * BENCH_LIGHTHOUSE_ANTES=<client folder>: the build before a change, measured in the same run,
   * alternated with the current one run by run (the "Hoje" column; the machine's load is shared).
   */
  antes?: {
    commit: string;
    lighthouse: MedidaLighthouse[];
    primeiraVisita: { loginMs: number[]; mediana: number; bytes: number };
    repetida: { onlineMs: number[]; offlineMs: number[]; medianaOnline: number; medianaOffline: number };
  };
}

/** The commit a client folder was built from (`.commit` beside it), else this checkout's HEAD. */
function commitDoCliente(pasta: string): string {
  const arquivo = path.join(pasta, '.commit');
  if (fs.existsSync(arquivo)) return fs.readFileSync(arquivo, 'utf8').trim();
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
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
      // BENCH_LIGHTHOUSE_AMOSTRAS=1: the trace also gets V8's JS samples (which function each long task ran). They
      // slow the page down: a diagnosis, never a figure to publish.
      ...(process.env.BENCH_LIGHTHOUSE_AMOSTRAS ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
    });
    if (!resultado) throw new Error('Lighthouse não devolveu resultado');
    const lhr = resultado.lhr;
    if (lhr.runtimeError) throw new ErroDeRodada(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // BENCH_LIGHTHOUSE_JSON=<folder>: each run's whole report kept there (long tasks, bootup time, requests).
    if (process.env.BENCH_LIGHTHOUSE_JSON) {
      fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_JSON, { recursive: true });
      const nome = `${new URL(url).pathname.replace(/\W+/g, '') || 'raiz'}-${Date.now()}.json`;
      fs.writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_JSON, nome), JSON.stringify(lhr));
      // The page load's trace beside it (chrome://tracing, DevTools' Performance panel): what each long task ran.
      const traco = (resultado.artifacts as { Trace?: unknown }).Trace;
      if (traco) fs.writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_JSON, nome.replace(/\.json$/, '.trace.json')), JSON.stringify(traco));
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

/**
 * ms from the navigation's start (the page's own clock) until `pronto` holds. Seen from inside the page by a
 * MutationObserver it gets before its first script (DevTools' addScriptToEvaluateOnNewDocument), and read
 * afterwards: no Playwright code runs in the page while it loads. Playwright's waitForFunction, used before,
 * evaluates its injected script in the page (a 107 ms task of the main thread at CPU 4x in a trace of the
 * repeat visit, inside the measured window): harness time no phone spends.
 */
async function ate(pagina: Page, url: string, pronto: string): Promise<number> {
  const cdp = await pagina.context().newCDPSession(pagina);
  await cdp.send('Page.enable');
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
    source: `(() => {
      const ver = () => {
        if (window.__prontoEm === undefined && (${pronto})) {
          window.__prontoEm = performance.now();
          observador.disconnect();
        }
      };
      const observador = new MutationObserver(ver);
      observador.observe(document, { childList: true, subtree: true, characterData: true });
    })();`,
  });
  await cdp.send('Page.navigate', { url });
  // Bounded: 60 s, as the wait it replaces.
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const { result } = (await cdp.send('Runtime.evaluate', { expression: 'window.__prontoEm ?? 0', returnByValue: true })) as { result: { value?: number } };
    if (result.value) {
      await cdp.detach();
      return result.value;
    }
  }
  throw new Error(`${url}: a condição não apareceu em 60 s (${pronto})`);
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

/**
 * The installed app: signed in once with the form, service worker in control, Vendas opened once online.
 * In a profile kept on disk (`pastaPerfil`), as the phone's browser has: a context of `newContext` is an
 * off-the-record profile, without the disk caches an installed app opens with (the service worker's own
 * script compiled from V8's code cache among them). Measured side by side on the same build, the
 * off-the-record context took ~270 ms more to the first card (docs/decisions/desempenho-cliente.md).
 */
async function instalar(pastaPerfil: string, url: string, f: { email: string; senha: string }) {
  const contexto = await chromium.launchPersistentContext(pastaPerfil, {
    executablePath: CAMINHO_CHROMIUM,
    headless: true,
    args: ARGUMENTOS_CHROMIUM,
    viewport: { width: 390, height: 844 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    bypassCSP: true,
  });
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
  /** One repeat visit, online or not: a new tab opening /vendas until the first city card. */
  const medir = async (semRede: boolean) => {
    const p = await contexto.newPage();
    await emular(contexto, p, semRede);
    await contexto.setOffline(semRede);
    const ms = await ate(p, `${url}/vendas`, VENDAS_PRONTA);
    await p.close();
    await contexto.setOffline(false);
    return ms;
  };
  return { contexto, medir };
}

interface Alvo {
  servidor: ServidorDeTeste;
  f: Awaited<ReturnType<typeof prepararFuncionario>>;
  runs: Record<'login' | 'dashboard', Awaited<ReturnType<typeof rodarLighthouse>>[]>;
  login: number[];
  bytes: number;
  online: number[];
  offline: number[];
}

function medidaLighthouse(nome: 'login' | 'dashboard', runs: Awaited<ReturnType<typeof rodarLighthouse>>[]): MedidaLighthouse {
  return {
    pagina: nome,
    pontuacoes: runs.map((r) => r.pontuacao),
    lcpMs: runs.map((r) => r.lcpMs),
    tbtMs: runs.map((r) => r.tbtMs),
    cls: runs.map((r) => r.cls),
    fcpMs: runs.map((r) => r.fcpMs),
    mediana: {
      pontuacao: mediana(runs.map((r) => r.pontuacao)),
      lcpMs: mediana(runs.map((r) => r.lcpMs)),
      tbtMs: mediana(runs.map((r) => r.tbtMs)),
      cls: mediana(runs.map((r) => r.cls)),
      fcpMs: mediana(runs.map((r) => r.fcpMs)),
    },
    indicesMaquina: runs.map((r) => Math.round(r.indiceMaquina)),
  };
}

/**
 * Runs per build. A Lighthouse run and a repeat visit each vary by ±20% on this 2-core machine (the two builds'
 * medians flipped between runs of 3 rounds and 5 visits): 7 rounds and 11 visits, alternated, per build.
 */
export const RODADAS_LIGHTHOUSE = 7;
export const REPETICOES_VISITAS = 11;

export async function medirLighthouse(rodadas = RODADAS_LIGHTHOUSE, repeticoes = REPETICOES_VISITAS): Promise<ResultadoLighthouse> {
  if (!temChromium) throw new Error('Chromium não encontrado em /usr/bin/chromium: instale com `apt-get install -y chromium`.');
  const pastaAntes = process.env.BENCH_LIGHTHOUSE_ANTES;
  for (const pasta of [PASTA_CLIENTE, ...(pastaAntes ? [pastaAntes] : [])]) {
    if (!fs.existsSync(path.join(pasta, 'index.html'))) throw new Error(`Cliente não compilado em ${pasta}: rode \`npm run build:client\`.`);
    const comprimidos = fs.readdirSync(path.join(pasta, 'assets')).filter((n) => n.endsWith('.br'));
    if (comprimidos.length === 0) throw new Error(`${pasta} sem cópias .br: compile o cliente de novo (npm run build:client).`);
  }
  // The baseline: the same build without its compressed copies.
  const semCompressao = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-sem-compressao-'));
  fs.cpSync(PASTA_CLIENTE, semCompressao, { recursive: true, filter: (origem) => !/\.(br|gz)$/.test(origem) });
  const servidores: ServidorDeTeste[] = [];
  const iniciar = async (pasta: string) => {
    const s = await iniciarServidor({ LOGIN_RATE_LIMIT: '10000' }, pasta);
    servidores.push(s);
    return s;
  };
  let navegador: Browser | null = null;
  const contextos: BrowserContext[] = [];
  const perfis: string[] = [];
  try {
    const novoAlvo = async (pasta: string): Promise<Alvo> => {
      const servidor = await iniciar(pasta);
      return { servidor, f: await prepararFuncionario(servidor), runs: { login: [], dashboard: [] }, login: [], bytes: 0, online: [], offline: [] };
    };
    const agora = await novoAlvo(PASTA_CLIENTE);
    const antes = pastaAntes ? await novoAlvo(pastaAntes) : null;
    // Each round: the build before, then the current one (when there is a before), so both see the same load.
    const alvos = antes ? [antes, agora] : [agora];
    const servidorSemCompressao = await iniciar(semCompressao);
    let versao = '?';
    let agente = '?';
    for (const [nome, caminho] of [
      ['login', '/login'],
      ['dashboard', '/dashboard'],
    ] as const) {
      for (let i = 0; i < rodadas; i++) {
        for (const alvo of alvos) {
          const rotulo = alvo === antes ? 'antes' : 'agora';
          const r = await rodarComNovaTentativa(`${alvo.servidor.url}${caminho}`, nome === 'dashboard' ? alvo.f.sessao : null);
          versao = r.versao;
          agente = r.agente;
          if (r.telaFinal && i === 0 && alvo === agora) {
            fs.mkdirSync('test-results/screenshots', { recursive: true });
            fs.writeFileSync(`test-results/screenshots/lighthouse-${nome}.jpg`, Buffer.from(r.telaFinal.replace(/^data:image\/\w+;base64,/, ''), 'base64'));
          }
          console.log(`  Lighthouse ${caminho} #${i + 1} (${rotulo}): ${r.pontuacao} (LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, CLS ${r.cls.toFixed(3)}; BenchmarkIndex ${Math.round(r.indiceMaquina)})`);
          alvo.runs[nome].push(r);
        }
      }
    }

    navegador = await abrirNavegador();
    const sem = { tempos: [] as number[], bytes: 0 };
    for (let i = 0; i < repeticoes; i++) {
      for (const alvo of alvos) {
        const r = await primeiraVisita(navegador, alvo.servidor.url, 1);
        alvo.login.push(...r.tempos);
        alvo.bytes = r.bytes;
      }
      const r = await primeiraVisita(navegador, servidorSemCompressao.url, 1);
      sem.tempos.push(...r.tempos);
      sem.bytes = r.bytes;
    }
    for (const alvo of alvos) {
      console.log(`  Primeira visita até o login (3G, CPU ${CPU}x, ${alvo === antes ? 'antes' : 'agora'}): ${Math.round(mediana(alvo.login))} ms (${faixa(alvo.login)}), ${(alvo.bytes / 1024).toFixed(0)} KB`);
    }
    console.log(`  Sem compressão: ${Math.round(mediana(sem.tempos))} ms (${faixa(sem.tempos)}), ${(sem.bytes / 1024).toFixed(0)} KB`);

    const instalados = [];
    for (const alvo of alvos) {
      const pastaPerfil = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-perfil-'));
      perfis.push(pastaPerfil);
      const inst = await instalar(pastaPerfil, alvo.servidor.url, alvo.f);
      contextos.push(inst.contexto);
      instalados.push({ alvo, medir: inst.medir });
    }
    for (let i = 0; i < repeticoes; i++) {
      for (const semRede of [false, true]) {
        for (const { alvo, medir } of instalados) (semRede ? alvo.offline : alvo.online).push(await medir(semRede));
      }
    }
    for (const alvo of alvos) {
      console.log(`  Visita repetida a Vendas (3G, CPU ${CPU}x, ${alvo === antes ? 'antes' : 'agora'}): online ${Math.round(mediana(alvo.online))} ms (${faixa(alvo.online)}), offline ${Math.round(mediana(alvo.offline))} ms (${faixa(alvo.offline)})`);
    }
    return {
      versaoLighthouse: versao,
      chromium: agente,
      rodadas,
      lighthouse: rodadas > 0 ? [medidaLighthouse('login', agora.runs.login), medidaLighthouse('dashboard', agora.runs.dashboard)] : [],
      rede: { rttMs: RTT_MS, descidaKbps: DESCIDA_KBPS, subidaKbps: SUBIDA_KBPS, cpu: CPU },
      primeiraVisita: {
        loginMs: agora.login,
        mediana: mediana(agora.login),
        semCompressaoMs: sem.tempos,
        medianaSemCompressao: mediana(sem.tempos),
        bytes: agora.bytes,
        bytesSemCompressao: sem.bytes,
        meta: META_LOGIN_MS,
      },
      repetida: { onlineMs: agora.online, offlineMs: agora.offline, medianaOnline: mediana(agora.online), medianaOffline: mediana(agora.offline), meta: META_REPETIDA_MS },
      commit: commitDoCliente(PASTA_CLIENTE),
      ...(antes && pastaAntes
        ? {
            antes: {
              commit: commitDoCliente(pastaAntes),
              lighthouse: rodadas > 0 ? [medidaLighthouse('login', antes.runs.login), medidaLighthouse('dashboard', antes.runs.dashboard)] : [],
              primeiraVisita: { loginMs: antes.login, mediana: mediana(antes.login), bytes: antes.bytes },
              repetida: { onlineMs: antes.online, offlineMs: antes.offline, medianaOnline: mediana(antes.online), medianaOffline: mediana(antes.offline) },
            },
          }
        : {}),
    };
  } finally {
    for (const c of contextos) await c.close().catch(() => undefined);
    await navegador?.close();
    for (const s of servidores) await s.fechar();
    fs.rmSync(semCompressao, { recursive: true, force: true });
    for (const pasta of perfis) fs.rmSync(pasta, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${Math.round(n).toLocaleString('pt-BR')} ms`;
const x = (n: number) => `${n.toFixed(2)}x`;

/** docs/performance.md's section (bench/relatorio.ts). */
export function secaoLighthouse(r: ResultadoLighthouse & { medidoEm: string }): string {
  const a = r.antes;
  const p = r.primeiraVisita;
  const rep = r.repetida;
  const rotuloPagina = (pagina: 'login' | 'dashboard') => (pagina === 'login' ? '/login' : 'Dashboard do funcionário (com sessão)');
  const celulasLh = (m: MedidaLighthouse | undefined) =>
    m
      ? {
          pontuacao: `${m.mediana.pontuacao} (${m.pontuacoes.join(', ')}); ${x(m.mediana.pontuacao / 90)} a meta`,
          cls: `${m.mediana.cls.toFixed(3)} (${m.cls.map((c) => c.toFixed(3)).join(', ')}); ${x(m.mediana.cls / 0.1)} o limite`,
          lcpTbt: `${ms(m.mediana.lcpMs)} / ${ms(m.mediana.tbtMs)} (LCP ${faixa(m.lcpMs)}, TBT ${faixa(m.tbtMs)}); BenchmarkIndex ${(m.indicesMaquina ?? []).join(', ')}`,
        }
      : { pontuacao: '—', cls: '—', lcpTbt: '—' };
  // With the build before the change measured in the same run: "Hoje" is it, "Agora" the current one.
  const linha = (medida: string, hoje: string, agora: string, meta: string) => (a ? `| ${medida} | ${hoje} | ${agora} | ${meta} |` : `| ${medida} | ${agora} | ${meta} |`);
  const linhasLh = r.lighthouse.flatMap((m) => {
    const atual = celulasLh(m);
    const anterior = celulasLh(a?.lighthouse.find((n) => n.pagina === m.pagina));
    const rotulo = rotuloPagina(m.pagina);
    return [
      linha(`Lighthouse mobile: ${rotulo}`, anterior.pontuacao, atual.pontuacao, '≥ 90'),
      linha(`CLS: ${rotulo}`, anterior.cls, atual.cls, '< 0,1'),
      linha(`LCP / TBT: ${rotulo}`, anterior.lcpTbt, atual.lcpTbt, '—'),
    ];
  });
  const cabecalho = a
    ? `| Medida | Hoje (cliente ${a.commit}, antes das mudanças) | Agora (cliente ${r.commit ?? '?'}) | Limite / meta |\n|---|---|---|---|`
    : `| Medida | Agora (cliente ${r.commit ?? '?'}) | Limite / meta |\n|---|---|---|`;
  const tabela = [
    cabecalho,
    linha(
      'Primeira visita: até o login pronto',
      a ? `${ms(a.primeiraVisita.mediana)} (${faixa(a.primeiraVisita.loginMs)}); ${x(a.primeiraVisita.mediana / p.meta)} a meta; ${(a.primeiraVisita.bytes / 1024).toFixed(0)} KB` : '',
      `${ms(p.mediana)} (${faixa(p.loginMs)}); ${x(p.mediana / p.meta)} a meta; ${(p.bytes / 1024).toFixed(0)} KB transferidos${a ? `; ${x(p.mediana / a.primeiraVisita.mediana)} o de hoje` : ''}`,
      '≤ 3 s',
    ),
    linha(
      'Linha de base: o build atual sem as cópias .br/.gz',
      '—',
      `${ms(p.medianaSemCompressao)} (${faixa(p.semCompressaoMs)}); ${(p.bytesSemCompressao / 1024).toFixed(0)} KB; a compressão leva a ${x(p.mediana / p.medianaSemCompressao)} disso`,
      '—',
    ),
    ...linhasLh,
    linha(
      'Visita repetida a Vendas, online',
      a ? `${ms(a.repetida.medianaOnline)} (${faixa(a.repetida.onlineMs)}); ${x(a.repetida.medianaOnline / rep.meta)} a meta` : '',
      `${ms(rep.medianaOnline)} (${faixa(rep.onlineMs)}); ${x(rep.medianaOnline / rep.meta)} a meta${a ? `; ${x(rep.medianaOnline / a.repetida.medianaOnline)} o de hoje` : ''}`,
      '≤ 1,5 s',
    ),
    linha(
      'Visita repetida a Vendas, offline',
      a ? `${ms(a.repetida.medianaOffline)} (${faixa(a.repetida.offlineMs)}); ${x(a.repetida.medianaOffline / rep.meta)} a meta` : '',
      `${ms(rep.medianaOffline)} (${faixa(rep.offlineMs)}); ${x(rep.medianaOffline / rep.meta)} a meta${a ? `; ${x(rep.medianaOffline / a.repetida.medianaOffline)} o de hoje` : ''}`,
      '≤ 1,5 s',
    ),
  ].join('\n');
  return `## Primeira visita, visita repetida e Lighthouse

O servidor real (\`criarApp\` com o cliente compilado, banco temporário, uma funcionária com uma rota ativa de ${CIDADES} cidades)
e o Chromium do Debian. Lighthouse ${r.versaoLighthouse} do npm, configuração mobile padrão (rede simulada de 4G lento: 150 ms,
1,6 Mbit/s; CPU 4x; tela de celular), só a categoria desempenho, cada rodada num Chromium novo, **${r.rodadas} rodadas** (mediana e
todas). O dashboard roda com a sessão da funcionária no \`localStorage\`. Primeira e repetida: emulação de rede do DevTools
(${r.rede.rttMs} ms por pedido, ${r.rede.descidaKbps / 1000} Mbit/s de descida, ${r.rede.subidaKbps} kbit/s de subida — um 3G) e CPU ${r.rede.cpu}x mais lenta,
${p.loginMs.length} repetições cada. Medido em ${r.medidoEm.slice(0, 16).replace('T', ' ')} UTC.${
    a
      ? `\n\n"Hoje" é o cliente compilado antes das mudanças desta seção (${a.commit}), medido **na mesma execução**, alternado com o
atual rodada a rodada (Lighthouse: antes, agora, antes, agora...; visitas: uma de cada por vez), cada um no seu servidor: a
carga da máquina pesa igual nos dois, e a razão "o de hoje" compara os dois.`
      : ''
  }

${tabela}

O Lighthouse simula a CPU 4x mais lenta multiplicando o tempo observado nesta máquina: o "BenchmarkIndex" de cada rodada
diz quão rápida ela estava (uma máquina de mesa livre passa de 1000; com os 2 núcleos divididos entre várias tarefas ele
cai, e TBT e LCP sobem na mesma proporção). Compare rodadas com índices parecidos.

"Login pronto" é o botão "Entrar" na tela, contado pelo relógio da própria página desde o início da navegação, num contexto sem
nada guardado. A visita repetida é o app instalado (service worker no controle, IndexedDB com a cópia do aparelho, sessão
guardada) abrindo \`/vendas\` numa aba nova até o primeiro cartão de cidade aparecer, num perfil do Chromium guardado em disco,
um por build, como o do navegador do celular (desde 2026-11-29; antes, um contexto anônimo do Playwright, sem os caches em disco
de um app instalado: ~270 ms a mais no mesmo build). Rodar só esta parte:
\`BENCH_SO=lighthouse npx tsx bench/index.ts\` (o cliente compilado em \`build/public\`, ou \`E2E_PASTA_CLIENTE\`; com
\`BENCH_LIGHTHOUSE_ANTES=<pasta>\`, um build anterior medido junto como "Hoje"; o commit de cada build vem do arquivo
\`.commit\` ao lado dele, senão do HEAD; \`BENCH_LIGHTHOUSE_JSON=<pasta>\` guarda o relatório inteiro de cada rodada).
`;
}

if (process.argv[1]?.endsWith('/lighthouse.ts')) {
  const r = await medirLighthouse(process.argv.includes('--rapido') ? 1 : RODADAS_LIGHTHOUSE, process.argv.includes('--rapido') ? 2 : REPETICOES_VISITAS);
  console.log(JSON.stringify(r, null, 2));
}
