import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { enfileirar } from '../offline/outbox';
import { motivoParaEsperar } from '../pwa/AvisoAtualizacao';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { versaoApp } from '../versaoApp';
import '../vendas/operacoes';
import { textoIndicador } from './IndicadorSync';
import { Layout } from './Layout';

const MENSAGEM = 'Atualize o aplicativo para continuar sincronizando. Esta versão (0.1.0) é anterior à mínima aceita pelo servidor (0.2.0).';

afterEach(async () => {
  motorSync.parar();
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('Atualize o aplicativo (426)', () => {
  it('o indicador diz "Atualize o aplicativo"; o painel explica que nada se perdeu e oferece a atualização', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    let minima = '0.2.0';
    const api = simularApi({
      'GET /auth/me': () => 'offline',
      'GET /config': () => ({ corpo: { centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', versao: 'x', versao_minima_app: minima } }),
      'POST /sync/lote': (corpo) =>
        minima === '0.2.0'
          ? { status: 426, corpo: { error: MENSAGEM, codigo: 'versao_antiga' } }
          : { corpo: { resultados: (corpo as { operacoes: { id: string }[] }).operacoes.map((o) => ({ id: o.id, status: 201 })) } },
    });
    for (const data of ['2026-11-20', '2026-11-21']) {
      await enfileirar(bancoLocal, {
        tipo: 'venda.salvar',
        usuarioId: FUNCIONARIO_TESTE.id,
        dados: { id: `01a20000-0000-7000-8000-00000000000${data.slice(-1)}`, rota_id: 7, cidade_id: 5208707, data_venda: data, valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: `${data}T15:00:00.000Z`, cidade_nome: 'Goiânia', cidade_uf: 'GO' },
        chaves: [`venda:7:5208707:${data}`],
        descricao: `Fechamento de Goiânia (GO) em ${data}`,
      });
    }
    renderizarApp([{ element: <Layout />, children: [{ path: '/dashboard', element: <p>Painel</p> }] }], { em: '/dashboard' });
    await act(async () => motorSync.sincronizarAgora());
    expect(motorSync.estado().atualizacaoNecessaria).toBe(true);

    const indicador = await screen.findByRole('button', { name: /^Atualize o aplicativo/ });
    expect(indicador).toHaveClass('indicador-sync--erro');
    await userEvent.click(indicador);
    const painel = await screen.findByRole('dialog', { name: 'Sincronização' });
    const aviso = within(painel).getByRole('alert', { name: 'Atualize o aplicativo' });
    expect(aviso).toHaveTextContent(`Esta versão (${versaoApp()}) não é mais aceita pelo servidor.`);
    await waitFor(() => expect(aviso).toHaveTextContent('Os 2 registros continuam guardados neste aparelho e serão enviados depois da atualização.'));
    expect(within(painel).getByRole('region', { name: 'Aguardando envio' })).toHaveTextContent('Aguardando envio (2)');
    expect(await bancoLocal.outbox.count()).toBe(2);
    expect((await bancoLocal.outbox.toArray()).every((i) => i.estado === 'pendente' && i.erro === null)).toBe(true);

    // No service worker here (jsdom): the button reloads the page, which is the new version. The engine
    // also goes again once the server accepts this version.
    const lotes = () => api.chamadas.filter((c) => c.caminho === '/sync/lote').length;
    expect(lotes()).toBe(1);
    minima = '0.1.0';
    await act(async () => motorSync.sincronizarAgora());
    expect(motorSync.estado().atualizacaoNecessaria).toBe(false);
    expect(lotes()).toBe(2);
    expect(await bancoLocal.outbox.count()).toBe(0);
    expect(await screen.findByRole('button', { name: /^Sincronizado/ })).toBeInTheDocument();
  });

  it('textos: o indicador põe a atualização à frente de tudo; a nova versão não espera a fila que o servidor recusa', () => {
    const e = { online: true, sincronizando: false, pendentes: 3, comErro: 1, pausadoPorSessao: false };
    expect(textoIndicador({ ...e, atualizacaoNecessaria: true })).toBe('Atualize o aplicativo');
    expect(textoIndicador(e)).toBe('1 precisa de atenção');
    // A long replay shows its progress; someone else's queue on this phone is not 'Sincronizado'.
    const parado = { online: true, sincronizando: false, pendentes: 0, comErro: 0, pausadoPorSessao: false };
    expect(textoIndicador({ ...parado, sincronizando: true, pendentes: 880, progresso: { enviados: 120, total: 1000 } })).toBe('Enviando 120 de 1.000');
    expect(textoIndicador({ ...parado, deOutrosUsuarios: 3 })).toBe('3 de outro usuário aguardando');
    expect(textoIndicador(parado)).toBe('Sincronizado');
    expect(motivoParaEsperar(3, false, false, true)).toBeNull();
    expect(motivoParaEsperar(3, false, false, false)).toBe('Enviando 3 registros antes de atualizar...');
    expect(motivoParaEsperar(3, false, true, true)).toBe('Feche o formulário aberto para atualizar.');
  });
});
