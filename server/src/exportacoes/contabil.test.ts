/**
 * The month for the accountant (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'): GET
 * /api/exportacoes/contabil answers a ZIP with every expense and sale of the period as CSV, a PDF summary
 * per employee and route, and every receipt of the period's expenses byte for byte, named for people.
 */
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { somarDias } from '../../../shared/dates';
import { digitoVerificadorChave } from '../../../shared/nfce';
import { ARQUIVOS, GOIANIA, camposDeDespesa, criarCenarioDeDespesas, formulario, ontem, sha256, type ArquivoTeste, type CenarioDespesas } from '../../test/despesas';
import { inserirVenda } from '../../test/fabricas';
import { esperarRecusa } from '../../test/helper';
import { textoDoPdf } from '../../test/pdf';
import { lerZip, type EntradaZip } from '../../test/zip';

let c: CenarioDespesas;
const D = ontem();
const inicio = somarDias(D, -9);
const url = (q: string) => `/api/exportacoes/contabil?${q}`;
const periodo = `data_inicio=${inicio}&data_fim=${D}`;

/** Same first bytes as ARQUIVOS.jpeg (a JPEG by its bytes), different content: byte checks tell them apart. */
const jpegDiferente = (semente: number): ArquivoTeste => {
  const a = ARQUIVOS.jpeg();
  for (let i = 100; i < a.conteudo.length; i++) a.conteudo[i] = (i * semente) % 256;
  return { ...a, nome: `foto-${semente}.jpg` };
};

const arquivosEnviados = new Map<string, Buffer>();

async function despesa(token: string, rota: number, extra: Record<string, string | number>, arquivos: ArquivoTeste[] = []): Promise<string> {
  const campos = camposDeDespesa(rota, extra);
  const r = await c.t.chamar({ method: 'POST', url: '/api/despesas', token, ...(await formulario(campos, arquivos)) });
  expect(r.statusCode, r.body).toBe(201);
  return campos.id;
}

let chave: string;
let rejeitada: string;

beforeAll(async () => {
  c = await criarCenarioDeDespesas({}, { ana: 'Ana Estrada', bruno: 'Bruno Campo' });
  const a1 = jpegDiferente(3);
  const a2 = jpegDiferente(5);
  const a3 = ARQUIVOS.pdf();
  const a4 = jpegDiferente(7);
  // Two receipts of one expense and a second expense of the same day, type and value: the names collide.
  await despesa(c.ana.token, c.rotaAna, { data_despesa: D, valor: '48,00', descricao: 'Almoço; equipe' }, [a1, a2, a3]);
  await despesa(c.ana.token, c.rotaAna, { data_despesa: D, valor: '48,00', descricao: 'Jantar' }, [a4]);
  arquivosEnviados.set(`${D}_ana-estrada_alimentacao_48-00.jpg`, a1.conteudo);
  arquivosEnviados.set(`${D}_ana-estrada_alimentacao_48-00-2.jpg`, a2.conteudo);
  arquivosEnviados.set(`${D}_ana-estrada_alimentacao_48-00.pdf`, a3.conteudo);
  arquivosEnviados.set(`${D}_ana-estrada_alimentacao_48-00-3.jpg`, a4.conteudo);
  const c43 = `522611${'12345678000195'}65001${'000000777'}1${'00004321'}`;
  chave = c43 + digitoVerificadorChave(c43);
  await despesa(c.ana.token, c.rotaAna, { data_despesa: somarDias(D, -1), tipo: 'outro', tipo_outro: 'Lavanderia', valor: '20,50', descricao: '', chave_nfce: chave });
  rejeitada = await despesa(c.ana.token, c.rotaAna, { data_despesa: somarDias(D, -2), tipo: 'hospedagem', valor: '150,00', descricao: 'Hotel' });
  const r = await c.t.chamar({ method: 'PATCH', url: `/api/despesas/${rejeitada}/rejeitar`, token: c.tokenAdmin, payload: { motivo: 'Sem nota fiscal' } });
  expect(r.statusCode, r.body).toBe(200);
  // Outside the period, and deleted: never in the file.
  await despesa(c.ana.token, c.rotaAna, { data_despesa: somarDias(D, -30), tipo: 'pedagio', valor: '9,90', descricao: 'Pedágio antigo' }, [jpegDiferente(11)]);
  const excluida = await despesa(c.ana.token, c.rotaAna, { data_despesa: D, valor: '1,00', descricao: 'Apagada' });
  expect((await c.t.chamar({ method: 'DELETE', url: `/api/despesas/${excluida}`, token: c.ana.token })).statusCode).toBe(200);
  // Bruno: an approved fuel expense, credits, a finished route and its acerto.
  const combustivel = await despesa(c.bruno.token, c.rotaBruno, { data_despesa: D, tipo: 'combustivel', valor: '200,00', descricao: 'Posto', cidade_id: 5204508 });
  expect((await c.t.chamar({ method: 'PATCH', url: `/api/despesas/${combustivel}/aprovar`, token: c.tokenAdmin })).statusCode).toBe(200);
  for (const [funcionario, rota, valor] of [
    [c.ana.id, c.rotaAna, 500],
    [c.bruno.id, c.rotaBruno, 300],
  ] as const) {
    const credito = await c.t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: c.tokenAdmin, payload: { funcionario_id: funcionario, valor, descricao: 'Adiantamento', rota_id: rota } });
    expect(credito.statusCode, credito.body).toBe(201);
  }
  expect((await c.t.chamar({ method: 'PATCH', url: `/api/rotas/${c.rotaBruno}/finalizar`, token: c.bruno.token })).statusCode).toBe(200);
  const acerto = await c.t.chamar({ method: 'POST', url: `/api/rotas/${c.rotaBruno}/acerto`, token: c.tokenAdmin, payload: { valor: 100, sentido: 'devolvido', observacao: '' } });
  expect(acerto.statusCode, acerto.body).toBe(201);
  // Sales: two in the period, one before it.
  await inserirVenda(c.t.db, c.rotaAna, c.ana.id, GOIANIA, D, { dinheiro: 10000, pix: 2550, cartao: 0, link: 0, boletos: 2 });
  await inserirVenda(c.t.db, c.rotaBruno, c.bruno.id, 5204508, somarDias(D, -1), { dinheiro: 0, pix: 0, cartao: 33333, link: 100, boletos: 0 });
  await inserirVenda(c.t.db, c.rotaAna, c.ana.id, GOIANIA, somarDias(D, -40), { dinheiro: 99900 });
}, 60_000);
afterAll(() => c.t.fechar());

async function baixar(q = periodo) {
  const r = await c.t.chamar({ method: 'GET', url: url(q), token: c.tokenAdmin });
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  return { r, entradas: lerZip(r.rawPayload) };
}

const texto = (e: EntradaZip | undefined) => {
  expect(e).toBeDefined();
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(e!.dados);
};
const linhasCsv = (csv: string) => csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);

describe('GET /api/exportacoes/contabil', () => {
  it('responde um ZIP com o nome do período, sem guardar em cache', async () => {
    const { r, entradas } = await baixar();
    expect(r.headers['content-type']).toBe('application/zip');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="contabilidade_${inicio}_a_${D}.zip"`);
    expect(r.headers['cache-control']).toBe('no-store');
    const nomes = entradas.map((e) => e.nome);
    expect(nomes.slice(0, 3)).toEqual(['despesas.csv', 'vendas.csv', 'resumo.pdf']);
    expect(nomes.slice(3).sort()).toEqual([...arquivosEnviados.keys()].map((n) => `comprovantes/${n}`).sort());
  });

  it('despesas.csv: toda despesa do período (qualquer status, nunca as excluídas), com BOM, ponto e vírgula e vírgula decimal', async () => {
    const { entradas } = await baixar();
    const csv = texto(entradas.find((e) => e.nome === 'despesas.csv'));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [cabecalho, ...linhas] = linhasCsv(csv);
    expect(cabecalho).toBe(
      'Data;Funcionário;Rota;Cidade;UF;Tipo;Valor;Descrição;Status;Motivo da rejeição;Chave da NFC-e;Comprovantes;Arquivos no ZIP',
    );
    expect(linhas).toHaveLength(5);
    const d = (dia: string) => `${dia.slice(8, 10)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}`;
    expect(linhas).toContain(
      `${d(D)};Ana Estrada;Rota Centro-Oeste;Anápolis;GO;Alimentação;48;"Almoço; equipe";Pendente;;;3;` +
        `comprovantes/${D}_ana-estrada_alimentacao_48-00.jpg | comprovantes/${D}_ana-estrada_alimentacao_48-00-2.jpg | comprovantes/${D}_ana-estrada_alimentacao_48-00.pdf`,
    );
    expect(linhas).toContain(`${d(D)};Ana Estrada;Rota Centro-Oeste;Anápolis;GO;Alimentação;48;Jantar;Pendente;;;1;comprovantes/${D}_ana-estrada_alimentacao_48-00-3.jpg`);
    expect(linhas).toContain(`${d(somarDias(D, -1))};Ana Estrada;Rota Centro-Oeste;Anápolis;GO;Outro: Lavanderia;20,50;;Pendente;;${chave};0;`);
    expect(linhas).toContain(`${d(somarDias(D, -2))};Ana Estrada;Rota Centro-Oeste;Anápolis;GO;Hospedagem;150;Hotel;Rejeitada;Sem nota fiscal;;0;`);
    expect(linhas).toContain(`${d(D)};Bruno Campo;Rota Sul;Caldas Novas;GO;Combustível;200;Posto;Aprovada;;;0;`);
    // Oldest first: the accountant reads the month in order.
    expect(linhas[0]!.startsWith(d(somarDias(D, -2)))).toBe(true);
    expect(csv).not.toContain('Pedágio antigo');
    expect(csv).not.toContain('Apagada');
  });

  it('vendas.csv: toda venda do período, com status da rota, formas de pagamento, boletos e total', async () => {
    const { entradas } = await baixar();
    const [cabecalho, ...linhas] = linhasCsv(texto(entradas.find((e) => e.nome === 'vendas.csv')));
    expect(cabecalho).toBe('Data;Funcionário;Rota;Status da rota;Cidade;UF;Dinheiro;Pix;Cartão;Link;Boletos;Total;Observações');
    const d = (dia: string) => `${dia.slice(8, 10)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}`;
    expect(linhas).toEqual([
      `${d(somarDias(D, -1))};Bruno Campo;Rota Sul;Finalizada;Caldas Novas;GO;0;0;333,33;1;0;334,33;`,
      `${d(D)};Ana Estrada;Rota Centro-Oeste;Ativa;Goiânia;GO;100;25,50;0;0;2;125,50;`,
    ]);
  });

  it('os comprovantes saem byte a byte como foram guardados, com o sufixo quando o nome se repete', async () => {
    const { entradas } = await baixar();
    for (const [nome, bytes] of arquivosEnviados) {
      const e = entradas.find((x) => x.nome === `comprovantes/${nome}`);
      expect(e, nome).toBeDefined();
      expect(sha256(e!.dados), nome).toBe(sha256(bytes));
    }
  });

  it('resumo.pdf: por funcionário e rota, com créditos, despesas por tipo e status, salário, a devolver e os acertos; diz que os números são da rota inteira', async () => {
    const { entradas } = await baixar();
    const pdf = entradas.find((e) => e.nome === 'resumo.pdf')!;
    expect(pdf.dados.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // To look at the pages: RESUMO_PDF_SAIDA=/tmp/resumo.pdf, then pdftoppm -png.
    if (process.env.RESUMO_PDF_SAIDA) fs.writeFileSync(process.env.RESUMO_PDF_SAIDA, pdf.dados);
    const textoPdf = await textoDoPdf(pdf.dados);
    expect(textoPdf).toContain('Ana Estrada');
    expect(textoPdf).toContain('Bruno Campo');
    expect(textoPdf).toContain('Rota Centro-Oeste');
    expect(textoPdf).toContain('Rota Sul');
    expect(textoPdf).toMatch(/rota inteira/i);
    expect(textoPdf).toContain('Créditos');
    expect(textoPdf).toContain('R$ 500,00');
    expect(textoPdf).toContain('Despesas rejeitadas');
    expect(textoPdf).toContain('Hospedagem');
    expect(textoPdf).toContain('A devolver');
    // Bruno's acerto: R$ 100,00 returned, by the admin.
    expect(textoPdf).toContain('Devolvido pelo funcionário');
    expect(textoPdf).toContain('R$ 100,00');
    expect(textoPdf).toContain('Administrador');
  });

  it('com funcionario_id, só as despesas, vendas, comprovantes e rotas daquele funcionário', async () => {
    const { entradas } = await baixar(`${periodo}&funcionario_id=${c.bruno.id}`);
    const despesas = linhasCsv(texto(entradas.find((e) => e.nome === 'despesas.csv'))).slice(1);
    expect(despesas).toHaveLength(1);
    expect(despesas[0]).toContain('Bruno Campo');
    const vendas = linhasCsv(texto(entradas.find((e) => e.nome === 'vendas.csv'))).slice(1);
    expect(vendas).toHaveLength(1);
    expect(entradas.filter((e) => e.nome.startsWith('comprovantes/'))).toHaveLength(0);
    const textoPdf = await textoDoPdf(entradas.find((e) => e.nome === 'resumo.pdf')!.dados);
    expect(textoPdf).not.toContain('Ana Estrada');
  });

  it('um período sem nada ainda é um ZIP com os dois CSVs só com o cabeçalho e o resumo dizendo que não houve movimento', async () => {
    const { entradas } = await baixar('data_inicio=2020-01-01&data_fim=2020-01-31');
    expect(entradas.map((e) => e.nome)).toEqual(['despesas.csv', 'vendas.csv', 'resumo.pdf']);
    expect(linhasCsv(texto(entradas[0]))).toHaveLength(1);
    expect(await textoDoPdf(entradas[2]!.dados)).toContain('Nenhuma movimentação no período');
  });

  it('recusa o período invertido e o maior que um ano com 422 em pt-BR; datas ausentes ou inválidas com 400', async () => {
    const admin = c.tokenAdmin;
    esperarRecusa(await c.t.chamar({ method: 'GET', url: url('data_inicio=2026-12-01&data_fim=2026-11-30'), token: admin }), 422, 'regra_de_negocio', 'A data inicial (01/12/2026) é depois da data final (30/11/2026).');
    esperarRecusa(
      await c.t.chamar({ method: 'GET', url: url('data_inicio=2025-01-01&data_fim=2026-01-02'), token: admin }),
      422,
      'regra_de_negocio',
      'O período tem 367 dias: exporte no máximo 366 dias (um ano) de cada vez.',
    );
    esperarRecusa(await c.t.chamar({ method: 'GET', url: url('data_fim=2026-11-30'), token: admin }), 400, 'dados_invalidos', 'Data inicial é obrigatória.');
    esperarRecusa(await c.t.chamar({ method: 'GET', url: url('data_inicio=2026-11-01&data_fim=2026-11-31'), token: admin }), 400, 'dados_invalidos', /Data final inválida/);
  });

  it('uma falha do armazenamento no meio do envio corta o download, sem derrubar o servidor nem prender a vaga', async () => {
    const armazenamento = c.t.app.armazenamento;
    const abrir = armazenamento.abrir;
    armazenamento.abrir = async (nome) => {
      const aberto = await abrir.call(armazenamento, nome);
      if (!aberto) return aberto;
      // The bucket answers the size, sends a few bytes and drops the connection.
      return {
        ...aberto,
        fluxo: () => {
          const fluxo = new PassThrough();
          fluxo.write(Buffer.alloc(64, 1));
          setImmediate(() => fluxo.destroy(new Error('conexão com o bucket caiu')));
          return fluxo;
        },
      };
    };
    try {
      for (let i = 0; i < 3; i++) {
        const r = await c.t.chamar({ method: 'GET', url: url(periodo), token: c.tokenAdmin }).catch((erro: unknown) => erro);
        // Cut after the first bytes: the status was already sent; what arrived is not a whole ZIP.
        if (!(r instanceof Error)) expect(() => lerZip((r as { rawPayload: Buffer }).rawPayload)).toThrow();
      }
    } finally {
      armazenamento.abrir = abrir;
    }
    // The server goes on, and the slots were given back: the same export works whole.
    const { entradas } = await baixar();
    expect(entradas.filter((e) => e.nome.startsWith('comprovantes/'))).toHaveLength(arquivosEnviados.size);
  });

  it('no máximo duas exportações ao mesmo tempo: a terceira recebe 503 com Retry-After', async () => {
    // Another admin asks the third: one user's own requests already wait in line two at a time (plugins/vezPorUsuario.ts).
    const outro = await c.t.chamar({ method: 'POST', url: '/api/usuarios', token: c.tokenAdmin, payload: { nome: 'Outra Admin', email: 'outra.admin@teste.com.br', senha: 'senha123', tipo: 'admin' } });
    expect(outro.statusCode, outro.body).toBe(201);
    const outraAdmin = await c.t.login('outra.admin@teste.com.br', 'senha123');
    const armazenamento = c.t.app.armazenamento;
    const abrir = armazenamento.abrir;
    const esperando: (() => void)[] = [];
    // The receipts' storage holds the first two exports in the middle of their ZIP.
    armazenamento.abrir = (nome) => new Promise((ok) => esperando.push(() => void abrir.call(armazenamento, nome).then(ok)));
    try {
      const primeira = c.t.chamar({ method: 'GET', url: url(periodo), token: c.tokenAdmin });
      const segunda = c.t.chamar({ method: 'GET', url: url(periodo), token: c.tokenAdmin });
      await vi.waitFor(() => expect(esperando.length).toBe(2));
      const terceira = await c.t.chamar({ method: 'GET', url: url(periodo), token: outraAdmin });
      esperarRecusa(terceira, 503, 'indisponivel', 'Já há 2 exportações em andamento. Tente novamente em alguns segundos.');
      expect(terceira.headers['retry-after']).toBe('5');
      armazenamento.abrir = abrir;
      for (const seguir of esperando.splice(0)) seguir();
      for (const r of await Promise.all([primeira, segunda])) expect(lerZip(r.rawPayload).length).toBe(3 + arquivosEnviados.size);
    } finally {
      armazenamento.abrir = abrir;
    }
  });

  it('só o admin: o funcionário recebe 403 e o anônimo 401', async () => {
    esperarRecusa(await c.t.chamar({ method: 'GET', url: url(periodo), token: c.ana.token }), 403, 'sem_permissao');
    esperarRecusa(await c.t.chamar({ method: 'GET', url: url(periodo) }), 401, 'nao_autenticado');
  });
});
