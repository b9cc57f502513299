import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pendenciasSchema } from '../../../shared/schemas/pendencias';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import '../offline/operacoes';
import { enfileirar } from '../offline/outbox';
import { guardarPerfil, lerPerfil } from '../offline/perfis';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaLogin, validarLogin } from './PaginaLogin';

const rotas = [
  { path: '/login', element: <PaginaLogin /> },
  { path: '/dashboard', element: <h1>Painel</h1> },
  { path: '/usuarios', element: <h1>Usuários</h1> },
];

describe('validarLogin', () => {
  it('usa os textos da especificação', () => {
    expect(validarLogin('  ', '')).toEqual({ email: 'Email é obrigatório', senha: 'Senha é obrigatória' });
    expect(validarLogin('ana@', 'x')).toEqual({ email: 'Email inválido' });
    expect(validarLogin(' ana@escola.com.br ', 'x')).toEqual({});
  });
});

describe('PaginaLogin', () => {
  it('mostra os erros de validação e limpa o de um campo ao digitar nele', async () => {
    const api = simularApi({ 'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }) });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(screen.getByText('Email é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Senha é obrigatória')).toBeInTheDocument();
    await usuario.type(screen.getByLabelText('Email'), 'a');
    expect(screen.queryByText('Email é obrigatório')).not.toBeInTheDocument();
    expect(screen.getByText('Senha é obrigatória')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/auth/login')).toHaveLength(0);
  });

  it('entra, avisa o sucesso e vai para o dashboard', async () => {
    let liberar!: () => void;
    const espera = new Promise<void>((r) => (liberar = r));
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }),
      'POST /auth/login': async () => {
        await espera;
        return { corpo: { token: 'tok', usuario: ADMIN_TESTE } };
      },
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'segredo1');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    const botao = await screen.findByRole('button', { name: 'Entrando...' });
    expect(botao).toBeDisabled();
    liberar();
    expect(await screen.findByRole('heading', { name: 'Painel' })).toBeInTheDocument();
    expect(await screen.findByText('Login realizado com sucesso!')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ nome: 'Ana Admin' });
  });

  it('volta para a página de origem lembrada pelo guarda de rota', async () => {
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => ({ corpo: { token: 'tok', usuario: ADMIN_TESTE } }),
    });
    const { roteador } = renderizarApp(rotas, { em: '/login' });
    await roteador.navigate('/login', { state: { de: { pathname: '/usuarios', search: '' } } });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'segredo1');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByRole('heading', { name: 'Usuários' })).toBeInTheDocument();
  });

  it('mostra a mensagem do servidor no toast (especificação) e sob o formulário quando o login é recusado (a mesma para bloqueado, senha errada e email desconhecido)', async () => {
    const MENSAGEM = 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 15 minutos.';
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => ({ status: 401, corpo: { error: MENSAGEM, codigo: 'credenciais_invalidas' } }),
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'errada');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    // The spec's error catalogue: a login failure is a toast with the server's message.
    await waitFor(() => expect(document.querySelector('.Toastify__toast')).toHaveTextContent(MENSAGEM));
    // Kept under the form too, where it stays to be read after the toast closes.
    expect(screen.getByText(MENSAGEM, { selector: 'form [role=alert]' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeEnabled();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sem o campo de mensagem, usa "Erro no login"; sem conexão, explica', async () => {
    let modo: 'sem-mensagem' | 'offline' = 'sem-mensagem';
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => (modo === 'offline' ? 'offline' : { status: 500, corpo: {} }),
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'x');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Erro no login')).toBeInTheDocument();
    modo = 'offline';
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByText(/Conecte-se à internet para entrar/)).toBeInTheDocument());
  });
});

describe('PaginaLogin: registros guardados no aparelho, sem sessão', () => {
  const MARIA = { id: 12, nome: 'Maria Silva', email: 'maria.silva@escola.com.br' };
  const JOAO = { id: 13, nome: 'João Prado', email: 'joao.prado@escola.com.br' };
  let n = 0;

  afterEach(async () => {
    motorSync.parar();
    vi.restoreAllMocks();
    await Promise.all(bancoLocal.tables.map((t) => t.clear()));
  });

  /** A sale queued on this phone by `usuarioId`, as the sales screen queues it. */
  async function venda(usuarioId: number) {
    n += 1;
    return enfileirar(bancoLocal, {
      tipo: 'venda.salvar',
      usuarioId,
      dados: {
        id: `01a20000-0000-7000-8000-${String(n).padStart(12, '0')}`,
        rota_id: 7,
        cidade_id: 5208707,
        data_venda: `2026-11-${String(n).padStart(2, '0')}`,
        valor_dinheiro: 10 + n,
        valor_pix: 0,
        valor_cartao: 0,
        valor_link: 0,
        valor_boletos: 0,
        observacoes: '',
        registrado_em: '2026-11-20T15:00:00.000Z',
        cidade_nome: 'Goiânia',
        cidade_uf: 'GO',
      },
      chaves: [`venda:7:5208707:${n}`],
      descricao: `Fechamento de Goiânia (GO) nº ${n}`,
    });
  }

  /** The files the browser was asked to save (baixarArquivo: a Blob URL and a click on a link). */
  function capturarDownloads() {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return `blob:teste-${blobs.length}`;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const nomes: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      nomes.push(this.download);
    });
    return { blobs, nomes };
  }

  const semSessao = () => simularApi({ 'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }), 'GET /config': () => 'offline' });

  it('sem nada na fila, a tela de login é só o formulário', async () => {
    semSessao();
    await guardarPerfil(bancoLocal, MARIA);
    renderizarApp(rotas, { em: '/login' });
    await screen.findByRole('button', { name: 'Entrar' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: 'Registros guardados neste aparelho' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Exportar pendências' })).not.toBeInTheDocument();
  });

  it('diz quantos registros esperam e de quem, e exporta o arquivo com o funcionário (id, nome, email) sem entrar; a fila fica', async () => {
    const api = semSessao();
    await guardarPerfil(bancoLocal, MARIA);
    const itens = [];
    for (let i = 0; i < 12; i++) itens.push(await venda(MARIA.id));
    const { blobs, nomes } = capturarDownloads();
    renderizarApp(rotas, { em: '/login' });

    const secao = await screen.findByRole('region', { name: 'Pendências de Maria Silva' });
    expect(within(secao).getByText('Este aparelho guarda 12 registros não enviados de Maria Silva.')).toBeInTheDocument();
    await userEvent.click(within(secao).getByRole('button', { name: 'Exportar pendências' }));
    expect(await within(secao).findByText('12 itens exportados.')).toBeInTheDocument();

    expect(nomes).toHaveLength(1);
    expect(nomes[0]).toMatch(/^pendencias-maria-silva-\d{4}-\d{2}-\d{2}-\d{4}\.sgp$/);
    expect(within(secao).getByText(nomes[0]!)).toBeInTheDocument();
    const conteudo = pendenciasSchema.parse(JSON.parse(await blobs[0]!.text()));
    expect(conteudo.funcionario).toEqual(MARIA);
    expect(conteudo.operacoes.map((o) => o.id)).toEqual(itens.map((i) => i.id));
    // Nothing leaves the queue, and the server was asked nothing but the session check.
    expect(await bancoLocal.outbox.count()).toBe(12);
    expect(api.chamadas.filter((c) => !c.caminho.startsWith('/auth/') && c.caminho !== '/config')).toEqual([]);
  });

  it('com a fila de várias pessoas, um arquivo por pessoa, cada um só com os registros dela; quem o aparelho não conhece é citado sem exportação', async () => {
    semSessao();
    await guardarPerfil(bancoLocal, MARIA);
    await guardarPerfil(bancoLocal, JOAO);
    const daMaria = [await venda(MARIA.id), await venda(MARIA.id)];
    const doJoao = await venda(JOAO.id);
    await venda(99);
    const { blobs } = capturarDownloads();
    renderizarApp(rotas, { em: '/login' });

    const joao = await screen.findByRole('region', { name: 'Pendências de João Prado' });
    const maria = screen.getByRole('region', { name: 'Pendências de Maria Silva' });
    expect(joao).toHaveTextContent('Este aparelho guarda 1 registro não enviado de João Prado.');
    expect(maria).toHaveTextContent('Este aparelho guarda 2 registros não enviados de Maria Silva.');
    const desconhecido = screen.getByRole('region', { name: 'Pendências do usuário nº 99' });
    expect(desconhecido).toHaveTextContent('Este aparelho guarda 1 registro não enviado de outro usuário (nº 99).');
    expect(within(desconhecido).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Exportar pendências' })).toHaveLength(2);

    await userEvent.click(within(maria).getByRole('button', { name: 'Exportar pendências' }));
    await within(maria).findByText('2 itens exportados.');
    await userEvent.click(within(joao).getByRole('button', { name: 'Exportar pendências' }));
    await within(joao).findByText('1 item exportado.');
    const arquivos = await Promise.all(blobs.map(async (b) => pendenciasSchema.parse(JSON.parse(await b.text()))));
    expect(arquivos.map((a) => [a.funcionario, a.operacoes.map((o) => o.id)])).toEqual([
      [MARIA, daMaria.map((i) => i.id)],
      [JOAO, [doJoao.id]],
    ]);
  });

  it('o aparelho guarda o perfil do funcionário ao entrar (admin não)', async () => {
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': (corpo) => ({ corpo: { token: 'tok', usuario: (corpo as { email: string }).email === ADMIN_TESTE.email ? ADMIN_TESTE : FUNCIONARIO_TESTE } }),
    });
    renderizarApp(rotas, { em: '/login' });
    await userEvent.type(await screen.findByLabelText('Email'), FUNCIONARIO_TESTE.email);
    await userEvent.type(screen.getByLabelText('Senha'), 'segredo1');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await screen.findByRole('heading', { name: 'Painel' });
    await waitFor(async () => expect(await lerPerfil(bancoLocal, FUNCIONARIO_TESTE.id)).toEqual({ id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br' }));
    expect(await lerPerfil(bancoLocal, ADMIN_TESTE.id)).toBeNull();
  });

  it('funcionário desativado com registros na fila: a sessão guardada cai no 401 e o login oferece exportar o trabalho dele', async () => {
    // Signed in before this version kept profiles: the stored session is the only place with his name.
    entrarComo(FUNCIONARIO_TESTE);
    await venda(FUNCIONARIO_TESTE.id);
    await venda(FUNCIONARIO_TESTE.id);
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'Usuário inativo. Procure um administrador.', codigo: 'sessao_invalida' } }),
      'POST /auth/logout': () => ({ corpo: {} }),
      'GET /config': () => 'offline',
    });
    const { blobs } = capturarDownloads();
    const { roteador } = renderizarApp(rotas, { em: '/dashboard' });
    await roteador.navigate('/login');
    const secao = await screen.findByRole('region', { name: 'Pendências de Bruno Campo' });
    expect(secao).toHaveTextContent('Este aparelho guarda 2 registros não enviados de Bruno Campo.');
    expect(localStorage.getItem('user')).toBeNull();
    await userEvent.click(within(secao).getByRole('button', { name: 'Exportar pendências' }));
    await within(secao).findByText('2 itens exportados.');
    expect(pendenciasSchema.parse(JSON.parse(await blobs[0]!.text())).funcionario).toEqual({ id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br' });
  });
});
