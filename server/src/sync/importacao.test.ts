import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { LIMITE_PENDENCIAS_BYTES } from '../../../shared/schemas/pendencias';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, sha256 } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { linha, linhas } from '../db';
import { usuarios } from '../db/tabelas';
import { VERSAO_MINIMA_APP } from '../../../shared/versao';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { LIMITES_IMPORTACAO } from './importacao';

let t: AppDeTeste;
let admin: string;
type Pessoa = { id: number; nome: string; email: string; token: string };
let ana: Pessoa;
let bruno: Pessoa;
let rotaAna: number;
let rotaBruno: number;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  ana = { ...(await t.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.estrada@teste.com.br' })), nome: 'Ana Estrada' };
  bruno = { ...(await t.criarFuncionario({ nome: 'Bruno Campo', email: 'bruno.campo@teste.com.br' })), nome: 'Bruno Campo' };
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota da Ana');
  rotaBruno = await criarRotaAtiva(t, bruno.id, [CALDAS_NOVAS], 'Rota do Bruno');
});
afterAll(() => t.fechar());
afterEach(() => {
  LIMITES_IMPORTACAO.bytes = LIMITE_PENDENCIAS_BYTES;
});

const dono = (p: Pessoa) => ({ id: p.id, nome: p.nome, email: p.email });

const venda = (rota: number, cidade: number, data: string, valores: Record<string, number> = {}) => {
  const id = uuidv7();
  return operacaoPendencia({
    metodo: 'POST',
    caminho: '/vendas',
    corpo: { id, rota_id: rota, cidade_id: cidade, data_venda: data, valor_dinheiro: 10, registrado_em: new Date().toISOString(), ...valores },
    chaves: [`venda:${rota}:${cidade}:${data}`],
    descricao: `Fechamento de ${cidade} em ${data}`,
  });
};

const despesa = (rota: number, cidade: number, descricao: string, arquivo = ARQUIVOS.jpeg()) => {
  const id = uuidv7();
  return {
    id,
    op: operacaoPendencia(
      {
        metodo: 'POST',
        caminho: '/despesas',
        corpo: { id, rota_id: String(rota), cidade_id: String(cidade), data_despesa: somarDias(dia, -1), tipo: 'alimentacao', tipo_outro: '', valor: '45.90', descricao, registrado_em: new Date().toISOString() },
        chaves: [`despesa:${id}`],
        descricao: `Despesa: ${descricao}`,
      },
      arquivo,
    ),
    arquivo,
  };
};

async function importar(conteudo: string | Buffer | object, token: string | null = admin, nome?: string, campo?: string) {
  return t.chamar({ method: 'POST', url: '/api/sync/importar', ...(token ? { token } : {}), ...(await formularioPendencias(conteudo, nome, campo)) });
}

const contar = async (tabela: string, onde: SQL = sql`1 = 1`) =>
  (await linha<{ n: number }>(t.db, sql`select count(*) as n from ${sql.identifier(tabela)} where ${onde}`))!.n;
const uploads = () => (fs.existsSync(path.join(t.dataDir, 'uploads')) ? fs.readdirSync(path.join(t.dataDir, 'uploads')).length : 0);
/** Everything an import could write. */
const fotografia = async () => ({
  vendas: await contar('vendas'),
  visitas: await contar('visitas'),
  despesas: await contar('despesas'),
  excluidas: await contar('despesas', sql`excluida_em is not null`),
  movimentacoes: await contar('movimentacoes_saldo'),
  rotasFinalizadas: await contar('rotas', sql`status = 'finalizada'`),
  uploads: uploads(),
});

describe('POST /api/sync/importar', () => {
  it('importa a fila de um celular com comprovante: as mesmas escritas da sincronização, o comprovante idêntico, o saldo debitado', async () => {
    const d = somarDias(dia, -2);
    const v1 = venda(rotaAna, GOIANIA, d, { valor_pix: 5 });
    const v2 = venda(rotaAna, ANAPOLIS, d);
    const visita = operacaoPendencia({
      metodo: 'POST',
      caminho: `/rotas/${rotaAna}/cidades/${GOIANIA}/visitar`,
      corpo: { id: uuidv7(), data: somarDias(dia, -3) },
      chaves: [`venda:${rotaAna}:${GOIANIA}:${somarDias(dia, -3)}`],
      descricao: 'Visita a Goiânia',
    });
    const gasto = despesa(rotaAna, GOIANIA, 'Almoço sem sinal');
    const antes = await fotografia();
    const saldoAntes = (await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: ana.token })).json().saldo_atual as number;

    const r = await importar(arquivoPendencias(dono(ana), [v1, v2, visita, gasto.op]), admin, 'pendencias-ana-estrada.sgp');
    expect(r.statusCode, r.body).toBe(200);
    const corpo = r.json();
    expect(corpo.funcionario).toEqual({ id: ana.id, nome: 'Ana Estrada', email: 'ana.estrada@teste.com.br' });
    expect(corpo.totais).toEqual({ aceito: 4, ja_recebido: 0, recusado: 0, retido: 0, nao_processado: 0 });
    expect(corpo.itens.map((i: { id: string; tipo: string; situacao: string; status: number }) => [i.id, i.tipo, i.situacao, i.status])).toEqual([
      [v1.id, 'venda', 'aceito', 201],
      [v2.id, 'venda', 'aceito', 201],
      [visita.id, 'visita', 'aceito', 200],
      [gasto.op.id, 'despesa', 'aceito', 201],
    ]);
    expect(corpo.itens[3].descricao).toBe('Despesa: Almoço sem sinal');

    // Written as Ana, as her phone's sync would have.
    const vendas = await linhas(t.db, sql`select funcionario_id as f, cidade_id as c, dinheiro_centavos as d, pix_centavos as p from vendas where data_venda = ${d} order by cidade_id`);
    expect(vendas).toEqual([
      { f: ana.id, c: ANAPOLIS, d: 1000, p: 0 },
      { f: ana.id, c: GOIANIA, d: 1000, p: 500 },
    ]);
    const guardada = (await linha<{ f: number; v: number; a: string }>(t.db, sql`select funcionario_id as f, valor_centavos as v, arquivo_cupom as a from despesas where id = ${gasto.id}`))!;
    expect(guardada).toMatchObject({ f: ana.id, v: 4590 });
    expect(sha256(fs.readFileSync(path.join(t.dataDir, 'uploads', guardada.a)))).toBe(sha256(gasto.arquivo.conteudo));
    // One visit row: the visit without a sale (a sale's city counts as visited without a row of its own).
    expect(await fotografia()).toEqual({ ...antes, vendas: antes.vendas + 2, visitas: antes.visitas + 1, despesas: antes.despesas + 1, movimentacoes: antes.movimentacoes + 1, uploads: antes.uploads + 1 });
    const saldo = (await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: ana.token })).json().saldo_atual as number;
    expect(Math.round((saldoAntes - saldo) * 100)).toBe(4590);

    // The receipt is served as the employee's own.
    const cupom = await t.chamar({ method: 'GET', url: `/api/despesas/${gasto.id}/cupom`, token: ana.token });
    expect(cupom.statusCode).toBe(200);
    expect(sha256(cupom.rawPayload)).toBe(sha256(gasto.arquivo.conteudo));
  });

  it('importar o mesmo arquivo de novo não muda nada e responde tudo como já recebido; o celular enviando depois também não duplica', async () => {
    const d = somarDias(dia, -4);
    const v = venda(rotaAna, GOIANIA, d);
    const gasto = despesa(rotaAna, ANAPOLIS, 'Jantar sem sinal', ARQUIVOS.pdf());
    const arquivo = arquivoPendencias(dono(ana), [v, gasto.op]);
    const primeira = await importar(arquivo);
    expect(primeira.json().totais).toMatchObject({ aceito: 2 });
    const depois = await fotografia();
    const cupom = (await linha<{ a: string }>(t.db, sql`select arquivo_cupom as a from despesas where id = ${gasto.id}`))!.a;

    const segunda = await importar(arquivo);
    expect(segunda.statusCode, segunda.body).toBe(200);
    expect(segunda.json().totais).toEqual({ aceito: 0, ja_recebido: 2, recusado: 0, retido: 0, nao_processado: 0 });
    expect(segunda.json().itens.map((i: { situacao: string; status: number }) => [i.situacao, i.status])).toEqual([
      ['ja_recebido', 201],
      ['ja_recebido', 201],
    ]);
    expect(await fotografia()).toEqual(depois);
    expect((await linha<{ a: string }>(t.db, sql`select arquivo_cupom as a from despesas where id = ${gasto.id}`))!.a).toBe(cupom);

    // Later the phone gets signal and sends its queue (the same ids) through the normal batch.
    const fd = new FormData();
    const ops = [v, gasto.op].map(({ id, metodo, caminho, corpo, chaves }) => ({ id, metodo, caminho, corpo, chaves }));
    fd.append('operacoes', JSON.stringify({ operacoes: ops }));
    fd.append(`arquivo:${gasto.op.id}`, new Blob([new Uint8Array(gasto.arquivo.conteudo)], { type: gasto.arquivo.tipo }), gasto.arquivo.nome);
    const resp = new Response(fd);
    const lote = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: ana.token,
      payload: Buffer.from(await resp.arrayBuffer()),
      headers: { 'content-type': resp.headers.get('content-type')! },
    });
    expect(lote.statusCode, lote.body).toBe(200);
    // The import recorded them: the phone's copies are answered from the operation log.
    expect(lote.json().resultados.map((x: { status: number; repetida?: boolean }) => [x.status, x.repetida])).toEqual([[201, true], [201, true]]);
    expect(await fotografia()).toEqual(depois);
  });

  it('um arquivo forjado que escreve na rota de outro funcionário é recusado pelas mesmas regras de dono; as escritas seguintes da mesma entidade ficam retidas, as outras seguem', async () => {
    const d = somarDias(dia, -5);
    // Ana's file, but the sale and the expense point at Bruno's route.
    const naRotaDoBruno = { ...venda(rotaBruno, CALDAS_NOVAS, d), chaves: ['rota:bruno'] };
    const gastoNoBruno = despesa(rotaBruno, CALDAS_NOVAS, 'Despesa forjada');
    const editar = operacaoPendencia({
      metodo: 'PUT',
      caminho: `/vendas/${(naRotaDoBruno.corpo as { id: string }).id}`,
      corpo: { valor_dinheiro: 999, registrado_em: new Date(Date.now() + 1000).toISOString() },
      chaves: ['rota:bruno'],
      descricao: 'Edição da venda forjada',
    });
    const legitima = venda(rotaAna, ANAPOLIS, d);
    const antes = await fotografia();
    const r = await importar(arquivoPendencias(dono(ana), [naRotaDoBruno, gastoNoBruno.op, editar, legitima]));
    expect(r.statusCode, r.body).toBe(200);
    const itens = r.json().itens as { situacao: string; status: number | null; mensagem: string | null }[];
    expect(itens.map((i) => [i.situacao, i.status])).toEqual([
      ['recusado', 404],
      ['recusado', 404],
      ['retido', null],
      ['aceito', 201],
    ]);
    expect(itens[0]!.mensagem).toBe('Rota não encontrada.');
    expect(r.json().totais).toEqual({ aceito: 1, ja_recebido: 0, recusado: 2, retido: 1, nao_processado: 0 });
    expect(await contar('vendas', sql`rota_id = ${rotaBruno}`)).toBe(0);
    expect(await contar('despesas', sql`id = ${gastoNoBruno.id}`)).toBe(0);
    expect(await fotografia()).toEqual({ ...antes, vendas: antes.vendas + 1 });
  });

  it('só o administrador importa: funcionário 403, sem sessão 401, e nada é gravado', async () => {
    const arquivo = arquivoPendencias(dono(ana), [venda(rotaAna, GOIANIA, somarDias(dia, -6))]);
    const antes = await fotografia();
    esperarRecusa(await importar(arquivo, ana.token), 403, 'sem_permissao');
    esperarRecusa(await importar(arquivo, bruno.token), 403, 'sem_permissao');
    esperarRecusa(await importar(arquivo, null), 401, 'nao_autenticado');
    expect(await fotografia()).toEqual(antes);
  });

  describe('arquivos inválidos: 400 com a mensagem, nada gravado', () => {
    const valido = () => arquivoPendencias(dono(ana), [venda(rotaAna, GOIANIA, somarDias(dia, -7)), despesa(rotaAna, GOIANIA, 'Válida').op]);
    const casos: [string, () => string | object, RegExp][] = [
      ['não é JSON', () => 'isto não é um arquivo de pendências', /não é um arquivo de pendências do Sistema de Gestão/],
      ['JSON de outra coisa', () => ({ nome: 'planilha' }), /não é um arquivo de pendências do Sistema de Gestão/],
      ['versão mais nova', () => ({ ...valido(), versao: 3 }), /versão mais nova do aplicativo/],
      ['versão desconhecida', () => ({ ...valido(), versao: 'um' }), /Versão do arquivo de pendências não suportada/],
      ['sem funcionário', () => ({ ...valido(), funcionario: undefined }), /não diz de qual funcionário/],
      ['sem pendências', () => ({ ...valido(), operacoes: [] }), /não tem nenhuma pendência/],
      ['operação sem caminho', () => ({ ...valido(), operacoes: [{ ...valido().operacoes[0]!, caminho: 7 }] }), /Caminho de operação inválido/],
      ['método inválido', () => ({ ...valido(), operacoes: [{ ...valido().operacoes[0]!, metodo: 'GET' }] }), /Método de operação inválido/],
      ['mesma pendência duas vezes', () => {
        const a = valido();
        return { ...a, operacoes: [a.operacoes[0]!, a.operacoes[0]!] };
      }, /mesma pendência mais de uma vez/],
      ['comprovante que não é base64', () => {
        const a = valido();
        return { ...a, operacoes: [a.operacoes[0]!, { ...a.operacoes[1]!, arquivo: { ...a.operacoes[1]!.arquivo!, base64: '<script>' } }] };
      }, /Comprovante ilegível/],
      ['comprovante cortado', () => {
        const a = valido();
        const arq = a.operacoes[1]!.arquivo!;
        return { ...a, operacoes: [a.operacoes[0]!, { ...a.operacoes[1]!, arquivo: { ...arq, base64: arq.base64.slice(0, 400) } }] };
      }, /está incompleto no arquivo/],
    ];
    it.each(casos)('%s', async (_nome, conteudo, mensagem) => {
      const antes = await fotografia();
      esperarRecusa(await importar(conteudo()), 400, 'dados_invalidos', mensagem);
      expect(await fotografia()).toEqual(antes);
    });

    it('um comprovante de tipo não aceito recusa só a sua despesa, com a mensagem; o resto do arquivo é importado', async () => {
      const a = valido();
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const conteudo = { ...a, operacoes: [a.operacoes[0]!, { ...a.operacoes[1]!, arquivo: { nome: 'nota.jpg', tipo: 'image/jpeg', tamanho: html.length, base64: html.toString('base64') } }] };
      const r = await importar(conteudo);
      expect(r.statusCode, r.body).toBe(200);
      const itens = r.json().itens as { situacao: string; status: number; mensagem: string | null }[];
      expect(itens.map((i) => i.situacao)).toEqual(['aceito', 'recusado']);
      expect(itens[1]!.status).toBe(415);
      expect(itens[1]!.mensagem).toMatch(/comprovante de "Despesa: Válida" não é aceito/i);
    });

    it('sem arquivo, em outro campo, ou como JSON em vez de multipart', async () => {
      esperarRecusa(await importar(valido(), admin, undefined, 'outro'), 400, 'dados_invalidos', 'Envie o arquivo de pendências no campo "arquivo".');
      esperarRecusa(await importar('', admin), 400, 'dados_invalidos', /Escolha o arquivo de pendências/);
      const json = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: admin, payload: valido() });
      esperarRecusa(json, 400, 'dados_invalidos', /multipart\/form-data/);
    });

    it('funcionário que não existe, que é outra pessoa neste servidor, ou um administrador: 422', async () => {
      const ops = valido().operacoes;
      const antes = await fotografia();
      esperarRecusa(await importar(arquivoPendencias({ id: 99999, nome: 'Fulano', email: 'fulano@x.com' }, ops)), 422, 'regra_de_negocio', /não existe neste servidor/);
      esperarRecusa(
        await importar(arquivoPendencias({ id: ana.id, nome: 'Ana de Outro Sistema', email: 'ana@outro.com' }, ops)),
        422,
        'regra_de_negocio',
        `O arquivo é de Ana de Outro Sistema (ana@outro.com), mas o usuário nº ${ana.id} deste servidor é Ana Estrada (ana.estrada@teste.com.br). Confira se o arquivo foi exportado deste sistema.`,
      );
      esperarRecusa(await importar(arquivoPendencias({ id: 1, nome: 'Administrador', email: 'admin@teste.com.br' }, ops)), 422, 'regra_de_negocio', /administrador/);
      expect(await fotografia()).toEqual(antes);
    });
  });

  it('arquivo exportado por um aplicativo anterior à versão mínima: 422 com o que fazer, nada gravado; a versão mínima ou mais nova passa', async () => {
    const admin = await t.tokenAdmin();
    const d = somarDias(dia, -9);
    const ops = [operacaoPendencia({ metodo: 'POST', caminho: '/vendas', corpo: { id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_venda: d, valor_dinheiro: 7, registrado_em: new Date().toISOString() }, chaves: [`venda:${rotaAna}:${GOIANIA}:${d}`], descricao: 'Venda: Goiânia' })];
    const antes = await fotografia();
    esperarRecusa(
      await importar({ ...arquivoPendencias(dono(ana), ops), versaoApp: '0.0.9' }, admin),
      422,
      'regra_de_negocio',
      `Este arquivo foi exportado pela versão 0.0.9 do aplicativo, anterior à mínima aceita pelo servidor (${VERSAO_MINIMA_APP}). Atualize o aplicativo no celular e exporte as pendências de novo: elas continuam guardadas no celular.`,
    );
    expect(await fotografia()).toEqual(antes);
    const r = await importar({ ...arquivoPendencias(dono(ana), ops), versaoApp: VERSAO_MINIMA_APP }, admin);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().totais.aceito).toBe(1);
  });

  it('arquivo acima do limite: 413 com o limite na mensagem, nada gravado', async () => {
    LIMITES_IMPORTACAO.bytes = 3 * 1024;
    const arquivo = arquivoPendencias(dono(ana), [despesa(rotaAna, GOIANIA, 'Grande', ARQUIVOS.jpeg()).op, venda(rotaAna, GOIANIA, somarDias(dia, -8))]);
    expect(JSON.stringify(arquivo).length).toBeGreaterThan(3 * 1024);
    const antes = await fotografia();
    esperarRecusa(await importar(arquivo), 413, 'arquivo_grande', 'O arquivo de pendências é grande demais: o máximo é 3 KB.');
    expect(await fotografia()).toEqual(antes);
  });
});

describe('POST /api/sync/importar: uma importação de cada vez', () => {
  it('a que chega durante outra recebe 503 em português com Retry-After e nada grava; terminada a primeira, a seguinte entra', async () => {
    const d = somarDias(dia, -6);
    const primeira = await formularioPendencias(arquivoPendencias(dono(ana), [venda(rotaAna, GOIANIA, d)]));
    // The first one's body arrives in two halves: between them it holds the import's slot.
    const corpo = new PassThrough();
    const meio = Math.floor(primeira.payload.length / 2);
    corpo.write(primeira.payload.subarray(0, meio));
    const emCurso = t.chamar({ method: 'POST', url: '/api/sync/importar', token: admin, headers: primeira.headers, payload: corpo });
    // Its handler is reading the file (what was written has been taken): the slot is taken.
    await vi.waitFor(() => expect(corpo.readableLength).toBe(0));

    const outra = venda(rotaAna, ANAPOLIS, d);
    const antes = await fotografia();
    const recusada = await importar(arquivoPendencias(dono(ana), [outra]));
    esperarRecusa(recusada, 503, 'indisponivel', 'Outra importação está em andamento. Tente de novo em alguns segundos.');
    expect(Number(recusada.headers['retry-after'])).toBeGreaterThan(0);
    expect(await fotografia()).toEqual(antes);

    corpo.end(primeira.payload.subarray(meio));
    const r = await emCurso;
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().totais).toMatchObject({ aceito: 1 });
    // The slot was given back: the refused one, sent again, goes in.
    const denovo = await importar(arquivoPendencias(dono(ana), [outra]));
    expect(denovo.statusCode, denovo.body).toBe(200);
    expect(denovo.json().totais).toMatchObject({ aceito: 1 });
  });

  it('a vaga volta também quando a importação é recusada no meio (arquivo ilegível)', async () => {
    esperarRecusa(await importar('{"formato": "sistema-de-gestao/pendencias", "operacoes": [ {'), 400, 'dados_invalidos');
    const r = await importar(arquivoPendencias(dono(ana), [venda(rotaAna, GOIANIA, somarDias(dia, -7))]));
    expect(r.statusCode, r.body).toBe(200);
  });
});

describe('POST /api/sync/importar: pendências de um funcionário desativado', () => {
  it('o admin importa o trabalho guardado no celular de quem foi desativado depois: vendas, visita, despesa com comprovante e a finalização da rota; o funcionário continua sem entrar', async () => {
    const senha = 'senha-da-carla';
    const carla = { ...(await t.criarFuncionario({ nome: 'Carla Desligada', email: 'carla.desligada@teste.com.br', senha })), nome: 'Carla Desligada' };
    const rota = await criarRotaAtiva(t, carla.id, [GOIANIA, ANAPOLIS], 'Rota da Carla');
    const d = somarDias(dia, -1);
    // Queued on her phone while she was still active.
    const v1 = venda(rota, GOIANIA, d, { valor_pix: 12 });
    const visita = operacaoPendencia({
      metodo: 'POST',
      caminho: `/rotas/${rota}/cidades/${ANAPOLIS}/visitar`,
      corpo: { id: uuidv7(), data: d },
      chaves: [`venda:${rota}:${ANAPOLIS}:${d}`, `rota:${rota}`],
      descricao: 'Visita a Anápolis',
    });
    const gasto = despesa(rota, GOIANIA, 'Hotel da última noite');
    const finalizar = operacaoPendencia({
      metodo: 'PATCH',
      caminho: `/rotas/${rota}/finalizar`,
      corpo: { id: uuidv7() },
      chaves: [`rota:${rota}`],
      descricao: 'Finalizar Rota da Carla',
    });

    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${carla.id}/desativar`, token: admin })).statusCode).toBe(200);
    // She is out: her old token stops at once and she cannot sign in again (that stays so).
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/auth/me', token: carla.token }), 401, 'sessao_invalida');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: carla.email, senha } }), 403, 'usuario_inativo', 'Usuário inativo. Procure um administrador.');

    const antes = await fotografia();
    const r = await importar(arquivoPendencias(dono(carla), [v1, visita, gasto.op, finalizar]), admin, 'pendencias-carla-desligada.sgp');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().funcionario).toEqual({ id: carla.id, nome: 'Carla Desligada', email: 'carla.desligada@teste.com.br' });
    expect(r.json().itens.map((i: { situacao: string; status: number | null; mensagem: string | null }) => [i.situacao, i.status, i.mensagem])).toEqual([
      ['aceito', 201, null],
      ['aceito', 200, null],
      ['aceito', 201, null],
      ['aceito', 200, null],
    ]);
    expect(r.json().totais).toEqual({ aceito: 4, ja_recebido: 0, recusado: 0, retido: 0, nao_processado: 0 });
    expect(await fotografia()).toEqual({
      ...antes,
      vendas: antes.vendas + 1,
      visitas: antes.visitas + 1,
      despesas: antes.despesas + 1,
      movimentacoes: antes.movimentacoes + 1,
      rotasFinalizadas: antes.rotasFinalizadas + 1,
      uploads: antes.uploads + 1,
    });
    expect(await linhas(t.db, sql`select funcionario_id as f, pix_centavos as p from vendas where rota_id = ${rota}`)).toEqual([{ f: carla.id, p: 1200 }]);
    expect(await linha(t.db, sql`select funcionario_id as f, valor_centavos as v from despesas where id = ${gasto.id}`)).toEqual({ f: carla.id, v: 4590 });

    // Importing again changes nothing; she still cannot sign in, and is still inactive.
    const segunda = await importar(arquivoPendencias(dono(carla), [v1, visita, gasto.op, finalizar]));
    expect(segunda.json().totais).toEqual({ aceito: 0, ja_recebido: 4, recusado: 0, retido: 0, nao_processado: 0 });
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: carla.email, senha } }), 403, 'usuario_inativo');
    expect((await t.db.select({ ativo: usuarios.ativo }).from(usuarios).where(eq(usuarios.id, carla.id)))[0]!.ativo).toBe(false);
  });
});
