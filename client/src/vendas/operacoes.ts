/**
 * The employee's queued sales writes (decisions.md, 'Sales and visits'):
 * - 'venda.salvar' -> POST /vendas: the city's closing of a date, with the client's UUIDv7 (reused when
 *   the city already has a closing that day, so an edit converges on the same record);
 * - 'visita.registrar' -> POST /rotas/{rota}/cidades/{cidade}/visitar: the city visited without a sale.
 * Both carry the time the phone recorded them, so the server keeps the newest and a replay changes
 * nothing. Both use the key of the (route, city, date): an edit waits behind a refused create.
 */
import { formatarData } from '../../../shared/dates';
import { registrarOperacao } from '../offline';
import type { BancoLocal, ItemOutbox } from '../offline/db';
import { ehObjeto, ehTexto, leitor } from '../offline/leitor';
import { enfileirarOuCorrigir } from '../offline/outbox';
import { chaveDoDia, dadosVendaSchema, dadosVisitaSchema, OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA, type DadosVendaFila, type DadosVisitaFila } from './fila';

const ILEGIVEL = 'Registro ilegível (feito por outra versão do aplicativo). Descarte-o e registre de novo.';

// The server's times in its answers, read without zod (the registry loads with the first screen).
const respostaVenda = leitor((v) => {
  const venda = ehObjeto(v) ? v.venda : undefined;
  return ehObjeto(venda) && ehTexto(venda.atualizado_em) ? { venda: { atualizado_em: venda.atualizado_em } } : null;
});
const respostaVisita = leitor((v) => {
  const visita = ehObjeto(v) ? v.visita : undefined;
  return ehObjeto(visita) && ehTexto(visita.recebido_em) ? { visita: { recebido_em: visita.recebido_em } } : null;
});

registrarOperacao(OPERACAO_SALVAR_VENDA, {
  requisicao(dados) {
    const r = dadosVendaSchema.safeParse(dados);
    if (!r.success) throw new Error(ILEGIVEL);
    const { cidade_nome: _nome, cidade_uf: _uf, ...corpo } = r.data;
    return { metodo: 'POST', caminho: '/vendas', corpo };
  },
  // When the server stored the values now kept (the first receipt, or the edit that changed them).
  recebidoEm: (resposta) => respostaVenda.safeParse(resposta).data?.venda.atualizado_em,
  editarEm: (dados) => {
    const r = dadosVendaSchema.safeParse(dados);
    return r.success ? `/vendas?data=${r.data.data_venda}&cidade=${r.data.cidade_id}` : null;
  },
});

registrarOperacao(OPERACAO_REGISTRAR_VISITA, {
  requisicao(dados) {
    const r = dadosVisitaSchema.safeParse(dados);
    if (!r.success) throw new Error(ILEGIVEL);
    const { id, data, registrado_em, rota_id, cidade_id } = r.data;
    return { metodo: 'POST', caminho: `/rotas/${rota_id}/cidades/${cidade_id}/visitar`, corpo: { id, data, registrado_em } };
  },
  recebidoEm: (resposta) => respostaVisita.safeParse(resposta).data?.visita.recebido_em,
  editarEm: (dados) => {
    const r = dadosVisitaSchema.safeParse(dados);
    return r.success ? `/vendas?data=${r.data.data}&cidade=${r.data.cidade_id}` : null;
  },
});

const nomeDaCidade = (d: { cidade_nome?: string | undefined; cidade_uf?: string | undefined; cidade_id: number }) =>
  d.cidade_nome ? `${d.cidade_nome}${d.cidade_uf ? ` (${d.cidade_uf})` : ''}` : `cidade ${d.cidade_id}`;

/** Saving a city's day again replaces what the server refused for it (sale or visit), in place. */
const MESMO_DIA = [OPERACAO_SALVAR_VENDA, OPERACAO_REGISTRAR_VISITA];

export function enfileirarVenda(banco: BancoLocal, usuarioId: number, dados: DadosVendaFila): Promise<ItemOutbox> {
  return enfileirarOuCorrigir(banco, {
    tipo: OPERACAO_SALVAR_VENDA,
    usuarioId,
    dados,
    chaves: [chaveDoDia(dados.rota_id, dados.cidade_id, dados.data_venda)],
    descricao: `Fechamento de ${nomeDaCidade(dados)} em ${formatarData(dados.data_venda)}`,
  }, MESMO_DIA);
}

export function enfileirarVisita(banco: BancoLocal, usuarioId: number, dados: DadosVisitaFila): Promise<ItemOutbox> {
  return enfileirarOuCorrigir(banco, {
    tipo: OPERACAO_REGISTRAR_VISITA,
    usuarioId,
    dados,
    chaves: [chaveDoDia(dados.rota_id, dados.cidade_id, dados.data)],
    descricao: `Visita a ${nomeDaCidade(dados)} em ${formatarData(dados.data)} (sem venda)`,
  }, MESMO_DIA);
}
