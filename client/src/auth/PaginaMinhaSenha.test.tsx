import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaMinhaSenha, validarTrocaDeSenha } from './PaginaMinhaSenha';

function montar(resposta: Parameters<typeof simularApi>[0][string]) {
  entrarComo(FUNCIONARIO_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
    'PUT /auth/senha': resposta,
  });
  renderizarApp([{ path: '/senha', element: <PaginaMinhaSenha /> }], { em: '/senha' });
  return api;
}

async function preencher(atual: string, nova: string, confirmacao = nova) {
  const usuario = userEvent.setup();
  if (atual) await usuario.type(await screen.findByLabelText(/Senha atual/), atual);
  if (nova) await usuario.type(screen.getByLabelText(/^Nova senha/), nova);
  if (confirmacao) await usuario.type(screen.getByLabelText(/Confirmar nova senha/), confirmacao);
  await usuario.click(screen.getByRole('button', { name: 'Trocar senha' }));
}

describe('validarTrocaDeSenha', () => {
  it('pede a atual, 6 caracteres na nova, diferente da atual, e a confirmação igual', () => {
    expect(validarTrocaDeSenha({ atual: '', nova: '', confirmacao: '' })).toEqual({ atual: 'Informe a senha atual', nova: 'Informe a nova senha' });
    expect(validarTrocaDeSenha({ atual: 'abc123', nova: '12345', confirmacao: '12345' })).toEqual({ nova: 'A nova senha deve ter pelo menos 6 caracteres' });
    expect(validarTrocaDeSenha({ atual: 'abc123', nova: 'abc123', confirmacao: 'abc123' })).toEqual({ nova: 'A nova senha deve ser diferente da atual' });
    expect(validarTrocaDeSenha({ atual: 'abc123', nova: 'nova-senha', confirmacao: 'outra' })).toEqual({ confirmacao: 'As senhas não conferem' });
    expect(validarTrocaDeSenha({ atual: 'abc123', nova: 'nova-senha', confirmacao: 'nova-senha' })).toEqual({});
  });
});

describe('PaginaMinhaSenha', () => {
  it('envia a senha atual e a nova, avisa o sucesso e limpa o formulário', async () => {
    const api = montar(() => ({ corpo: { message: 'Senha alterada com sucesso.' } }));
    await preencher('senha123', 'nova-senha-1');
    expect(await screen.findByText('Senha alterada com sucesso.')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.caminho === '/auth/senha')?.corpo).toEqual({ senhaAtual: 'senha123', novaSenha: 'nova-senha-1' });
    await waitFor(() => expect(screen.getByLabelText(/Senha atual/)).toHaveValue(''));
  });

  it('não envia com erro de validação e mostra o erro no campo', async () => {
    const api = montar(() => ({ corpo: { message: 'x' } }));
    await preencher('senha123', 'nova-senha-1', 'diferente');
    expect(await screen.findByText('As senhas não conferem')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.caminho === '/auth/senha')).toBe(false);
  });

  it('mostra a recusa do servidor (senha atual errada) e a falta de conexão', async () => {
    let modo: 'errada' | 'offline' = 'errada';
    montar(() => (modo === 'offline' ? 'offline' : { status: 422, corpo: { error: 'Senha atual incorreta.', codigo: 'regra_de_negocio' } }));
    await preencher('errada1', 'nova-senha-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Senha atual incorreta.');
    modo = 'offline';
    await userEvent.setup().click(screen.getByRole('button', { name: 'Trocar senha' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Sem conexão com o servidor. Conecte-se à internet para trocar a senha.'));
  });
});
