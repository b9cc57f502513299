import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ResumoDesativacao, Usuario } from '../../../shared/schemas/usuarios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { PaginaUsuarios } from './PaginaUsuarios';

function base(): Usuario[] {
  return [
    ADMIN_TESTE,
    { ...ADMIN_TESTE, id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br', tipo: 'funcionario' },
    { ...ADMIN_TESTE, id: 3, nome: 'Carla Inativa', email: 'carla@escola.com.br', tipo: 'funcionario', ativo: false },
    {
      ...ADMIN_TESTE,
      id: 4,
      nome: 'Davi Bloqueado',
      email: 'davi@escola.com.br',
      tipo: 'funcionario',
      bloqueado: true,
      tentativas_login: 5,
      bloqueado_ate: '2026-03-10T17:35:00.000Z',
    },
  ];
}

const sp = (t: string | null | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();

const SESSOES = () => [
  { ref: 'aaaaaaaaaaaaaaaa', descricao: 'Mozilla/5.0 (Linux; Android 13; SM-A135M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36', criada_em: '2026-11-20T10:00:00.000Z', expira_em: '2026-12-20T10:00:00.000Z', atual: false },
  { ref: 'bbbbbbbbbbbbbbbb', descricao: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', criada_em: '2026-11-22T12:30:00.000Z', expira_em: '2026-12-22T12:30:00.000Z', atual: false },
];

const HORA_MS = 3600_000;

/** What stays with Bruno: an active route, R$ 700,00 and records on two phones. */
const RESUMO_COM_PENDENCIAS = (): ResumoDesativacao => ({
  usuario_id: 2,
  nome: 'Bruno Campo',
  rota_ativa: { id: 7, nome: 'Rota Goiás' },
  saldo_atual: 700,
  celulares: [
    {
      funcionario_id: 2,
      funcionario_nome: 'Bruno Campo',
      dispositivo_id: '22222222-3333-4444-8555-666666666666',
      versao: '0.5.0',
      versao_antiga: false,
      fila: { venda: 0, visita: 0, despesa: 1, rota: 0 },
      mais_antigo_em: new Date(Date.now() - 30 * HORA_MS).toISOString(),
      ultima_sync_em: null,
      visto_em: new Date(Date.now() - 2 * HORA_MS).toISOString(),
    },
    {
      funcionario_id: 2,
      funcionario_nome: 'Bruno Campo',
      dispositivo_id: '11111111-2222-4333-8444-555555555555',
      versao: '0.5.0',
      versao_antiga: false,
      fila: { venda: 2, visita: 0, despesa: 0, rota: 0 },
      mais_antigo_em: new Date(Date.now() - 3 * HORA_MS - 60_000).toISOString(),
      ultima_sync_em: '2026-11-20T17:32:00.000Z',
      visto_em: new Date(Date.now() - 60_000).toISOString(),
    },
  ],
});

const RESUMO_VAZIO = (): ResumoDesativacao => ({ usuario_id: 2, nome: 'Bruno Campo', rota_ativa: null, saldo_atual: 0, celulares: [] });

function montar(usuarios = base(), resumo: ManipuladorApi = () => ({ corpo: RESUMO_VAZIO() })) {
  entrarComo(ADMIN_TESTE);
  let sessoes = SESSOES();
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios/:id/desativacao': resumo,
    'GET /usuarios': () => ({ corpo: { usuarios } }),
    'POST /usuarios': (corpo) => {
      const c = corpo as { email: string };
      if (usuarios.some((u) => u.email === c.email)) return { status: 409, corpo: { error: 'Já existe um usuário com este email.' } };
      const novo = { ...ADMIN_TESTE, ...(corpo as object), id: 10 } as Usuario;
      usuarios.push(novo);
      return { status: 201, corpo: { usuario: novo } };
    },
    'PATCH /usuarios/:id/desativar': (_c, url) => {
      const u = usuarios.find((x) => x.id === Number(url.pathname.split('/')[3]))!;
      u.ativo = false;
      return { corpo: { usuario: u } };
    },
    'PATCH /usuarios/:id/desbloquear': (_c, url) => {
      const u = usuarios.find((x) => x.id === Number(url.pathname.split('/')[3]))!;
      u.bloqueado = false;
      u.tentativas_login = 0;
      return { corpo: { usuario: u } };
    },
    'PATCH /usuarios/:id/senha': () => ({ corpo: { usuario: usuarios[1] } }),
    'POST /usuarios/:id/encerrar-sessoes': () => ({ corpo: { message: '2 sessões encerradas.', encerradas: 2 } }),
    'GET /usuarios/:id/sessoes': () => ({ corpo: { sessoes } }),
    'DELETE /usuarios/:id/sessoes/:ref': (_c, url) => {
      const ref = url.pathname.split('/').at(-1);
      sessoes = sessoes.filter((s) => s.ref !== ref);
      return { corpo: { message: '1 sessão encerrada.', encerradas: 1 } };
    },
    'PATCH /usuarios/:id': (corpo, url) => {
      const u = usuarios.find((x) => x.id === Number(url.pathname.split('/')[3]))!;
      Object.assign(u, corpo);
      return { corpo: { usuario: u } };
    },
  });
  renderizarApp([{ path: '/usuarios', element: <PaginaUsuarios /> }], { em: '/usuarios' });
  return api;
}

describe('Gerenciamento de Usuários', () => {
  it('separa ativos, inativos e bloqueados nas abas, com as colunas da especificação', async () => {
    montar();
    expect(await screen.findByText('Bruno Campo')).toBeInTheDocument();
    // The spec's columns, Nome and Email each its own (they fit beside the sidebar at 1280 px).
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Nome', 'Email', 'Tipo', 'Status', 'Bloqueio', 'Data de Criação', 'Ações']);
    const bruno = screen.getByText('Bruno Campo').closest('tr')!;
    expect(within(bruno).getAllByRole('cell')[0]).toHaveTextContent(/^Bruno Campo$/);
    expect(within(bruno).getAllByRole('cell')[1]).toHaveTextContent(/^\S+@\S+$/);
    expect(screen.getByRole('tab', { name: 'Ativos (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByText('Carla Inativa')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Inativos (1)' }));
    expect(screen.getByText('Carla Inativa')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Bloqueados (1)' }));
    const linha = screen.getByText('Davi Bloqueado').closest('tr')!;
    expect(within(linha).getByText('Bloqueado (5 tentativas)')).toBeInTheDocument();
  });

  it('cria um funcionário validando os campos antes de enviar', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Novo Funcionário' }));
    const modal = screen.getByRole('dialog', { name: 'Novo Funcionário' });
    await usuario.click(within(modal).getByRole('button', { name: 'Criar' }));
    expect(within(modal).getByText('Nome é obrigatório.')).toBeInTheDocument();
    expect(within(modal).getByText('Email é obrigatório.')).toBeInTheDocument();
    expect(within(modal).getByText('Senha deve ter pelo menos 6 caracteres.')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.metodo === 'POST')).toBe(false);

    await usuario.type(within(modal).getByLabelText(/Nome/), 'Elisa Nova');
    await usuario.type(within(modal).getByLabelText(/Email/), 'elisa@escola.com.br');
    await usuario.type(within(modal).getByLabelText(/^Senha/), 'segredo1');
    await usuario.click(within(modal).getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText('Usuário criado com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({ nome: 'Elisa Nova', email: 'elisa@escola.com.br', senha: 'segredo1', tipo: 'funcionario' });
    expect(await screen.findByText('Elisa Nova')).toBeInTheDocument();
  });

  it('mostra a mensagem do servidor quando o email já existe', async () => {
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Novo Funcionário' }));
    const modal = screen.getByRole('dialog');
    await usuario.type(within(modal).getByLabelText(/Nome/), 'Outro Bruno');
    await usuario.type(within(modal).getByLabelText(/Email/), 'bruno@escola.com.br');
    await usuario.type(within(modal).getByLabelText(/^Senha/), 'segredo1');
    await usuario.click(within(modal).getByRole('button', { name: 'Criar' }));
    expect(await within(modal).findByText('Já existe um usuário com este email.')).toBeInTheDocument();
  });

  it('edita sem trocar a senha quando ela fica em branco, e troca quando tem 6+ caracteres', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Editar Bruno Campo' }));
    let modal = screen.getByRole('dialog', { name: 'Editar Usuário' });
    expect(within(modal).getByLabelText('Status')).toHaveValue('ativo');
    const nome = within(modal).getByLabelText(/Nome/);
    await usuario.clear(nome);
    await usuario.type(nome, 'Bruno Silva');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Usuário atualizado com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/usuarios/2/senha')).toHaveLength(0);
    expect(api.chamadas.find((c) => c.caminho === '/usuarios/2')?.corpo).toMatchObject({ nome: 'Bruno Silva', tipo: 'funcionario', ativo: true });

    await usuario.click(await screen.findByRole('button', { name: 'Editar Bruno Silva' }));
    modal = screen.getByRole('dialog', { name: 'Editar Usuário' });
    await usuario.type(within(modal).getByLabelText(/Nova senha/), '123');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    expect(within(modal).getByText('Senha deve ter pelo menos 6 caracteres.')).toBeInTheDocument();
    await usuario.type(within(modal).getByLabelText(/Nova senha/), '456');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(api.chamadas.find((c) => c.caminho === '/usuarios/2/senha')?.corpo).toEqual({ novaSenha: '123456' }));
  });

  it('desativa só depois do "Sim" e desbloqueia com a mensagem de sucesso', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Desativar Bruno Campo' }));
    expect(screen.getByText('Tem certeza que deseja desativar o usuário Bruno Campo?')).toBeInTheDocument();
    await usuario.click(screen.getByRole('button', { name: 'Não' }));
    expect(api.chamadas.some((c) => c.caminho.endsWith('/desativar'))).toBe(false);
    await usuario.click(screen.getByRole('button', { name: 'Desativar Bruno Campo' }));
    // 'Sim' waits for what stays with the person to be read (nothing, here).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sim' })).toBeEnabled());
    await usuario.click(screen.getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Usuário desativado com sucesso.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Inativos (2)' })).toBeInTheDocument());

    await usuario.click(screen.getByRole('tab', { name: 'Bloqueados (1)' }));
    await usuario.click(screen.getByRole('button', { name: 'Desbloquear Davi Bloqueado' }));
    expect(await screen.findByText('Usuário desbloqueado com sucesso.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Bloqueados (0)' })).toBeInTheDocument());
  });

  it('a confirmação de desativar diz, antes do "Sim", a rota ativa, o saldo e os registros não enviados, e o que acontece com cada um', async () => {
    const api = montar(base(), () => ({ corpo: RESUMO_COM_PENDENCIAS() }));
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Desativar Bruno Campo' }));
    const dialogo = screen.getByRole('dialog', { name: 'Desativar usuário' });
    const fatos = await within(dialogo).findByRole('list', { name: 'O que fica com Bruno Campo' });
    const itens = within(fatos).getAllByRole('listitem').map((li) => sp(li.textContent));
    expect(itens[0]).toBe('Rota ativa: Rota Goiás. Continua ativa até um administrador finalizá-la ou cancelá-la.');
    expect(itens[1]).toBe('Saldo: R$ 700,00. Continua na tela Saldo, marcado como Inativo, enquanto não for zerado.');
    expect(within(fatos).getByText('R$ 700,00', { normalizer: sp })).toHaveClass('valor-positivo');
    expect(itens[2]).toContain('Registros não enviados: 2 vendas e 1 despesa, em 2 celulares:');
    expect(itens[2]).toContain('1 despesa há 1 dia · nunca sincronizou');
    expect(itens[2]).toContain('2 vendas há 3 horas · última sincronização 20/11 14:32');
    expect(itens[2]).toContain("Nada se perde: na tela de login do celular, 'Exportar pendências' gera um arquivo que você importa aqui em 'Importar pendências'.");
    expect(within(dialogo).getByText('A sessão de Bruno Campo termina na hora; ninguém entra mais com essa conta.')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/usuarios/2/desativacao')).toHaveLength(1);
    // The facts come before the 'Sim'; it still deactivates.
    await usuario.click(within(dialogo).getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Usuário desativado com sucesso.')).toBeInTheDocument();
  });

  it('saldo negativo em vermelho; sem rota e sem celulares, só o saldo', async () => {
    montar(base(), () => ({ corpo: { ...RESUMO_VAZIO(), saldo_atual: -50 } }));
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Desativar Bruno Campo' }));
    const fatos = await screen.findByRole('list', { name: 'O que fica com Bruno Campo' });
    expect(within(fatos).getAllByRole('listitem')).toHaveLength(1);
    expect(within(fatos).getByText('-R$ 50,00', { normalizer: sp })).toHaveClass('valor-negativo');
  });

  it('nada a relatar: a confirmação continua simples', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Desativar Bruno Campo' }));
    const dialogo = screen.getByRole('dialog', { name: 'Desativar usuário' });
    await waitFor(() => expect(within(dialogo).getByRole('button', { name: 'Sim' })).toBeEnabled());
    expect(within(dialogo).queryByRole('list')).not.toBeInTheDocument();
    expect(within(dialogo).queryByText(/termina na hora/)).not.toBeInTheDocument();
    expect(within(dialogo).getByText('Tem certeza que deseja desativar o usuário Bruno Campo?')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/usuarios/2/desativacao')).toHaveLength(1);
  });

  it('o resumo que não carrega não impede desativar: a confirmação diz que não foi possível verificar', async () => {
    montar(base(), () => ({ status: 500, corpo: { error: 'Erro interno', codigo: 'erro_interno' } }));
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Desativar Bruno Campo' }));
    const dialogo = screen.getByRole('dialog', { name: 'Desativar usuário' });
    expect(await within(dialogo).findByText(/^Não foi possível verificar a rota, o saldo e os registros não enviados/)).toBeInTheDocument();
    await usuario.click(within(dialogo).getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Usuário desativado com sucesso.')).toBeInTheDocument();
  });

  it('ativar não consulta o resumo', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('tab', { name: 'Inativos (1)' }));
    await usuario.click(screen.getByRole('button', { name: 'Ativar Carla Inativa' }));
    expect(screen.getByText('Tem certeza que deseja ativar o usuário Carla Inativa?')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.caminho.endsWith('/desativacao'))).toBe(false);
  });

  it('na aba Bloqueados diz quando o bloqueio passa sozinho (fuso do app)', async () => {
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('tab', { name: 'Bloqueados (1)' }));
    expect(await screen.findByText('Libera sozinho em 10/03/2026 14:35')).toBeInTheDocument();
  });

  it("'Sessões' lista os aparelhos conectados; 'Encerrar' encerra só aquele e a lista se atualiza", async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Sessões de Bruno Campo' }));
    const dialogo = await screen.findByRole('dialog', { name: 'Sessões de Bruno Campo' });
    expect(await within(dialogo).findByText('Chrome no Android')).toBeInTheDocument();
    expect(within(dialogo).getByText('Firefox no Windows')).toBeInTheDocument();
    expect(within(dialogo).getByText('Entrou em 20/11/2026 07:00 · vale até 20/12/2026')).toBeInTheDocument();
    await usuario.click(within(dialogo).getByRole('button', { name: /^Encerrar sessão: Chrome no Android/ }));
    expect(await screen.findByText('Sessão encerrada: Chrome no Android.')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.metodo === 'DELETE').map((c) => c.caminho)).toEqual(['/usuarios/2/sessoes/aaaaaaaaaaaaaaaa']);
    await waitFor(() => expect(within(dialogo).queryByText('Chrome no Android')).not.toBeInTheDocument());
    expect(within(dialogo).getByText('Firefox no Windows')).toBeInTheDocument();
  });

  it("'Encerrar todas' só depois do 'Sim', com a mensagem de sucesso", async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Sessões de Bruno Campo' }));
    const dialogo = await screen.findByRole('dialog', { name: 'Sessões de Bruno Campo' });
    await within(dialogo).findByText('Chrome no Android');
    await usuario.click(within(dialogo).getByRole('button', { name: 'Encerrar todas' }));
    expect(within(dialogo).getByText(/^Encerrar todas as sessões de Bruno Campo\?/)).toBeInTheDocument();
    await usuario.click(within(dialogo).getByRole('button', { name: 'Não' }));
    expect(api.chamadas.some((c) => c.caminho.endsWith('/encerrar-sessoes'))).toBe(false);
    await usuario.click(within(dialogo).getByRole('button', { name: 'Encerrar todas' }));
    await usuario.click(within(dialogo).getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Sessões de Bruno Campo encerradas (2).')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/usuarios/2/encerrar-sessoes')).toHaveLength(1);
  });
});
