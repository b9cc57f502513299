/**
 * Relatórios' 'Exportar para o contador': the ZIP of the page's period and employee (the month of today
 * asked for when the page has no period), the bytes received while it downloads, then 'Pronto', the
 * file saved under the server's name; the server's refusal and a cut download told in pt-BR.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { hoje } from '../../../shared/dates';
import { mesDe } from '../../../shared/exportacoes';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { fusoDoApp } from '../config/configApp';
import { arquivoEmPartes, capturarDownload } from '../test/download';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi, type RespostaFalsa } from '../test/renderizar';
import { PaginaRelatorios } from './PaginaRelatorios';

const bruno: Usuario = { ...ADMIN_TESTE, id: 9, nome: 'Bruno Campo', email: 'bruno@escola.com.br', tipo: 'funcionario' };

function montar(exportacao: (url: URL) => RespostaFalsa) {
  entrarComo(ADMIN_TESTE);
  const pedidos: URL[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [bruno] } }),
    'GET /relatorios/rotas': () => ({ corpo: { rotas: [] } }),
    'GET /relatorios/tendencias': () => ({ corpo: { data_inicio: '2026-11-01', data_fim: '2026-11-30', vendas_por_dia: [], por_rota: [], por_funcionario: [], despesas_por_tipo: [] } }),
    'GET /exportacoes/contabil': (_c, url) => {
      pedidos.push(url);
      return exportacao(url);
    },
  });
  renderizarApp([{ path: '/relatorios', element: <PaginaRelatorios /> }], { em: '/relatorios' });
  return pedidos;
}

const ZIP = { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="contabilidade_2026-11-01_a_2026-11-30.zip"' };

describe('Exportar para o contador', () => {
  it('com o período e o funcionário dos filtros: pede o ZIP deles, mostra os bytes recebidos, depois Pronto, e baixa com o nome do servidor', async () => {
    const usuario = userEvent.setup();
    const arquivo = arquivoEmPartes(ZIP);
    const pedidos = montar(() => arquivo.resposta);
    const baixado = capturarDownload();
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'Bruno Campo' }).length).toBeGreaterThan(0));
    await usuario.selectOptions(screen.getByLabelText('Funcionário', { exact: true }), '9');
    fireEvent.change(screen.getByLabelText('Data inicial'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2026-11-30' } });

    await usuario.click(screen.getByRole('button', { name: 'Exportar para o contador' }));
    await waitFor(() => expect(pedidos).toHaveLength(1));
    expect(Object.fromEntries(pedidos[0]!.searchParams)).toEqual({ data_inicio: '2026-11-01', data_fim: '2026-11-30', funcionario_id: '9' });

    arquivo.enviar(300 * 1024);
    expect(await screen.findByText('Baixando… 300 KB recebidos')).toBeInTheDocument();
    arquivo.enviar(1024 * 1024);
    expect(await screen.findByText('Baixando… 1,3 MB recebidos')).toBeInTheDocument();
    arquivo.fechar();
    expect(await screen.findByText('Pronto: contabilidade_2026-11-01_a_2026-11-30.zip (1,3 MB)')).toBeInTheDocument();
    expect(baixado.nome).toBe('contabilidade_2026-11-01_a_2026-11-30.zip');
    expect(baixado.blob!.size).toBe(1324 * 1024);
  });

  it('sem período nos filtros: pergunta, com o mês de hoje preenchido, e exporta o período escolhido', async () => {
    const usuario = userEvent.setup();
    const pedidos = montar(() => arquivoEmPartes(ZIP).resposta);
    const mes = mesDe(hoje(fusoDoApp()));
    await usuario.click(await screen.findByRole('button', { name: 'Exportar para o contador' }));
    const dialogo = await screen.findByRole('dialog', { name: 'Exportar para o contador' });
    expect(within(dialogo).getByLabelText('Data inicial')).toHaveValue(mes.inicio);
    expect(within(dialogo).getByLabelText('Data final')).toHaveValue(mes.fim);
    expect(within(dialogo).getByText('Funcionário: todos')).toBeInTheDocument();
    expect(pedidos).toHaveLength(0);

    // An inverted period is told before anything is asked.
    fireEvent.change(within(dialogo).getByLabelText('Data inicial'), { target: { value: '2026-12-02' } });
    fireEvent.change(within(dialogo).getByLabelText('Data final'), { target: { value: '2026-12-01' } });
    expect(within(dialogo).getByRole('alert')).toHaveTextContent('A data inicial (02/12/2026) é depois da data final (01/12/2026).');
    expect(within(dialogo).getByRole('button', { name: 'Exportar' })).toBeDisabled();

    fireEvent.change(within(dialogo).getByLabelText('Data inicial'), { target: { value: '2026-10-01' } });
    fireEvent.change(within(dialogo).getByLabelText('Data final'), { target: { value: '2026-10-31' } });
    await usuario.click(within(dialogo).getByRole('button', { name: 'Exportar' }));
    await waitFor(() => expect(pedidos).toHaveLength(1));
    expect(Object.fromEntries(pedidos[0]!.searchParams)).toEqual({ data_inicio: '2026-10-01', data_fim: '2026-10-31' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a recusa do servidor aparece em pt-BR', async () => {
    const usuario = userEvent.setup();
    montar(() => ({ status: 422, corpo: { error: 'O período tem 400 dias: exporte no máximo 366 dias (um ano) de cada vez.', codigo: 'regra_de_negocio' } }));
    fireEvent.change(await screen.findByLabelText('Data inicial'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2026-02-04' } });
    await usuario.click(screen.getByRole('button', { name: 'Exportar para o contador' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('O período tem 400 dias: exporte no máximo 366 dias (um ano) de cada vez.');
  });

  it('um download cortado no meio diz que foi interrompido, e nada é salvo', async () => {
    const usuario = userEvent.setup();
    const arquivo = arquivoEmPartes(ZIP);
    montar(() => arquivo.resposta);
    const baixado = capturarDownload();
    fireEvent.change(await screen.findByLabelText('Data inicial'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2026-11-30' } });
    await usuario.click(screen.getByRole('button', { name: 'Exportar para o contador' }));
    arquivo.enviar(2048);
    expect(await screen.findByText('Baixando… 2 KB recebidos')).toBeInTheDocument();
    arquivo.falhar();
    expect(await screen.findByRole('alert')).toHaveTextContent('O download foi interrompido antes do fim. Tente novamente.');
    expect(baixado.nome).toBeUndefined();
  });
});
