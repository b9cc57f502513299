/** The admin reads the audit trail: what each row changed, filters and paging by the server. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { ListaAuditoria, RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaAuditoria } from './PaginaAuditoria';

const REGISTROS: RegistroAuditoria[] = [
  {
    id: 3,
    admin_id: 1,
    admin_nome: 'Ana Admin',
    acao: 'despesa.rejeitar',
    alvo_tipo: 'despesa',
    alvo_id: '0193a2b4-0000-7000-8000-000000000001',
    alvo_nome: null,
    alvo_descricao: 'Despesa de Bruno Campo · Alimentação · R$\u00a048,00 · 03/12/2026',
    alvo_link: '/despesas?despesa=0193a2b4-0000-7000-8000-000000000001',
    antes: { status_aprovacao: 'pendente', motivo_rejeicao: null },
    depois: { status_aprovacao: 'rejeitada', motivo_rejeicao: 'Sem nota fiscal' },
    criado_em: '2026-11-25T14:05:00.000Z',
  },
  {
    id: 2,
    admin_id: 1,
    admin_nome: 'Ana Admin',
    acao: 'saldo.creditar',
    alvo_tipo: 'usuario',
    alvo_id: '5',
    alvo_nome: 'Bruno Campo',
    alvo_descricao: 'Crédito de R$\u00a0250,00 para Bruno Campo',
    alvo_link: '/saldo?funcionario=5',
    antes: { saldo_centavos: 0 },
    depois: { saldo_centavos: 25_000, valor_centavos: 25_000, descricao: 'Adiantamento', rota_id: 7 },
    criado_em: '2026-11-25T13:00:00.000Z',
  },
  {
    id: 1,
    admin_id: 1,
    admin_nome: 'Ana Admin',
    acao: 'rota.excluir',
    alvo_tipo: 'rota',
    alvo_id: '9',
    alvo_nome: 'Rota Norte',
    alvo_descricao: 'Rota Norte · Bruno Campo (excluída)',
    alvo_link: null,
    antes: { nome: 'Rota Norte', status: 'cancelada' },
    depois: null,
    criado_em: '2026-11-25T12:00:00.000Z',
  },
];

/** Where a link of the trail led: the screen's address, as the target screen reads it. */
function Destino() {
  const local = useLocation();
  return <p data-testid="destino">{`${local.pathname}${local.search}`}</p>;
}

let pedidosDeUsuarios: URL[] = [];

function montar(total = REGISTROS.length) {
  entrarComo(ADMIN_TESTE);
  pedidosDeUsuarios = [];
  const urls: URL[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    // Only the admins are asked for (the filter's options), not every employee.
    'GET /usuarios': (_c, url) => {
      pedidosDeUsuarios.push(url);
      return { corpo: { usuarios: [{ ...ADMIN_TESTE, nome: 'Ana Admin' }], total: 1, page: 1, limit: 1000 } };
    },
    'GET /auditoria': (_c, url) => {
      urls.push(url);
      const lista: ListaAuditoria = { registros: REGISTROS, nomes: { usuarios: {}, rotas: { '7': 'Rota Sul' } }, total, page: Number(url.searchParams.get('page')), limit: 50 };
      return { corpo: lista };
    },
  });
  renderizarApp(
    [
      { path: '/auditoria', element: <PaginaAuditoria /> },
      { path: '/despesas', element: <Destino /> },
    ],
    { em: '/auditoria' },
  );
  return urls;
}

describe('Auditoria', () => {
  it('mostra quem, quando, a ação sobre o quê e só o que mudou, em reais e com rótulos', async () => {
    montar();
    // The action's name is also an option of the 'Ação' filter: the row's is the bold one.
    const rejeicao = (await screen.findByText('Despesa rejeitada', { selector: 'strong' })).closest('tr')!;
    expect(within(rejeicao).getByText('Ana Admin')).toBeInTheDocument();
    expect(within(rejeicao).getByText('25/11/2026 11:05')).toBeInTheDocument();
    // What the row is about, in the server's words, linked to the screen that opens it.
    const despesa = within(rejeicao).getByRole('link', { name: 'Despesa de Bruno Campo · Alimentação · R$\u00a048,00 · 03/12/2026' });
    expect(despesa).toHaveAttribute('href', '/despesas?despesa=0193a2b4-0000-7000-8000-000000000001');
    expect(within(rejeicao).getByText('Aprovação: Pendente → Rejeitada')).toBeInTheDocument();
    expect(within(rejeicao).getByText('Motivo: — → Sem nota fiscal')).toBeInTheDocument();
    const credito = screen.getByText('Crédito no saldo', { selector: 'strong' }).closest('tr')!;
    expect(within(credito).getByRole('link', { name: 'Crédito de R$\u00a0250,00 para Bruno Campo' })).toHaveAttribute('href', '/saldo?funcionario=5');
    expect(within(credito).getByText(/^Saldo: R\$\s0,00 → R\$\s250,00$/)).toBeInTheDocument();
    expect(within(credito).getByText('Rota: Rota Sul (#7)')).toBeInTheDocument();
    // A record that no longer exists: named, said to be deleted, and no link.
    const exclusao = screen.getByText('Rota excluída', { selector: 'strong' }).closest('tr')!;
    expect(within(exclusao).getByText('Rota Norte · Bruno Campo (excluída)')).toBeInTheDocument();
    expect(within(exclusao).queryByRole('link')).toBeNull();
    expect(screen.getByText('3 registros')).toBeInTheDocument();
    expect(pedidosDeUsuarios.map((u) => u.searchParams.get('tipo'))).toEqual(['admin']);
  });

  it('o link do registro abre a tela do registro', async () => {
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('link', { name: /^Despesa de Bruno Campo/ }));
    expect(await screen.findByTestId('destino')).toHaveTextContent('/despesas?despesa=0193a2b4-0000-7000-8000-000000000001');
  });

  it('Filtrar pede ao servidor a ação, o admin e o período, da página 1; Próxima pede a página 2', async () => {
    const urls = montar(120);
    const usuario = userEvent.setup();
    await screen.findByText('Despesa rejeitada', { selector: 'strong' });
    await usuario.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('page')).toBe('2'));
    await usuario.selectOptions(screen.getByLabelText('Ação'), 'Crédito no saldo');
    await usuario.selectOptions(screen.getByLabelText('Administrador'), 'Ana Admin');
    await usuario.type(screen.getByLabelText('Data inicial'), '2026-11-01');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('acao')).toBe('saldo.creditar'));
    expect(urls.at(-1)!.searchParams.get('admin_id')).toBe(String(ADMIN_TESTE.id));
    expect(urls.at(-1)!.searchParams.get('data_inicio')).toBe('2026-11-01');
    expect(urls.at(-1)!.searchParams.get('page')).toBe('1');
  });
});
