/**
 * The employee's phone: how much JavaScript the first screen needs (gzip) and how long the Vendas
 * screen takes to show a route of 60 cities, in headless Chromium with the CPU slowed 4x (a
 * mid-range Android), against the real built client and server.
 * Baselines in the same run: the gzip size of a minimal React app built by the same Vite (the floor
 * of any React screen), and the time for the same browser to boot the app shell to its login form.
 * Targets: first employee screen under 200 KB of gzipped JavaScript.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import { abrirNavegador, temChromium } from '../e2e/suporte/navegador';
import { iniciarServidor, PASTA_CLIENTE, type ServidorDeTeste } from '../e2e/suporte/servidor';

export interface ResultadoCliente {
  js: {
    /** gzip bytes of the scripts loaded until the employee's dashboard showed (app opened signed in). */
    primeiraTelaFuncionario: number;
    /** The login screen of a phone that never opened the app. */
    login: number;
    /** What the dashboard loads in the 1.5 s after its first screen showed. */
    logoDepois: number;
    logoDepoisArquivos: string[];
    /** What opening Vendas adds on top. */
    vendasAMais: number;
    arquivos: { nome: string; bytes: number; gzip: number; primeiraTela: boolean }[];
    reactMinimo: number;
    razaoReact: number;
    meta: number;
    passou: boolean;
  };
  vendas60: {
    cidades: number;
    lentidaoCpu: number;
    medianaMs: number;
    tentativasMs: number[];
    cascaMs: number;
    razaoCasca: number;
  };
}

const META_JS = 200 * 1024;
const LENTIDAO_CPU = 4;
const CIDADES = 60;

const gzip = (arquivo: string) => gzipSync(fs.readFileSync(arquivo), { level: 9 }).length;

/** A React app that renders one element, built with the project's Vite and React plugin. */
async function tamanhoReactMinimo(): Promise<number> {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-react-'));
  try {
    fs.writeFileSync(path.join(pasta, 'index.html'), '<!doctype html><div id="r"></div><script type="module" src="/main.jsx"></script>');
    fs.writeFileSync(
      path.join(pasta, 'main.jsx'),
      "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('r')).render(<p>Olá</p>);\n",
    );
    await build({
      root: pasta,
      configFile: false,
      logLevel: 'silent',
      plugins: [react()],
      resolve: { alias: { react: path.resolve('node_modules/react'), 'react-dom': path.resolve('node_modules/react-dom') } },
      build: { outDir: path.join(pasta, 'dist'), emptyOutDir: true },
    });
    const assets = path.join(pasta, 'dist', 'assets');
    return fs
      .readdirSync(assets)
      .filter((a) => a.endsWith('.js'))
      .reduce((soma, a) => soma + gzip(path.join(assets, a)), 0);
  } finally {
    fs.rmSync(pasta, { recursive: true, force: true });
  }
}

/** Scripts the page (not the service worker's precache) fetched, by file name. */
function registrarScripts(pagina: Page): Set<string> {
  const vistos = new Set<string>();
  pagina.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('.js') && url.pathname.startsWith('/assets/')) vistos.add(url.pathname.slice('/assets/'.length));
  });
  return vistos;
}

async function lentidao(contexto: BrowserContext, pagina: Page) {
  const cdp = await contexto.newCDPSession(pagina);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: LENTIDAO_CPU });
}

async function prepararRota(servidor: ServidorDeTeste) {
  const sqlite = servidor.db.$client;
  const inserir = sqlite.prepare('insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
  const ids = Array.from({ length: CIDADES }, (_, i) => 9_200_000 + i);
  sqlite.transaction(() => ids.forEach((id, i) => inserir.run(id, `Município ${String(i + 1).padStart(2, '0')}`, normalizarBusca(`Municipio ${i + 1}`), 'GO')))();
  const f = await servidor.criarFuncionario({ nome: 'Vera Vendas', email: 'vera@escola.com.br', senha: 'vera12345' });
  const dia = hoje('America/Sao_Paulo');
  const r = await servidor.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await servidor.tokenAdmin(),
    payload: { nome: 'Rota das 60', funcionario_id: f.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -3), data_fim: somarDias(dia, 20), observacoes: '', cidades: ids },
  });
  if (r.statusCode !== 201) throw new Error(`rota: ${r.statusCode} ${r.body}`);
  return f;
}

async function entrar(pagina: Page, url: string, email: string, senha: string) {
  await pagina.goto(`${url}/login`);
  await pagina.getByLabel('Email').fill(email);
  await pagina.getByLabel('Senha').fill(senha);
  await pagina.getByRole('button', { name: 'Entrar' }).click();
  await pagina.getByText('Rota Ativa').first().waitFor({ timeout: 30_000 });
}

async function tempo(pagina: Page, url: string, esperar: () => Promise<unknown>): Promise<number> {
  const inicio = performance.now();
  await pagina.goto(url);
  await esperar();
  return performance.now() - inicio;
}

const mediana = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

export async function medirCliente(repeticoes = 5): Promise<ResultadoCliente> {
  if (!temChromium) throw new Error('Chromium não encontrado em /usr/bin/chromium: instale com `apt-get install -y chromium`.');
  if (!fs.existsSync(path.join(PASTA_CLIENTE, 'index.html'))) throw new Error('Cliente não compilado: rode `npm run build:client`.');
  const reactMinimo = await tamanhoReactMinimo();
  const servidor = await iniciarServidor();
  let navegador: Browser | null = null;
  try {
    const f = await prepararRota(servidor);
    navegador = await abrirNavegador();
    const tela = { width: 390, height: 844 };

    // JavaScript, counted at the moment each screen shows (what runs later, such as the service
    // worker's registration, is not needed to draw it), on a browser with nothing cached.
    const pasta = path.join(PASTA_CLIENTE, 'assets');
    const tamanho = (nomes: Iterable<string>) => [...nomes].reduce((s, n) => s + gzip(path.join(pasta, n)), 0);
    const novoContexto = () => navegador!.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', serviceWorkers: 'block' });

    // The login screen of a phone that never opened the app.
    const contextoLogin = await novoContexto();
    const paginaLogin = await contextoLogin.newPage();
    const scriptsLogin = registrarScripts(paginaLogin);
    await paginaLogin.goto(`${servidor.url}/login`);
    await paginaLogin.getByRole('button', { name: 'Entrar' }).waitFor();
    const doLogin = new Set(scriptsLogin);
    await contextoLogin.close();

    // The employee's first screen as every day: the app opens signed in (session on the device) on
    // the dashboard; then Vendas.
    const sessao = (await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: f.email, senha: f.senha } })).json() as { token: string; usuario: unknown };
    const contexto = await novoContexto();
    await contexto.addInitScript(
      ([token, usuario]) => {
        if (!localStorage.getItem('token')) {
          localStorage.setItem('token', token);
          localStorage.setItem('user', usuario);
        }
      },
      [sessao.token, JSON.stringify(sessao.usuario)] as const,
    );
    const pagina = await contexto.newPage();
    const scripts = registrarScripts(pagina);
    await pagina.goto(`${servidor.url}/dashboard`);
    await pagina.getByText('Rota Ativa').first().waitFor({ timeout: 30_000 });
    const daPrimeiraTela = new Set(scripts);
    // What the dashboard loads once its numbers are on screen (the 'Pronto para viajar' card).
    await pagina.waitForTimeout(1500);
    const logoDepois = [...scripts].filter((nome) => !daPrimeiraTela.has(nome));
    await pagina.getByRole('button', { name: 'Abrir menu' }).click();
    await pagina.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: 'Vendas' }).click();
    await pagina.getByText(`Em aberto (${CIDADES})`).waitFor({ timeout: 30_000 });
    const comVendas = new Set(scripts);
    await contexto.close();

    const arquivos = [...comVendas]
      .map((nome) => ({ nome, bytes: fs.statSync(path.join(pasta, nome)).size, gzip: gzip(path.join(pasta, nome)), primeiraTela: daPrimeiraTela.has(nome) }))
      .sort((a, b) => b.gzip - a.gzip);
    const primeiraTela = tamanho(daPrimeiraTela);
    const js = {
      primeiraTelaFuncionario: primeiraTela,
      login: tamanho(doLogin),
      logoDepois: tamanho(logoDepois),
      logoDepoisArquivos: logoDepois,
      vendasAMais: tamanho(comVendas) - primeiraTela - tamanho(logoDepois),
      arquivos,
      reactMinimo,
      razaoReact: primeiraTela / reactMinimo,
      meta: META_JS,
      passou: primeiraTela < META_JS,
    };

    // Time: the installed app (service worker and IndexedDB warm, as on a phone used every day),
    // CPU 4x slower; each visit in a fresh tab.
    const instalado = await navegador.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    const primeira = await instalado.newPage();
    await entrar(primeira, servidor.url, f.email, f.senha);
    await primeira.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await primeira.goto(`${servidor.url}/vendas`);
    await primeira.getByText(`Em aberto (${CIDADES})`).waitFor({ timeout: 30_000 });
    await primeira.close();
    const tentativas: number[] = [];
    const casca: number[] = [];
    const anonimo = await navegador.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    const aquecer = await anonimo.newPage();
    await aquecer.goto(`${servidor.url}/login`);
    await aquecer.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await aquecer.close();
    for (let i = 0; i < repeticoes; i++) {
      const p = await instalado.newPage();
      await lentidao(instalado, p);
      tentativas.push(await tempo(p, `${servidor.url}/vendas`, () => p.getByText(`Em aberto (${CIDADES})`).waitFor({ timeout: 60_000 })));
      await p.close();
      const b = await anonimo.newPage();
      await lentidao(anonimo, b);
      casca.push(await tempo(b, `${servidor.url}/login`, () => b.getByRole('button', { name: 'Entrar' }).waitFor({ timeout: 60_000 })));
      await b.close();
    }
    await instalado.close();
    await anonimo.close();
    const medianaMs = mediana(tentativas);
    const cascaMs = mediana(casca);
    console.log(
      `  JS da primeira tela do funcionário: ${(primeiraTela / 1024).toFixed(1)} KB gzip (${js.razaoReact.toFixed(1)}x um React mínimo de ${(reactMinimo / 1024).toFixed(1)} KB; meta < 200 KB); Vendas soma ${(js.vendasAMais / 1024).toFixed(1)} KB`,
    );
    console.log(`  Vendas com ${CIDADES} cidades (CPU ${LENTIDAO_CPU}x mais lenta): ${medianaMs.toFixed(0)} ms; a casca até o login: ${cascaMs.toFixed(0)} ms (${(medianaMs / cascaMs).toFixed(1)}x)`);
    return { js, vendas60: { cidades: CIDADES, lentidaoCpu: LENTIDAO_CPU, medianaMs, tentativasMs: tentativas, cascaMs, razaoCasca: medianaMs / cascaMs } };
  } finally {
    await navegador?.close();
    await servidor.fechar();
  }
}

if (process.argv[1]?.endsWith('/cliente.ts')) await medirCliente(process.argv.includes('--rapido') ? 2 : 5);
