import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useLocation } from 'react-router-dom';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { enfileirar } from '../offline/outbox';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import '../vendas/operacoes';
import { Layout } from './Layout';

function OndeEstou() {
  const l = useLocation();
  return <p>Tela {l.pathname + l.search}</p>;
}

afterEach(async () => {
  motorSync.parar();
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

async function montarComRecusa() {
  entrarComo(FUNCIONARIO_TESTE);
  simularApi({ 'GET /auth/me': () => 'offline', 'GET /config': () => 'offline' });
  const item = await enfileirar(bancoLocal, {
    tipo: 'venda.salvar',
    usuarioId: FUNCIONARIO_TESTE.id,
    dados: { id: '01a20000-0000-7000-8000-000000000001', rota_id: 7, cidade_id: 5208707, data_venda: '2026-11-20', valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: '2026-11-20T15:00:00.000Z', cidade_nome: 'Goiânia', cidade_uf: 'GO' },
    chaves: ['venda:7:5208707:2026-11-20'],
    descricao: 'Fechamento de Goiânia (GO) em 20/11/2026',
  });
  await bancoLocal.outbox.where('id').equals(item.id).modify({ estado: 'erro', erro: 'Esta rota já foi finalizada e não aceita novos registros.' });
  renderizarApp([{ element: <Layout />, children: [{ path: '/dashboard', element: <OndeEstou /> }, { path: '/vendas', element: <OndeEstou /> }] }], { em: '/dashboard' });
  await act(async () => motorSync.acompanharContagem());
  await userEvent.click(await screen.findByRole('button', { name: /1 precisa de atenção/ }));
  return item;
}

describe('Painel de sincronização', () => {
  it('mostra o item recusado com a mensagem do servidor; "Editar" leva à tela que o corrige', async () => {
    await montarComRecusa();
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    const secao = await within(painel).findByRole('region', { name: 'Precisam de atenção' });
    expect(within(secao).getByText('Fechamento de Goiânia (GO) em 20/11/2026')).toBeInTheDocument();
    expect(within(secao).getByText('Esta rota já foi finalizada e não aceita novos registros.')).toBeInTheDocument();
    await userEvent.click(within(secao).getByRole('button', { name: 'Editar' }));
    expect(await screen.findByText('Tela /vendas?data=2026-11-20&cidade=5208707')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Sincronização' })).not.toBeInTheDocument();
  });

  it('"Descartar" pergunta antes e só então apaga o item', async () => {
    await montarComRecusa();
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    await userEvent.click(within(painel).getByRole('button', { name: 'Descartar' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(await bancoLocal.outbox.count()).toBe(1);
    await userEvent.click(within(painel).getByRole('button', { name: 'Descartar' }));
    const confirmacao = screen.getByRole('dialog', { name: 'Descartar registro' });
    expect(confirmacao).toHaveTextContent('nunca chegará ao servidor');
    await userEvent.click(within(confirmacao).getByRole('button', { name: 'Descartar' }));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(await bancoLocal.outbox.count()).toBe(0);
  });
});

describe('Conflito de versão no painel', () => {
  it('mostra só os campos que diferem, com o valor deste aparelho e o do servidor, a observação do servidor e quando mudou', async () => {
    const item = await montarComRecusa();
    const conflito = {
      versao_atual: 2,
      alterado_em: '2026-11-20T18:05:00.000Z',
      servidor: { valor_dinheiro: 150_000, valor_pix: 55_090, valor_cartao: 50_000, valor_link: 0, valor_boletos: 3, observacoes: 'Pix corrigido pelo extrato' },
      enviado: { valor_dinheiro: 150_000, valor_pix: 67_040, valor_cartao: 50_000, valor_link: 0, valor_boletos: 3, observacoes: '' },
    };
    await act(async () => {
      await bancoLocal.outbox.where('id').equals(item.id).modify({ erro: 'Este fechamento foi alterado em outro aparelho depois que este aparelho o leu.', conflito });
    });
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    const tabela = await within(painel).findByRole('table', { name: 'Diferenças entre este aparelho e o servidor' });
    const linhas = within(tabela).getAllByRole('row').map((l) => l.textContent!.replace(/\s/g, ' '));
    expect(linhas).toEqual(['CampoNeste aparelhoNo servidor', 'PixR$ 670,40R$ 550,90', 'Observaçõessem observaçãoPix corrigido pelo extrato']);
    expect(within(painel).getByText(/Alterado no servidor em 20\/11\/2026 15:05, em outro aparelho/)).toBeInTheDocument();
    expect(within(painel).getByText('Este fechamento foi alterado em outro aparelho depois que este aparelho o leu. Escolha qual manter.')).toBeInTheDocument();
    // Only what differs: the untouched payments are not listed.
    expect(within(tabela).queryByText('Dinheiro')).not.toBeInTheDocument();
    expect(within(tabela).queryByText('Boletos')).not.toBeInTheDocument();
  });

  it('"Ficar com o do servidor" pergunta e tira o item deste aparelho', async () => {
    const item = await montarComRecusa();
    const conflito = {
      versao_atual: 3,
      servidor: { valor_dinheiro: 10_000, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
      enviado: { valor_dinheiro: 1_000, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
    };
    await act(async () => {
      await bancoLocal.outbox.where('id').equals(item.id).modify({ erro: 'Este fechamento foi alterado em outro aparelho depois que este aparelho o leu.', conflito });
    });
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    await userEvent.click(await within(painel).findByRole('button', { name: 'Ficar com o do servidor' }));
    const confirmacao = screen.getByRole('dialog', { name: 'Ficar com o valor do servidor' });
    await userEvent.click(within(confirmacao).getByRole('button', { name: 'Ficar com o do servidor' }));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
  });

  it('"Manter o deste aparelho" reenvia com base na versão do servidor', async () => {
    const item = await montarComRecusa();
    const conflito = {
      versao_atual: 3,
      servidor: { valor_dinheiro: 10_000, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
      enviado: { valor_dinheiro: 25_000, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 1, observacoes: '' },
    };
    await act(async () => {
      await bancoLocal.outbox.where('id').equals(item.id).modify({ erro: 'Este fechamento foi alterado em outro aparelho depois que este aparelho o leu.', conflito });
    });
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    const secao = await within(painel).findByRole('region', { name: 'Precisam de atenção' });
    const tabela = await within(secao).findByRole('table', { name: 'Diferenças entre este aparelho e o servidor' });
    expect(within(tabela).getAllByRole('row').map((l) => l.textContent!.replace(/\s/g, ' '))).toEqual([
      'CampoNeste aparelhoNo servidor',
      'DinheiroR$ 250,00R$ 100,00',
      'Boletos10',
    ]);
    expect(within(secao).queryByRole('button', { name: 'Tentar novamente' })).not.toBeInTheDocument();
    // No signal: the item goes back to the queue and waits there, based on the server's version.
    simularApi({ 'GET /auth/me': () => 'offline', 'GET /config': () => 'offline', 'POST /sync/lote': () => 'offline' });
    await userEvent.click(within(secao).getByRole('button', { name: 'Manter o deste aparelho' }));
    await waitFor(async () => {
      const guardado = await bancoLocal.outbox.where('id').equals(item.id).first();
      expect(guardado).toMatchObject({ estado: 'pendente', conflito: null, dados: { versao_base: 3, valor_dinheiro: 10 } });
    });
  });
});
