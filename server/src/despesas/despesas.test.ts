import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dataNoFuso, hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, SAO_PAULO, criarRotaAtiva, formulario, sha256, type ArquivoTeste, camposDeDespesa, criarCenarioDeDespesas, ontem } from '../../test/despesas';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';
import { MENSAGEM_TIPO_ARQUIVO } from '../../../shared/schemas/despesas';
import { rotas } from '../db/tabelas';

interface Pessoa {
  id: number;
  email: string;
  senha: string;
  token: string;
}
interface Despesa {
  id: string;
  valor: number;
  tipo: string;
  tipo_outro: string | null;
  cupom_url: string | null;
  cupom_mime: string | null;
  cupom_nome: string | null;
  arquivo_cupom: string | null;
  status_aprovacao: string;
  aprovada: boolean;
  rejeitada: boolean;
  motivo_rejeicao: string | null;
  excluida: boolean;
  cidade_nome: string;
  cidade_uf: string;
  rota_nome: string;
  funcionario_nome: string;
  [campo: string]: unknown;
}
interface Movimentacao {
  id: number;
  tipo: 'credito' | 'debito' | 'devolucao';
  valor: number;
  saldo_anterior: number;
  saldo_novo: number;
  descricao: string;
  despesa_id: string | null;
  funcionario_id: number;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;
let rotaBruno: number;

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno, rotaBruno } = await criarCenarioDeDespesas());
});
afterAll(async () => {
  await t?.fechar();
});

const camposDespesa = (extra: Record<string, string | number> = {}, rota = rotaAna) => camposDeDespesa(rota, extra);

async function criar(quem: Pessoa, campos: Record<string, string | number>, arquivo?: ArquivoTeste): Promise<LightMyRequestResponse> {
  const corpo = await formulario(campos, arquivo);
  return t.chamar({ method: 'POST', url: '/api/despesas', token: quem.token, ...corpo });
}

async function editar(quem: Pessoa, id: string, campos: Record<string, string | number>, arquivo?: ArquivoTeste): Promise<LightMyRequestResponse> {
  const corpo = await formulario(campos, arquivo);
  return t.chamar({ method: 'PUT', url: `/api/despesas/${id}`, token: quem.token, ...corpo });
}

async function criarOk(quem: Pessoa, campos: Record<string, string | number>, arquivo?: ArquivoTeste): Promise<Despesa> {
  const r = await criar(quem, campos, arquivo);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().despesa;
}

async function movimentacoes(funcionarioId: number): Promise<Movimentacao[]> {
  const r = await t.chamar({ method: 'GET', url: `/api/saldo/movimentacoes?funcionario_id=${funcionarioId}&limit=500`, token: tokenAdmin });
  expect(r.statusCode, r.body).toBe(200);
  return (r.json().movimentacoes as Movimentacao[]).reverse(); // oldest first
}

async function saldoDe(quem: Pessoa): Promise<number> {
  const r = await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: quem.token });
  return r.json().saldo_atual;
}

const arquivosNoDisco = () => fs.readdirSync(path.join(t.dataDir, 'uploads')).sort();

/** Each movement starts where the previous one ended, and the last one is the balance. */
function esperarCadeia(movs: Movimentacao[], saldoFinal: number) {
  let anterior = 0;
  let somaCentavos = 0;
  for (const m of movs) {
    expect(m.saldo_anterior).toBe(anterior);
    const efeito = Math.round(m.valor * 100) * (m.tipo === 'debito' ? -1 : 1);
    expect(Math.round(m.saldo_novo * 100)).toBe(Math.round(m.saldo_anterior * 100) + efeito);
    somaCentavos += efeito;
    anterior = m.saldo_novo;
  }
  expect(anterior).toBe(saldoFinal);
  expect(somaCentavos).toBe(Math.round(saldoFinal * 100));
}

describe('registrar despesa (multipart)', () => {
  it('grava com o cupom, debita o saldo e devolve os campos da especificação', async () => {
    const campos = camposDespesa({ valor: '123,45', descricao: '  Jantar com a equipe  ' });
    const arquivo = ARQUIVOS.jpeg();
    const r = await criar(ana, campos, arquivo);
    expect(r.statusCode, r.body).toBe(201);
    const d = r.json().despesa as Despesa;
    expect(d).toMatchObject({
      id: campos.id,
      rota_id: rotaAna,
      cidade_id: ANAPOLIS,
      data_despesa: campos.data_despesa,
      tipo: 'alimentacao',
      tipo_outro: null,
      valor: 123.45,
      descricao: 'Jantar com a equipe',
      cupom_url: `/api/despesas/${campos.id}/cupom`,
      cupom_mime: 'image/jpeg',
      cupom_nome: 'nota.jpg',
      status_aprovacao: 'pendente',
      aprovada: false,
      rejeitada: false,
      motivo_rejeicao: null,
      funcionario_nome: 'Ana Estrada',
      rota_nome: 'Rota Centro-Oeste',
      rota_status: 'ativa',
      cidade_nome: 'Anápolis',
      cidade_uf: 'GO',
      excluida: false,
    });
    expect(d.arquivo_cupom).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(typeof d.registrado_em).toBe('string');
    expect(typeof d.recebido_em).toBe('string');
    const movs = (await movimentacoes(ana.id)).filter((m) => m.despesa_id === campos.id);
    expect(movs).toEqual([expect.objectContaining({ tipo: 'debito', valor: 123.45, descricao: 'Despesa: Alimentação — Anápolis' })]);
  });

  it('aceita cada tipo de comprovante pelos bytes, com a extensão do tipo detectado', async () => {
    for (const [tipo, ext] of [
      ['png', 'png'],
      ['webp', 'webp'],
      ['heic', 'heic'],
      ['pdf', 'pdf'],
      ['doc', 'doc'],
      ['docx', 'docx'],
    ] as const) {
      const d = await criarOk(ana, camposDespesa({ valor: '1' }), ARQUIVOS[tipo]());
      expect(d.arquivo_cupom, tipo).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
    }
  });

  it('recusa tipos forjados (415) sem gravar nada', async () => {
    const antes = { arquivos: arquivosNoDisco(), movs: (await movimentacoes(ana.id)).length };
    const exe = { nome: 'cupom.jpg', tipo: 'image/jpeg', conteudo: Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(500)]) };
    const texto = { nome: 'nota.pdf', tipo: 'application/pdf', conteudo: Buffer.from('isto não é um PDF, é só texto\n') };
    const zip = { nome: 'recibo.docx', tipo: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', conteudo: Buffer.from('PK\x03\x04 arquivo.txt', 'latin1') };
    const html = { nome: '../../etc/cupom.png', tipo: 'image/png', conteudo: Buffer.from('<html><script>alert(1)</script></html>') };
    for (const arquivo of [exe, texto, zip, html]) {
      const campos = camposDespesa();
      const r = await criar(ana, campos, arquivo);
      esperarRecusa(r, 415, 'tipo_nao_suportado', MENSAGEM_TIPO_ARQUIVO);
      const lista = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
      expect(lista.json().despesas.some((d: Despesa) => d.id === campos.id)).toBe(false);
    }
    expect(arquivosNoDisco()).toEqual(antes.arquivos);
    expect((await movimentacoes(ana.id)).length).toBe(antes.movs);
  });

  it('recusa arquivo acima de 20 MB com 413 claro, sem despesa, arquivo parcial ou movimentação', async () => {
    const antes = { arquivos: arquivosNoDisco(), movs: (await movimentacoes(ana.id)).length };
    const grande = Buffer.alloc(20 * 1024 * 1024 + 1);
    grande.set([0xff, 0xd8, 0xff, 0xe0]);
    const campos = camposDespesa();
    const r = await criar(ana, campos, { nome: 'enorme.jpg', tipo: 'image/jpeg', conteudo: grande });
    esperarRecusa(r, 413, 'arquivo_grande', 'O arquivo é grande demais. O limite é 20 MB.');
    expect(arquivosNoDisco()).toEqual(antes.arquivos);
    expect((await movimentacoes(ana.id)).length).toBe(antes.movs);
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    expect(lista.json().despesas.some((d: Despesa) => d.id === campos.id)).toBe(false);
  });

  it('exatamente 20 MB passa', async () => {
    const limite = Buffer.alloc(20 * 1024 * 1024);
    limite.set(Buffer.from('%PDF-1.7\n', 'latin1'));
    const d = await criarOk(ana, camposDespesa({ valor: '0,01' }), { nome: 'grande.pdf', tipo: 'application/pdf', conteudo: limite });
    const r = await t.chamar({ method: 'GET', url: d.cupom_url!, token: ana.token });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.length).toBe(limite.length);
  });

  it('sem cupom também registra', async () => {
    const d = await criarOk(ana, camposDespesa({ tipo: 'pedagio', valor: '7,80' }));
    expect(d).toMatchObject({ cupom_url: null, arquivo_cupom: null, cupom_mime: null, valor: 7.8 });
  });

  it('valida os campos com mensagens em português', async () => {
    const casos: [Record<string, string | number>, string][] = [
      [camposDespesa({ tipo: 'outro' }), 'Especifique o tipo da despesa.'],
      [camposDespesa({ valor: '0' }), 'Valor deve ser maior que zero.'],
      [camposDespesa({ valor: '-5' }), 'Valor não pode ser negativo.'],
      [camposDespesa({ valor: '12,345' }), 'Valor deve ter no máximo 2 casas decimais.'],
      [camposDespesa({ tipo: 'bebida' }), 'Tipo de despesa inválido.'],
      [camposDespesa({ data_despesa: '2026-02-30' }), 'Data da despesa inválida (use o formato aaaa-mm-dd).'],
      [camposDespesa({ id: 'nao-e-uuid' }), 'Identificador da despesa inválido.'],
      [{ ...camposDespesa(), cidade_id: '' }, 'Cidade é obrigatória.'],
    ];
    for (const [campos, mensagem] of casos) esperarRecusa(await criar(ana, campos), 400, 'dados_invalidos', mensagem);
    const outro = await criarOk(ana, camposDespesa({ tipo: 'outro', tipo_outro: 'Lavanderia', valor: '30' }));
    expect(outro).toMatchObject({ tipo: 'outro', tipo_outro: 'Lavanderia' });
    const mov = (await movimentacoes(ana.id)).find((m) => m.despesa_id === outro.id);
    expect(mov?.descricao).toBe('Despesa: Lavanderia — Anápolis');
    // tipo_outro only means something for 'outro'.
    const comum = await criarOk(ana, camposDespesa({ tipo: 'hospedagem', tipo_outro: 'ignorado' }));
    expect(comum.tipo_outro).toBeNull();
  });

  it('regras de rota, data e papel', async () => {
    esperarRecusa(await criar(ana, camposDespesa({ cidade_id: SAO_PAULO })), 422, 'regra_de_negocio', 'Esta cidade não faz parte da rota.');
    esperarRecusa(await criar(ana, camposDespesa({}, rotaBruno)), 404, 'nao_encontrado', 'Rota não encontrada.');
    esperarRecusa(
      await criar(ana, camposDespesa({ data_despesa: somarDias(hoje('America/Sao_Paulo'), 1) })),
      422,
      'regra_de_negocio',
      'A data da despesa não pode estar no futuro.',
    );
    const comoAdmin = await t.chamar({ method: 'POST', url: '/api/despesas', token: tokenAdmin, ...(await formulario(camposDespesa())) });
    esperarRecusa(comoAdmin, 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/despesas', ...(await formulario(camposDespesa())) }), 401, 'nao_autenticado');
  });
});

describe('idempotência pelo id do cliente', () => {
  it('o mesmo id de novo devolve a despesa guardada e não muda nada (nem o saldo, nem os arquivos)', async () => {
    const campos = camposDespesa({ valor: '50' });
    const primeira = await criarOk(ana, campos, ARQUIVOS.pdf());
    const antes = { arquivos: arquivosNoDisco(), movs: await movimentacoes(ana.id), saldo: await saldoDe(ana) };
    const r = await criar(ana, { ...campos, valor: '999' }, ARQUIVOS.jpeg());
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa).toEqual(primeira);
    expect(arquivosNoDisco()).toEqual(antes.arquivos);
    expect(await movimentacoes(ana.id)).toEqual(antes.movs);
    expect(await saldoDe(ana)).toBe(antes.saldo);
  });

  it('o mesmo id de outro funcionário é 409', async () => {
    const campos = camposDespesa();
    await criarOk(ana, campos);
    const r = await criar(bruno, { ...campos, rota_id: rotaBruno, cidade_id: CALDAS_NOVAS });
    esperarRecusa(r, 409, 'conflito', 'Este identificador já foi usado por outro registro.');
  });

  it('um id excluído responde o estado excluído e nunca ressuscita', async () => {
    const campos = camposDespesa({ valor: '20' });
    await criarOk(ana, campos);
    expect((await t.chamar({ method: 'DELETE', url: `/api/despesas/${campos.id}`, token: ana.token })).statusCode).toBe(200);
    const movs = await movimentacoes(ana.id);
    const r = await criar(ana, campos);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa).toMatchObject({ id: campos.id, excluida: true });
    expect(await movimentacoes(ana.id)).toEqual(movs);
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    expect(lista.json().despesas.some((d: Despesa) => d.id === campos.id)).toBe(false);
  });
});

describe('cupom: servido só ao admin e ao dono, idêntico ao enviado', () => {
  it('ida e volta pelo hash, com Content-Type, inline e nosniff; por bearer ou cookie', async () => {
    const arquivo = ARQUIVOS.pdf();
    const d = await criarOk(ana, camposDespesa(), { ...arquivo, nome: 'Cupom São João.pdf' });
    for (const token of [ana.token, tokenAdmin]) {
      const r = await t.chamar({ method: 'GET', url: d.cupom_url!, token });
      expect(r.statusCode).toBe(200);
      expect(sha256(r.rawPayload)).toBe(sha256(arquivo.conteudo));
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-disposition']).toBe(`inline; filename="Cupom Sao Joao.pdf"; filename*=UTF-8''Cupom%20S%C3%A3o%20Jo%C3%A3o.pdf`);
    }
    // <img src> and <iframe src> carry only the httpOnly session cookie.
    const login = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: ana.email, senha: ana.senha } });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const porCookie = await t.chamar({ method: 'GET', url: d.cupom_url!, headers: { cookie } });
    expect(porCookie.statusCode).toBe(200);
    expect(sha256(porCookie.rawPayload)).toBe(sha256(arquivo.conteudo));
  });

  it('outro funcionário e anônimo não veem; caminho no nome do arquivo não influencia nada', async () => {
    const d = await criarOk(ana, camposDespesa(), { ...ARQUIVOS.png(), nome: '../../../app.db' });
    esperarRecusa(await t.chamar({ method: 'GET', url: d.cupom_url!, token: bruno.token }), 404, 'nao_encontrado');
    esperarRecusa(await t.chamar({ method: 'GET', url: d.cupom_url! }), 401, 'nao_autenticado');
    // The folders go; the name ends in the type the bytes are (docs/decisions/seguranca.md, 'Nome do comprovante').
    expect(d.cupom_nome).toBe('app.db.png');
    expect(d.arquivo_cupom).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', d.arquivo_cupom!))).toBe(true);
  });

  it('revalida pelo ETag', async () => {
    const d = await criarOk(ana, camposDespesa(), ARQUIVOS.jpeg());
    const r = await t.chamar({ method: 'GET', url: d.cupom_url!, token: ana.token });
    const r304 = await t.chamar({ method: 'GET', url: d.cupom_url!, token: ana.token, headers: { 'if-none-match': String(r.headers.etag) } });
    expect(r304.statusCode).toBe(304);
  });
});

describe('editar e excluir', () => {
  it('troca, mantém e remove o cupom; o arquivo antigo some só depois', async () => {
    const campos = camposDespesa({ valor: '10' });
    const d = await criarOk(ana, campos, ARQUIVOS.jpeg());
    const { id: _id, rota_id: _rota, ...resto } = campos;
    // keep
    let r = await editar(ana, d.id, { ...resto, descricao: 'Só o texto mudou' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa).toMatchObject({ arquivo_cupom: d.arquivo_cupom, descricao: 'Só o texto mudou' });
    // replace
    const novo = ARQUIVOS.pdf();
    r = await editar(ana, d.id, { ...resto }, novo);
    const trocada = r.json().despesa as Despesa;
    expect(trocada.arquivo_cupom).not.toBe(d.arquivo_cupom);
    expect(trocada.cupom_mime).toBe('application/pdf');
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', d.arquivo_cupom!))).toBe(false);
    const baixado = await t.chamar({ method: 'GET', url: trocada.cupom_url!, token: ana.token });
    expect(sha256(baixado.rawPayload)).toBe(sha256(novo.conteudo));
    // remove
    r = await editar(ana, d.id, { ...resto, excluir_cupom: 'true' });
    expect(r.json().despesa).toMatchObject({ arquivo_cupom: null, cupom_url: null });
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', trocada.arquivo_cupom!))).toBe(false);
    esperarRecusa(await t.chamar({ method: 'GET', url: trocada.cupom_url!, token: ana.token }), 404, 'nao_encontrado');
  });

  it('um novo cupom forjado na edição é recusado e nada muda', async () => {
    const campos = camposDespesa();
    const d = await criarOk(ana, campos, ARQUIVOS.jpeg());
    const r = await editar(ana, d.id, { ...campos, valor: '1' }, { nome: 'x.png', tipo: 'image/png', conteudo: Buffer.from('GIF89a') });
    esperarRecusa(r, 415, 'tipo_nao_suportado');
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    expect(lista.json().despesas.find((x: Despesa) => x.id === d.id)).toMatchObject({ valor: 45.9, arquivo_cupom: d.arquivo_cupom });
  });

  it('outro funcionário não edita nem exclui (404); o admin não escreve (403)', async () => {
    const campos = camposDespesa();
    const d = await criarOk(ana, campos);
    esperarRecusa(await editar(bruno, d.id, { ...campos, cidade_id: CALDAS_NOVAS }), 404, 'nao_encontrado', 'Despesa não encontrada.');
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: bruno.token }), 404, 'nao_encontrado');
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: tokenAdmin }), 403, 'sem_permissao');
    const r = await t.chamar({ method: 'PUT', url: `/api/despesas/${d.id}`, token: tokenAdmin, ...(await formulario(campos)) });
    esperarRecusa(r, 403, 'sem_permissao');
    esperarRecusa(await editar(ana, d.id, { ...campos, rota_id: rotaBruno }), 422, 'regra_de_negocio', 'Uma despesa não pode mudar de rota.');
  });

  it('só enquanto Pendente: depois de avaliada, 409; uma edição repetida sem mudança ainda é respondida', async () => {
    const campos = camposDespesa({ valor: '33' });
    const d = await criarOk(ana, campos);
    const { id: _id, ...resto } = campos;
    expect((await editar(ana, d.id, { ...resto, valor: '34' })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'PATCH', url: `/api/despesas/${d.id}/aprovar`, token: tokenAdmin })).statusCode).toBe(200);
    const repetida = await editar(ana, d.id, { ...resto, valor: '34' });
    expect(repetida.statusCode, repetida.body).toBe(200);
    esperarRecusa(await editar(ana, d.id, { ...resto, valor: '35' }), 409, 'conflito', 'Esta despesa já foi avaliada e não pode mais ser alterada.');
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token }), 409, 'conflito');
  });

  it('excluir duas vezes é 200 nas duas, com uma devolução só; o cupom sai do disco', async () => {
    const d = await criarOk(ana, camposDespesa({ valor: '12,34' }), ARQUIVOS.png());
    const r1 = await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toMatchObject({ message: 'Despesa excluída com sucesso!', despesa: { excluida: true, cupom_url: null } });
    const r2 = await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: ana.token });
    expect(r2.statusCode).toBe(200);
    const devolucoes = (await movimentacoes(ana.id)).filter((m) => m.despesa_id === d.id && m.tipo === 'devolucao');
    expect(devolucoes).toEqual([expect.objectContaining({ valor: 12.34, descricao: 'Exclusão da despesa: Alimentação — Anápolis' })]);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', d.arquivo_cupom!))).toBe(false);
  });
});

describe('rota finalizada ou cancelada: vale a data da despesa', () => {
  const FINALIZADA = 'Esta rota já foi finalizada e não aceita novos registros.';
  const CANCELADA = 'Esta rota foi cancelada e não aceita novos registros.';
  const HOJE = () => hoje('America/Sao_Paulo');

  /** A route that started 30 days ago (dates relative to today). */
  async function rotaDesde30Dias(funcionarioId: number, cidades: number[]): Promise<number> {
    const r = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: tokenAdmin,
      payload: { nome: `Rota ${funcionarioId}`, funcionario_id: funcionarioId, valor_aluguel: 0, data_inicio: somarDias(HOJE(), -30), data_fim: somarDias(HOJE(), 30), cidades },
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().rota.id as number;
  }

  /** Moves the moment the route closed `dias` days back; returns that day (APP_TZ), its active period's last. */
  async function fechadaHaDias(rotaId: number, coluna: 'finalizadaEm' | 'canceladaEm', dias: number): Promise<string> {
    const instante = new Date(Date.now() - dias * 86_400_000).toISOString();
    await t.db.update(rotas).set({ [coluna]: instante }).where(eq(rotas.id, rotaId));
    return dataNoFuso(new Date(instante), t.config.appTz);
  }

  it('finalizada pelo funcionário: criar, editar e excluir são 409 rota_finalizada, de qualquer data; nada muda; a criação reenviada é respondida', async () => {
    const carla = await t.criarFuncionario({ nome: 'Carla Final' });
    const rota = await rotaDesde30Dias(carla.id, [GOIANIA, ANAPOLIS]);
    const campos = { ...camposDespesa({}, rota), cidade_id: GOIANIA };
    const d = await criarOk(carla, campos);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota}/finalizar`, token: carla.token })).statusCode).toBe(200);
    const saldo = await saldoDe(carla);
    const arquivos = arquivosNoDisco();

    // The finish froze the route: not even an expense dated inside its period, with or without a receipt.
    esperarRecusa(await criar(carla, { ...campos, id: uuidv7(), data_despesa: HOJE(), descricao: 'Jantar do último dia' }, ARQUIVOS.jpeg()), 409, 'rota_finalizada', FINALIZADA);
    const { id: _id, ...semId } = campos;
    esperarRecusa(await editar(carla, d.id, { ...semId, valor: '40' }), 409, 'rota_finalizada', FINALIZADA);
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/despesas/${d.id}`, token: carla.token }), 409, 'rota_finalizada', FINALIZADA);
    const fim = await fechadaHaDias(rota, 'finalizadaEm', 3);
    esperarRecusa(await criar(carla, { ...campos, id: uuidv7(), data_despesa: somarDias(fim, 1) }), 409, 'rota_finalizada', FINALIZADA);
    esperarRecusa(await criar(carla, { ...campos, id: uuidv7(), data_despesa: fim }), 409, 'rota_finalizada', FINALIZADA);
    // Before the route began: 422 naming the period, whatever the status.
    esperarRecusa(await criar(carla, { ...campos, id: uuidv7(), data_despesa: somarDias(HOJE(), -31) }), 422, 'regra_de_negocio', /^A data .* está fora do período da rota: são aceitas datas de \d\d\/\d\d\/\d{4} a \d\d\/\d\d\/\d{4}\.$/);
    expect(await saldoDe(carla)).toBe(saldo);
    expect(arquivosNoDisco()).toEqual(arquivos);

    // A create replayed after the route closed is still answered (it already happened).
    expect((await criar(carla, campos)).statusCode).toBe(200);
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas', token: carla.token });
    expect(lista.json().despesas.map((x: Despesa) => x.id)).toEqual([d.id]);
  });

  it('cancelada pelo admin: a despesa (com comprovante) do período ativo é aceita; a datada depois do cancelamento é 409 com a mensagem do cancelamento', async () => {
    const davi = await t.criarFuncionario({ nome: 'Davi Cancelado' });
    const rota = await rotaDesde30Dias(davi.id, [GOIANIA]);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota}/cancelar`, token: tokenAdmin })).statusCode).toBe(200);
    const campos = { ...camposDespesa({}, rota), cidade_id: GOIANIA };
    const r = await criar(davi, { ...campos, data_despesa: HOJE() }, ARQUIVOS.pdf());
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().despesa).toMatchObject({ rota_id: rota, data_despesa: HOJE(), cupom_mime: 'application/pdf' });

    const fim = await fechadaHaDias(rota, 'canceladaEm', 3);
    const arquivos = arquivosNoDisco();
    esperarRecusa(await criar(davi, { ...campos, id: uuidv7(), data_despesa: somarDias(fim, 1) }, ARQUIVOS.png()), 409, 'conflito', CANCELADA);
    expect(arquivosNoDisco()).toEqual(arquivos);
    expect((await criar(davi, { ...campos, id: uuidv7(), data_despesa: fim })).statusCode).toBe(201);
  });
});

describe('saldo: a cadeia de movimentações', () => {
  it('crédito, criar, editar para menos e para mais, excluir: cadeia consistente e centavos exatos', async () => {
    const davi = await t.criarFuncionario({ nome: 'Davi Contas' });
    await criarRotaAtiva(t, davi.id, [GOIANIA, ANAPOLIS]);
    const credito = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: tokenAdmin, payload: { funcionario_id: davi.id, valor: 100.3, rota_id: null } });
    expect(credito.statusCode, credito.body).toBe(201);
    const rota = (await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: davi.token })).json().rotas[0].id as number;
    const base = { rota_id: rota, cidade_id: GOIANIA, data_despesa: ontem(), tipo: 'combustivel', descricao: '' };
    // 0,10 + 0,20 is 0,30 here, never 0,30000000000000004.
    const a = await criarOk(davi, { ...base, id: uuidv7(), valor: '0,10' });
    const b = await criarOk(davi, { ...base, id: uuidv7(), valor: '0.20' });
    expect(await saldoDe(davi)).toBe(100);
    const { id: _a, ...semIdA } = { ...base, id: a.id };
    expect((await editar(davi, a.id, { ...semIdA, valor: '0,05' })).statusCode).toBe(200); // devolução 0,05
    expect((await editar(davi, b.id, { ...base, valor: '150,21' })).statusCode).toBe(200); // débito 150,01
    expect(await saldoDe(davi)).toBe(-49.96); // may go negative
    expect((await t.chamar({ method: 'DELETE', url: `/api/despesas/${b.id}`, token: davi.token })).statusCode).toBe(200);
    expect(await saldoDe(davi)).toBe(100.25);

    const movs = await movimentacoes(davi.id);
    expect(movs.map((m) => [m.tipo, m.valor])).toEqual([
      ['credito', 100.3],
      ['debito', 0.1],
      ['debito', 0.2],
      ['devolucao', 0.05],
      ['debito', 150.01],
      ['devolucao', 150.21],
    ]);
    expect(movs[3]!.descricao.replace(/\u00a0/g, ' ')).toBe('Ajuste da despesa: Combustível — Goiânia (R$ 0,10 → R$ 0,05)');
    esperarCadeia(movs, 100.25);
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas', token: davi.token });
    expect(lista.json().totais.geral).toBe(0.05);
  });

  it('uma sequência longa de criar/editar/excluir mantém a cadeia e bate com a soma das despesas', async () => {
    const eva = await t.criarFuncionario({ nome: 'Eva Sequência' });
    const rota = await criarRotaAtiva(t, eva.id, [GOIANIA, ANAPOLIS]);
    await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: tokenAdmin, payload: { funcionario_id: eva.id, valor: 1000, rota_id: rota } });
    let semente = 7;
    const aleatorio = (n: number) => {
      semente = (semente * 1103515245 + 12345) % 2 ** 31;
      return semente % n;
    };
    const vivas = new Map<string, number>(); // id -> centavos
    for (let i = 0; i < 40; i++) {
      const acao = vivas.size === 0 ? 0 : aleatorio(3);
      const centavos = 1 + aleatorio(50_000);
      const valor = (centavos / 100).toFixed(2).replace('.', ',');
      const campos = { rota_id: rota, cidade_id: i % 2 ? GOIANIA : ANAPOLIS, data_despesa: ontem(), tipo: 'hospedagem', valor, descricao: `passo ${i}` };
      const ids = [...vivas.keys()];
      if (acao === 0) {
        const d = await criarOk(eva, { ...campos, id: uuidv7() });
        vivas.set(d.id, centavos);
      } else if (acao === 1) {
        const id = ids[aleatorio(ids.length)]!;
        expect((await editar(eva, id, campos)).statusCode).toBe(200);
        vivas.set(id, centavos);
      } else {
        const id = ids[aleatorio(ids.length)]!;
        expect((await t.chamar({ method: 'DELETE', url: `/api/despesas/${id}`, token: eva.token })).statusCode).toBe(200);
        vivas.delete(id);
      }
    }
    const gastos = [...vivas.values()].reduce((s, v) => s + v, 0);
    const saldo = await saldoDe(eva);
    expect(Math.round(saldo * 100)).toBe(100_000 - gastos);
    esperarCadeia(await movimentacoes(eva.id), saldo);
    const lista = await t.chamar({ method: 'GET', url: '/api/despesas?limit=1', token: eva.token });
    expect(Math.round(lista.json().totais.geral * 100)).toBe(gastos);
    expect(lista.json().total).toBe(vivas.size);
  });
});

describe('aprovar e rejeitar (admin)', () => {
  it('aprova, rejeita com motivo obrigatório; o funcionário vê o status; dinheiro não se move', async () => {
    const d1 = await criarOk(ana, camposDespesa({ valor: '11' }));
    const d2 = await criarOk(ana, camposDespesa({ valor: '22' }));
    const movs = (await movimentacoes(ana.id)).length;
    esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/despesas/${d1.id}/aprovar`, token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/despesas/${d2.id}/rejeitar`, token: tokenAdmin, payload: {} }), 400, 'dados_invalidos', 'Informe o motivo da rejeição.');
    esperarRecusa(
      await t.chamar({ method: 'PATCH', url: `/api/despesas/${d2.id}/rejeitar`, token: tokenAdmin, payload: { motivo: '   ' } }),
      400,
      'dados_invalidos',
      'Informe o motivo da rejeição.',
    );
    const aprovada = await t.chamar({ method: 'PATCH', url: `/api/despesas/${d1.id}/aprovar`, token: tokenAdmin });
    expect(aprovada.json().despesa).toMatchObject({ status_aprovacao: 'aprovada', aprovada: true, rejeitada: false, motivo_rejeicao: null });
    const rejeitada = await t.chamar({ method: 'PATCH', url: `/api/despesas/${d2.id}/rejeitar`, token: tokenAdmin, payload: { motivo: 'Sem nota fiscal legível' } });
    expect(rejeitada.json().despesa).toMatchObject({ status_aprovacao: 'rejeitada', aprovada: false, rejeitada: true, motivo_rejeicao: 'Sem nota fiscal legível' });
    const lista = (await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token })).json().despesas as Despesa[];
    expect(lista.find((d) => d.id === d1.id)?.status_aprovacao).toBe('aprovada');
    expect(lista.find((d) => d.id === d2.id)?.motivo_rejeicao).toBe('Sem nota fiscal legível');
    expect((await movimentacoes(ana.id)).length).toBe(movs);
    esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/despesas/${uuidv7()}/aprovar`, token: tokenAdmin }), 404, 'nao_encontrado');
  });
});

describe('listar', () => {
  it('admin vê todas com filtros, paginação de 20 e totais do conjunto inteiro; funcionário só as suas', async () => {
    const fabio = await t.criarFuncionario({ nome: 'Fábio Lista' });
    const rota = await criarRotaAtiva(t, fabio.id, [GOIANIA, ANAPOLIS]);
    for (let i = 0; i < 25; i++) {
      await criarOk(fabio, {
        id: uuidv7(),
        rota_id: rota,
        cidade_id: GOIANIA,
        data_despesa: somarDias('2026-03-01', i),
        tipo: i % 5 === 0 ? 'pedagio' : 'alimentacao',
        valor: '10,01',
        descricao: '',
      });
    }
    const pagina1 = (await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${fabio.id}`, token: tokenAdmin })).json();
    expect(pagina1).toMatchObject({ page: 1, limit: 20, total: 25 });
    expect(pagina1.despesas).toHaveLength(20);
    expect(pagina1.despesas[0].data_despesa).toBe('2026-03-25');
    expect(pagina1.totais).toEqual({ geral: 250.25, alimentacao: 200.2, hospedagem: 0, combustivel: 0, pedagio: 50.05, aluguel_sala: 0, outro: 0 });
    const pagina2 = (await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${fabio.id}&page=2`, token: tokenAdmin })).json();
    expect(pagina2.despesas).toHaveLength(5);
    expect(pagina2.totais.geral).toBe(250.25);

    const filtrada = (
      await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${fabio.id}&tipo=pedagio&data_inicio=2026-03-06&data_fim=2026-03-21`, token: tokenAdmin })
    ).json();
    expect(filtrada.despesas.map((d: Despesa) => d.data_despesa)).toEqual(['2026-03-21', '2026-03-16', '2026-03-11', '2026-03-06']);

    // The routes page's modal: every expense of one route at once; status_rota is ignored with rota_id.
    const modal = (await t.chamar({ method: 'GET', url: `/api/despesas?rota_id=${rota}&limit=100&page=1&status_rota=finalizada`, token: tokenAdmin })).json();
    expect(modal.despesas).toHaveLength(25);
    const soFinalizadas = (await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${fabio.id}&status_rota=finalizada`, token: tokenAdmin })).json();
    expect(soFinalizadas.total).toBe(0);

    // An employee asking for someone else's expenses still gets only their own.
    const propria = (await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${fabio.id}`, token: ana.token })).json();
    expect(propria.despesas.every((d: Despesa) => d.funcionario_nome === 'Ana Estrada')).toBe(true);
    expect((await t.chamar({ method: 'GET', url: `/api/despesas?rota_id=${rota}`, token: ana.token })).json().total).toBe(0);

    // Above the maximum page the limit is clamped, not refused; zero is refused.
    expect((await t.chamar({ method: 'GET', url: '/api/despesas?limit=5000', token: tokenAdmin })).json().limit).toBe(1000);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/despesas?limit=0', token: tokenAdmin }), 400, 'dados_invalidos', 'Limite inválido.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/despesas?status_aprovacao=talvez', token: tokenAdmin }), 400, 'dados_invalidos', 'Status inválido.');
  });
});
