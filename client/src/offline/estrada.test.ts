/**
 * The sync engine on the road: writes without files before receipts, receipt
 * requests sized by the measured link, large receipts in resumable parts, no growing backoff
 * without signal (a probe finds it), one IndexedDB transaction per batch answer.
 * The link is simulated: each request advances a clock by its bytes at the link's rate, so the
 * measured rate is exact and nothing depends on real time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErroApi, ErroOffline } from '../api/client';
import { anotarLeiturasDeValores } from '../test/leiturasDoBanco';
import { BancoLocal, type ArquivoLocal } from './db';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { MotorSync } from './sync';
import type { Enviar, Envio, ResultadoEnvio, Transporte } from './transporte';
import { DURACAO_ALVO_MS, Vazao } from './vazao';

let banco: BancoLocal;
let n = 0;
/** The simulated link: bytes per second up, and the clock it advances. */
let bytesPorSegundo: number;
let relogio: number;
/** Each batch request: its operations by name, the bytes of the receipts it carried, its time limit. */
let lotes: { nomes: string[]; bytes: number; tempoLimiteMs: number | undefined; referencias: string[] }[];
/** The upload server: bytes it holds per upload id, and each part request. */
let envios: Map<string, { total: number; bytes: Uint8Array; recebidos: number; completo: boolean }>;
let partes: { id: string; inicio: number; tamanho: number }[];
/** Cut the link during the part request with this index (0-based): half its bytes arrive. */
let cortarParte: number | null;
/** Fail every request with no signal while true. */
let semSinal: boolean;

const operacoes: Operacoes = { 'teste.enviar': { paraEnvio: (dados) => dados as never } };
const nomeDe = (e: Envio) => (e.item.dados as { nome: string }).nome;

const transporte: Transporte = async (lista, _token, _cliente, opcoes = {}) => {
  if (semSinal) throw new ErroOffline();
  const bytes = lista.filter((e) => !e.envio).reduce((t, e) => t + e.arquivos.reduce((s, a) => s + a.tamanho, 0), 0);
  relogio += 300 + (bytes * 1000) / bytesPorSegundo;
  lotes.push({ nomes: lista.map(nomeDe), bytes, tempoLimiteMs: opcoes.tempoLimiteMs, referencias: lista.filter((e) => e.envio).map(nomeDe) });
  return lista.map((e): ResultadoEnvio => {
    if (e.envio) {
      const incompleto = (Array.isArray(e.envio) ? e.envio : [e.envio]).some((r) => !envios.get(r.id)?.completo);
      if (incompleto) return { id: e.item.id, status: 409, corpo: { error: 'O comprovante não chegou inteiro ao servidor; ele será enviado de novo.', codigo: 'conflito' } };
    }
    return { id: e.item.id, status: 201, recebido_em: '2026-11-25T15:00:00.000Z' };
  });
};

/** jsdom's Blob has no arrayBuffer(): read it as a page would, with a FileReader. */
const lerBlob = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolver, rejeitar) => {
    const leitor = new FileReader();
    leitor.onload = () => resolver(leitor.result as ArrayBuffer);
    leitor.onerror = () => rejeitar(leitor.error);
    leitor.readAsArrayBuffer(blob);
  });

const enviar: Enviar = async (metodo, caminho, opcoes) => {
  if (semSinal) throw new ErroOffline();
  const url = new URL(caminho, 'http://x');
  const [, , , id, partesSufixo] = url.pathname.split('/');
  relogio += 300;
  if (metodo === 'GET') {
    const g = envios.get(id!);
    if (!g) throw new ErroApi(404, 'Envio do comprovante não encontrado.', 'nao_encontrado');
    return { recebidos: g.recebidos, total: g.total, completo: g.completo };
  }
  expect(metodo).toBe('PUT');
  expect(partesSufixo).toBe('partes');
  const inicio = Number(url.searchParams.get('inicio'));
  const total = Number(url.searchParams.get('total'));
  const corpo = new Uint8Array(await lerBlob(opcoes.corpo as Blob));
  const g = envios.get(id!) ?? { total, bytes: new Uint8Array(total), recebidos: 0, completo: false };
  envios.set(id!, g);
  if (inicio > g.recebidos) throw new ErroApi(409, 'continue a partir', 'conflito');
  const indice = partes.length;
  partes.push({ id: id!, inicio, tamanho: corpo.length });
  if (cortarParte === indice) {
    // The link drops mid-part: half of it reached the server, the phone gets no answer.
    g.bytes.set(corpo.subarray(0, Math.floor(corpo.length / 2)), inicio);
    g.recebidos = inicio + Math.floor(corpo.length / 2);
    relogio += (corpo.length * 500) / bytesPorSegundo;
    semSinal = true;
    throw new ErroOffline();
  }
  g.bytes.set(corpo, inicio);
  g.recebidos = inicio + corpo.length;
  relogio += (corpo.length * 1000) / bytesPorSegundo;
  g.completo = g.recebidos === g.total;
  return { recebidos: g.recebidos, total: g.total, completo: g.completo };
};

function criarMotor(extra: Partial<ConstructorParameters<typeof MotorSync>[0]> = {}) {
  return new MotorSync({
    banco,
    operacoes,
    obterSessao: () => ({ usuarioId: 1, token: 'tok' }),
    transporte,
    enviar,
    obterClienteId: async () => 'aparelho',
    travas: null,
    medirMs: () => relogio,
    vazao: new Vazao(banco),
    ...extra,
  });
}

/** A write; with `bytes`, it carries a receipt of that size. */
const escrever = (nome: string, chaves: string[], bytes = 0) =>
  enfileirar(banco, {
    tipo: 'teste.enviar',
    usuarioId: 1,
    dados: { nome },
    chaves,
    descricao: nome,
    ...(bytes > 0 ? { arquivos: [{ nome: `${nome}.pdf`, tipo: 'application/pdf', conteudo: new Uint8Array(bytes).map((_, i) => (i * 7) % 251).buffer }] } : {}),
  });

beforeEach(async () => {
  banco = new BancoLocal(`teste-estrada-${++n}`);
  await banco.open();
  bytesPorSegundo = 250_000 / 8; // the harsh link
  relogio = 0;
  lotes = [];
  envios = new Map();
  partes = [];
  cortarParte = null;
  semSinal = false;
});
afterEach(() => banco.delete());

describe('o motor de sincronização na estrada', () => {
  it('escritas sem arquivo vão primeiro, num lote só de texto; a ordem por entidade continua valendo', async () => {
    await escrever('venda-1', ['venda:1']);
    await escrever('despesa-com-foto', ['despesa:x'], 100_000);
    await escrever('venda-2', ['venda:2']);
    await escrever('edicao-da-despesa', ['despesa:x']); // no file, but waits for its create
    await escrever('visita', ['venda:3']);
    await escrever('outra-foto', ['despesa:y'], 100_000);
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(lotes[0]).toMatchObject({ nomes: ['venda-1', 'venda-2', 'visita'], bytes: 0 });
    const depois = lotes.slice(1).flatMap((l) => l.nomes);
    expect(depois).toEqual(['despesa-com-foto', 'edicao-da-despesa', 'outra-foto']);
    expect(await itensDoUsuario(banco, 1)).toEqual([]);
  });

  it('os comprovantes vão em pedidos do tamanho do link medido, com tempo-limite proporcional', async () => {
    for (let i = 1; i <= 6; i++) await escrever(`foto-${i}`, [`despesa:${i}`], 150_000);
    const vazao = new Vazao(banco);
    const motor = criarMotor({ vazao });
    await motor.sincronizarAgora();
    motor.parar();
    // 250 kbit/s: about 15 s of receipts per request (468 KB), so 3 photos a request, not all 6 in one.
    expect(lotes.map((l) => l.nomes.length)).toEqual([3, 3]);
    for (const l of lotes) {
      expect(l.bytes).toBeLessThanOrEqual((bytesPorSegundo * DURACAO_ALVO_MS) / 1000);
      // The limit scales with the bytes at the measured rate (4x what the link needs: ~58 s here), not a fixed 120 s.
      const previstoMs = (l.bytes * 1000) / bytesPorSegundo;
      expect(l.tempoLimiteMs).toBeGreaterThanOrEqual(Math.floor(4 * previstoMs));
      expect(l.tempoLimiteMs).toBeLessThanOrEqual(Math.ceil((4 * previstoMs) / 0.9));
    }
    // Measured from the requests themselves (the link carried 31 KB/s plus a round trip).
    expect(vazao.bytesPorSegundo()).toBeGreaterThan(bytesPorSegundo * 0.9);
    expect(vazao.bytesPorSegundo()).toBeLessThanOrEqual(bytesPorSegundo);

    // A faster link, measured: the same six photos in one request.
    bytesPorSegundo = 750_000 / 8 * 4;
    lotes = [];
    const rapida = new Vazao(banco);
    await rapida.registrar(3_000_000, 8_000);
    for (let i = 7; i <= 12; i++) await escrever(`foto-${i}`, [`despesa:${i}`], 150_000);
    const outro = criarMotor({ vazao: rapida });
    await outro.sincronizarAgora();
    outro.parar();
    expect(lotes.map((l) => l.nomes.length)).toEqual([6]);
  });

  it('um PDF grande vai em partes; depois de um corte continua do byte que o servidor tem, e as escritas pequenas chegam antes', async () => {
    await escrever('pdf', ['despesa:pdf'], 1_000_000);
    for (let i = 1; i <= 3; i++) await escrever(`venda-${i}`, [`venda:${i}`]);
    cortarParte = 1;
    const motor = criarMotor({ intervaloSondaMs: 60_000 });
    await motor.sincronizarAgora();
    // The small writes landed first, before any part.
    expect(lotes[0]!.nomes).toEqual(['venda-1', 'venda-2', 'venda-3']);
    expect(partes).toHaveLength(2);
    const noServidor = envios.values().next().value!.recebidos;
    expect(noServidor).toBeGreaterThan(partes[1]!.inicio); // half of the cut part arrived
    // No signal: the item is not counted against, nothing waits for a backoff.
    const [pdf] = await itensDoUsuario(banco, 1);
    expect(pdf).toMatchObject({ tentativas: 0, proximaTentativaEm: null });

    semSinal = false;
    await motor.sincronizarAgora({ ignorarEspera: true });
    motor.parar();
    // Resumed exactly at the server's offset: nothing before it sent again.
    expect(partes[2]!.inicio).toBe(noServidor);
    expect(partes.slice(2).reduce((t, p) => t + p.tamanho, 0)).toBe(1_000_000 - noServidor);
    const final = envios.values().next().value!;
    expect(final.completo).toBe(true);
    // The bytes the server holds are the file's, in order.
    expect(final.bytes.every((b, i) => b === (i * 7) % 251)).toBe(true);
    expect(lotes.at(-1)).toMatchObject({ nomes: ['pdf'], bytes: 0, referencias: ['pdf'] });
    expect(await itensDoUsuario(banco, 1)).toEqual([]);
    // Its upload mark is gone with the item.
    expect((await banco.meta.toArray()).filter((m) => m.chave.startsWith('envio:'))).toEqual([]);
  });

  it('entre as partes de um PDF, uma escrita nova passa na frente', async () => {
    await escrever('pdf', ['despesa:pdf'], 1_000_000);
    const motor = criarMotor();
    let novaEscrita = false;
    const enviarComNovidade: Enviar = async (metodo, caminho, opcoes) => {
      const r = await enviar(metodo, caminho, opcoes);
      if (metodo === 'PUT' && !novaEscrita) {
        novaEscrita = true;
        await escrever('venda-nova', ['venda:9']);
      }
      return r;
    };
    const comNovidade = criarMotor({ enviar: enviarComNovidade });
    await comNovidade.sincronizarAgora();
    comNovidade.parar();
    motor.parar();
    expect(lotes.map((l) => l.nomes)).toEqual([['venda-nova'], ['pdf']]);
    expect(partes[1]!.inicio).toBe(partes[0]!.tamanho); // the upload went on where it was
  });

  it('sem sinal a espera não cresce; a sonda acha o sinal sem o evento online e envia', async () => {
    for (let i = 1; i <= 3; i++) await escrever(`venda-${i}`, [`venda:${i}`]);
    semSinal = true;
    let sondagens = 0;
    let sondagensSemSinal = 0;
    const motor = criarMotor({
      intervaloSondaMs: 5,
      sondar: async () => {
        sondagens += 1;
        if (semSinal) {
          sondagensSemSinal += 1;
          throw new ErroOffline();
        }
      },
    });
    await motor.sincronizarAgora();
    await motor.sincronizarAgora();
    await motor.sincronizarAgora(); // periodic passes meanwhile: still no signal, still no attempt counted
    expect(motor.estado().ultimoErroRede).toBe('Sem conexão com o servidor.');
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.tentativas, i.proximaTentativaEm])).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
    // The probe keeps asking while there is no signal...
    await vi.waitFor(() => expect(sondagensSemSinal).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    expect(lotes).toHaveLength(0);
    // ...and the signal comes back with no `online` event: the probe's answer sends the queue.
    semSinal = false;
    await vi.waitFor(async () => expect(await itensDoUsuario(banco, 1)).toEqual([]), { timeout: 5000 });
    // The pass the probe started has ended (it records the sync time last).
    await vi.waitFor(() => expect(motor.estado()).toMatchObject({ sincronizando: false, ultimaSincronizacao: expect.any(String) }), { timeout: 5000 });
    motor.parar();
    expect(sondagens).toBeGreaterThan(sondagensSemSinal);
    expect(lotes).toHaveLength(1);
    expect(motor.estado().online).toBe(true);
  });

  it('uma passada grava as confirmações de cada resposta de lote numa transação só', async () => {
    for (let i = 1; i <= 21; i++) await escrever(`escrita-${i}`, [`venda:${i}`]);
    let transacoesNaFila = 0;
    banco.close();
    banco.use({
      stack: 'dbcore',
      name: 'contador',
      create: (abaixo) => ({
        ...abaixo,
        transaction: (tabelas, modo, opcoes) => {
          if (modo === 'readwrite' && tabelas.includes('outbox')) transacoesNaFila += 1;
          return abaixo.transaction(tabelas, modo, opcoes);
        },
      }),
    });
    await banco.open();
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(lotes).toHaveLength(1);
    expect(await itensDoUsuario(banco, 1)).toEqual([]);
    expect(await banco.sincronizados.count()).toBe(21);
    expect(transacoesNaFila).toBe(1);
  });
  describe('o trabalho do celular entre um pedido e o próximo', () => {
    /** Every receipt record read from IndexedDB during the pass, by file id. */
    const contarLeiturasDeArquivos = () => anotarLeiturasDeValores(banco, 'arquivos', (valor) => (valor as ArquivoLocal).id);

    it('lê do aparelho os bytes de cada comprovante uma vez, só quando ele entra num pedido (não os de toda a fila a cada pedido)', async () => {
      for (let i = 1; i <= 10; i++) await escrever(`foto-${i}`, [`despesa:${i}`], 100_000);
      const ids = (await itensDoUsuario(banco, 1)).flatMap((i) => i.arquivos);
      const lidos = await contarLeiturasDeArquivos();
      const motor = criarMotor();
      await motor.sincronizarAgora();
      motor.parar();
      expect(await itensDoUsuario(banco, 1)).toEqual([]);
      expect(lotes.length).toBeGreaterThan(1);
      expect([...lidos].sort()).toEqual([...ids].sort());
    });

    it('entre as partes de um PDF grande, a fila não é montada de novo com os bytes de todos os comprovantes', async () => {
      await escrever('pdf', ['despesa:pdf'], 1_000_000);
      await escrever('foto-1', ['despesa:f1'], 60_000);
      await escrever('foto-2', ['despesa:f2'], 60_000);
      const ids = (await itensDoUsuario(banco, 1)).flatMap((i) => i.arquivos);
      const lidos = await contarLeiturasDeArquivos();
      const motor = criarMotor();
      await motor.sincronizarAgora();
      motor.parar();
      expect(await itensDoUsuario(banco, 1)).toEqual([]);
      expect(partes.length).toBeGreaterThanOrEqual(3);
      expect([...lidos].sort()).toEqual([...ids].sort());
    });
  });
});
