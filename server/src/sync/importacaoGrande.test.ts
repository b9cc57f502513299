/**
 * Two admins import a 93 MB rescue file each at the same moment, into a real server process whose
 * heap is capped at 256 MB (what docs/deploy.md recommends). Reading a file whole, one import peaked at
 * 477 MB and two killed the process ('JavaScript heap out of memory'). Now each import streams
 * (leitorPendencias.ts) and a process runs one at a time: each file is imported, or told to come back
 * (503 with Retry-After) and imported when sent again; the process lives, and its peak memory stays far
 * below one file's size. The files are made here, the same bytes on every run.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { FORMATO_PENDENCIAS, VERSAO_PENDENCIAS } from '../../../shared/schemas/pendencias';
import { iniciarServidorProcesso, portaLivre, type ServidorProcesso } from '../../../e2e/suporte/servidor';
import { MENSAGEM_IMPORTACAO_EM_ANDAMENTO } from './importacao';

const MB = 1024 * 1024;
const ADMIN = { email: 'admin@resgate.com.br', senha: 'admin-resgate-123' };
const GOIANIA = 5208707; // in the sample the server loads when IBGE is out of reach
/** Each file: this many expenses with one photo each, about 93 MB in all (the limit is 100 MB). */
const DESPESAS_POR_ARQUIVO = 24;
const TAMANHO_DA_FOTO = Math.floor((93 * MB * 3) / 4 / DESPESAS_POR_ARQUIVO) - 1024;
const dia = hoje('America/Sao_Paulo');

let raiz: string;
let servidor: ServidorProcesso;
let funcionario: { id: number; nome: string; email: string };
let rotaId: number;
let tokenAdmin: string;

async function chamar(metodo: string, caminho: string, corpo?: unknown, token?: string) {
  const r = await fetch(`${servidor.url}/api${caminho}`, {
    method: metodo,
    headers: { ...(corpo !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: corpo !== undefined ? JSON.stringify(corpo) : undefined,
  });
  return { status: r.status, corpo: (await r.json()) as Record<string, unknown> };
}

/** A UUID v7 made of `n` and `arquivo` (the same on every run). */
const idFixo = (arquivo: number, n: number) => `01900000-0000-7000-8${String(arquivo).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`;

/** A photo of `tamanho` bytes: a JPEG's first bytes, then a pattern of its own. */
function foto(tamanho: number, semente: number): Buffer {
  const b = Buffer.alloc(tamanho);
  const padrao = Buffer.alloc(4096);
  for (let i = 0; i < padrao.length; i++) padrao[i] = (i * 131 + semente * 17) & 0xff;
  for (let i = 0; i < tamanho; i += padrao.length) padrao.copy(b, i);
  b.set([0xff, 0xd8, 0xff, 0xe0, semente & 0xff]);
  return b;
}

/** The rescue file as the phone's 'Exportar pendências' writes it, written piece by piece to `destino`. */
function escreverArquivo(destino: string, arquivo: number): number {
  const fd = fs.openSync(destino, 'w');
  try {
    const cabecalho = {
      formato: FORMATO_PENDENCIAS,
      versao: VERSAO_PENDENCIAS,
      exportadoEm: '2026-12-01T12:00:00.000Z',
      funcionario,
      dispositivo: `aparelho-resgate-${arquivo}`,
      versaoApp: null,
    };
    fs.writeSync(fd, `${JSON.stringify(cabecalho).slice(0, -1)},"operacoes":[`);
    for (let n = 0; n < DESPESAS_POR_ARQUIVO; n++) {
      const id = idFixo(arquivo, n);
      const bytes = foto(TAMANHO_DA_FOTO, arquivo * 100 + n);
      const op = {
        id: idFixo(arquivo, 1000 + n),
        tipo: 'despesa.criar',
        seq: n + 1,
        dados: {
          id,
          rota_id: rotaId,
          cidade_id: GOIANIA,
          data_despesa: somarDias(dia, -1 - (n % 20)),
          tipo: 'alimentacao',
          tipo_outro: '',
          valor: 2000 + n,
          descricao: `Refeição ${n} do arquivo ${arquivo}`,
        },
        chaves: [`despesa:${id}`],
        criadoEm: '2026-12-01T11:00:00.000Z',
        descricao: `Despesa: refeição ${n}`,
        estado: 'pendente',
        arquivo: { nome: `foto-${n}.jpg`, tipo: 'image/jpeg', tamanho: bytes.length, base64: bytes.toString('base64') },
      };
      fs.writeSync(fd, `${n > 0 ? ',' : ''}${JSON.stringify(op)}`);
    }
    fs.writeSync(fd, ']}');
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(destino).size;
}

interface Resposta {
  status: number;
  retryAfter: string | undefined;
  corpo: Record<string, unknown>;
}

/** POST /api/sync/importar with the file streamed from disk (the test holds none of it in memory). */
function importar(caminho: string): Promise<Resposta> {
  const limite = `----limite-resgate-${path.basename(caminho)}`;
  const antes = Buffer.from(
    `--${limite}\r\nContent-Disposition: form-data; name="arquivo"; filename="${path.basename(caminho)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const depois = Buffer.from(`\r\n--${limite}--\r\n`);
  const tamanho = antes.length + fs.statSync(caminho).size + depois.length;
  return new Promise((resolve, reject) => {
    const arquivo = fs.createReadStream(caminho);
    const pedido = http.request(
      `${servidor.url}/api/sync/importar`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenAdmin}`, 'content-type': `multipart/form-data; boundary=${limite}`, 'content-length': tamanho },
      },
      (resposta) => {
        const partes: Buffer[] = [];
        resposta.on('data', (p: Buffer) => partes.push(p));
        resposta.on('end', () => {
          // Answered before the body was all sent (the 503): the rest is not sent, as a browser stops an upload.
          if (!arquivo.readableEnded) {
            arquivo.destroy();
            pedido.destroy();
          }
          const texto = Buffer.concat(partes).toString('utf8');
          resolve({ status: resposta.statusCode!, retryAfter: resposta.headers['retry-after'] as string | undefined, corpo: JSON.parse(texto) as Record<string, unknown> });
        });
        resposta.on('error', reject);
      },
    );
    pedido.on('error', reject);
    pedido.write(antes);
    arquivo.on('error', reject);
    arquivo.pipe(pedido, { end: false });
    arquivo.on('end', () => pedido.end(depois));
  });
}

/** The process's peak resident memory so far (Linux: VmHWM). */
function picoDeMemoria(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

beforeAll(async () => {
  raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-resgate-grande-'));
  servidor = await iniciarServidorProcesso(
    path.join(raiz, 'dados'),
    await portaLivre(),
    { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.senha, COTA_COMPROVANTES_MB: '2000', LIMITE_REQUISICOES_POR_MINUTO: '10000' },
    ['--max-old-space-size=256'],
  );
  await servidor.esperarLinha(/Sistema de Gestão em http/);
  tokenAdmin = (await chamar('POST', '/auth/login', { email: ADMIN.email, senha: ADMIN.senha })).corpo.token as string;
  const criado = await chamar('POST', '/usuarios', { nome: 'Rita Resgate', email: 'rita@resgate.com.br', senha: 'senha-da-rita-1', tipo: 'funcionario' }, tokenAdmin);
  expect(criado.status, JSON.stringify(criado.corpo)).toBe(201);
  funcionario = { id: (criado.corpo.usuario as { id: number }).id, nome: 'Rita Resgate', email: 'rita@resgate.com.br' };
  const rota = await chamar(
    'POST',
    '/rotas',
    {
      nome: 'Rota do resgate',
      funcionario_id: funcionario.id,
      tem_secretario: false,
      valor_aluguel: 0,
      data_inicio: somarDias(dia, -30),
      data_fim: somarDias(dia, 30),
      observacoes: '',
      cidades: [GOIANIA],
    },
    tokenAdmin,
  );
  expect(rota.status, JSON.stringify(rota.corpo)).toBe(201);
  rotaId = (rota.corpo.rota as { id: number }).id;
}, 120_000);

afterAll(async () => {
  await servidor?.matar('SIGTERM');
  if (raiz) fs.rmSync(raiz, { recursive: true, force: true });
}, 60_000);

describe('dois arquivos de resgate de 93 MB ao mesmo tempo, com o heap em 256 MB', () => {
  it('cada um é importado ou recebe 503 com Retry-After (e entra quando enviado de novo); o processo continua vivo e a memória fica muito abaixo do tamanho do arquivo', async () => {
    const arquivos = [1, 2].map((n) => path.join(raiz, `pendencias-${n}.sgp`));
    const tamanhos = arquivos.map((a, i) => escreverArquivo(a, i + 1));
    for (const t of tamanhos) {
      expect(t).toBeGreaterThan(90 * MB);
      expect(t).toBeLessThan(100 * MB);
    }

    const picoAntes = picoDeMemoria(servidor.processo.pid!);
    const respostas = await Promise.all(arquivos.map(importar));
    for (const r of respostas) {
      if (r.status === 503) {
        expect(r.corpo).toEqual({ error: MENSAGEM_IMPORTACAO_EM_ANDAMENTO, codigo: 'indisponivel' });
        expect(Number(r.retryAfter)).toBeGreaterThan(0);
      } else expect(r.status, JSON.stringify(r.corpo).slice(0, 500)).toBe(200);
    }
    expect(respostas.some((r) => r.status === 200)).toBe(true);
    // The one told to come back comes back, now alone.
    const finais: Resposta[] = [];
    for (const [i, r] of respostas.entries()) finais.push(r.status === 503 ? await importar(arquivos[i]!) : r);
    for (const r of finais) {
      expect(r.status, JSON.stringify(r.corpo).slice(0, 500)).toBe(200);
      expect(r.corpo.totais).toEqual({ aceito: DESPESAS_POR_ARQUIVO, ja_recebido: 0, recusado: 0, retido: 0, nao_processado: 0 });
    }

    expect(servidor.processo.exitCode).toBeNull();
    expect(servidor.processo.signalCode).toBeNull();
    expect((await chamar('GET', '/health')).status).toBe(200);
    const despesas = await chamar('GET', `/despesas?funcionario_id=${funcionario.id}&limit=100`, undefined, tokenAdmin);
    expect(despesas.status).toBe(200);
    expect((despesas.corpo.despesas as unknown[]).length).toBe(2 * DESPESAS_POR_ARQUIVO);
    // Read whole, one file cost about three times its size (477 MB at the peak); streamed, the process's
    // peak grows well below one file's size (about 40 MB measured, garbage between collections included).
    const crescimento = picoDeMemoria(servidor.processo.pid!) - picoAntes;
    expect(crescimento / MB, `o pico cresceu ${(crescimento / MB).toFixed(0)} MB`).toBeLessThan((0.75 * Math.min(...tamanhos)) / MB);
  }, 180_000);
});
