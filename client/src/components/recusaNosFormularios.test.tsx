/**
 * Every form shows a refusal where the person is: a refused send next to the action button (the
 * button back to normal), the first refused field focused, and closing a filled form asks first.
 * One shared mechanism (RecusaDoFormulario, fecharFormulario); checked here on forms of both roles.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaginaMinhaSenha } from '../auth/PaginaMinhaSenha';
import { PaginaDespesas } from '../despesas/PaginaDespesas';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { ModalRota } from '../rotas/ModalRota';
import { ModalMovimentacaoSaldo } from '../saldo/ModalMovimentacaoSaldo';
import { listaDeDespesas } from '../test/despesas';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { ModalUsuario } from '../usuarios/ModalUsuario';
import { ErroApi } from '../api/client';
import { ModalRejeitar } from '../despesas/ModalRejeitar';
import { despesaDeTeste } from '../test/despesas';

const comprimir = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: comprimir }));

const ROTA = rotaDeTeste({ nome: 'Rota Centro-Oeste', cidades: [{ id: 5208707, nome: 'Goiânia', uf: 'GO' }] });

/** The refused send is in the dialog's footer, beside its buttons (never at the top of a scrolled body). */
function recusaNoRodape(modal: HTMLElement, texto: string) {
  const alerta = within(modal).getByText(texto);
  expect(alerta.closest('.modal__rodape')).not.toBeNull();
  expect(alerta.closest('.modal__corpo')).toBeNull();
}

let rolados: Element[] = [];
beforeEach(async () => {
  rolados = [];
  // jsdom does not scroll: record what was brought into view.
  Element.prototype.scrollIntoView = function (this: Element) {
    rolados.push(this);
  };
  comprimir.mockReset();
  await Promise.all([bancoLocal.outbox.clear(), bancoLocal.arquivos.clear(), bancoLocal.cache.clear(), bancoLocal.rascunhos.clear(), bancoLocal.sincronizados.clear()]);
});
afterEach(() => {
  motorSync.parar();
});

describe('Nova Despesa (celular)', () => {
  function montar(extra: Record<string, ManipuladorApi> = {}) {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
      'GET /despesas': () => ({ corpo: listaDeDespesas([]) }),
      'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [ROTA] } }),
      'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 500, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } }),
      ...extra,
    });
    renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  }
  async function abrir() {
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Despesa' }));
    return { usuario, modal: screen.getByRole('dialog', { name: 'Nova Despesa' }) };
  }

  it('a verificação recusada leva o foco ao primeiro campo recusado, que vem para a vista', async () => {
    montar();
    const { usuario, modal } = await abrir();
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    const tipo = within(modal).getByLabelText(/Tipo de Despesa/);
    await waitFor(() => expect(tipo).toHaveFocus());
    expect(rolados).toContain(tipo);
  });

  it('a recusa do servidor (NFC-e repetida, 409) aparece ao lado do botão, que volta ao normal', async () => {
    montar({ 'POST /despesas': () => ({ status: 409, corpo: { error: 'Esta NFC-e já foi lançada por outro funcionário.', codigo: 'conflito' } }) });
    const { usuario, modal } = await abrir();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'hospedagem');
    await usuario.type(within(modal).getByLabelText(/Valor/), '48');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    await within(modal).findByText('Esta NFC-e já foi lançada por outro funcionário.');
    recusaNoRodape(modal, 'Esta NFC-e já foi lançada por outro funcionário.');
    expect(within(modal).getByRole('button', { name: 'Registrar' })).toBeEnabled();
  });

  it('Cancelar com uma foto anexada pergunta antes de descartar; "Voltar" mantém tudo', async () => {
    montar();
    const { usuario, modal } = await abrir();
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File(['%PDF-1.4 cupom'], 'cupom.pdf', { type: 'application/pdf' }));
    await within(modal).findByText('cupom.pdf');
    await usuario.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    const pergunta = await screen.findByRole('dialog', { name: 'Fechar sem salvar?' });
    await usuario.click(within(pergunta).getByRole('button', { name: 'Voltar' }));
    expect(screen.getByRole('dialog', { name: 'Nova Despesa' })).toBeInTheDocument();
    expect(within(modal).getByText('cupom.pdf')).toBeInTheDocument();
    // Escape asks the same question; 'Descartar' closes.
    await usuario.keyboard('{Escape}');
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).getByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova Despesa' })).not.toBeInTheDocument());
  });

  it('um formulário intocado fecha de uma vez, sem pergunta', async () => {
    montar();
    const { usuario, modal } = await abrir();
    await usuario.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova Despesa' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Fechar sem salvar?' })).not.toBeInTheDocument();
  });
});

describe('Minha senha (página)', () => {
  it('o primeiro campo recusado recebe o foco', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }) });
    renderizarApp([{ path: '/senha', element: <PaginaMinhaSenha /> }], { em: '/senha' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText(/Senha atual/), 'senha123');
    await usuario.click(screen.getByRole('button', { name: 'Trocar senha' }));
    await waitFor(() => expect(screen.getByLabelText(/^Nova senha/)).toHaveFocus());
  });
});

describe('formulários do admin', () => {
  function montarAdmin(elemento: React.ReactNode, extra: Record<string, ManipuladorApi>) {
    entrarComo(ADMIN_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }), ...extra });
    renderizarApp([{ path: '/', element: elemento }]);
  }

  it('Novo Funcionário: e-mail repetido (409) ao lado do botão; vazio foca o Nome; preenchido pergunta ao fechar pelo ×', async () => {
    const aoFechar = vi.fn();
    montarAdmin(<ModalUsuario usuario={null} aoFechar={aoFechar} />, {
      'POST /usuarios': () => ({ status: 409, corpo: { error: 'Este e-mail já está cadastrado.', codigo: 'conflito' } }),
    });
    const usuario = userEvent.setup();
    const modal = await screen.findByRole('dialog', { name: 'Novo Funcionário' });
    await usuario.click(within(modal).getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(within(modal).getByLabelText(/^Nome/)).toHaveFocus());
    await usuario.type(within(modal).getByLabelText(/^Nome/), 'Elisa Nova');
    await usuario.type(within(modal).getByLabelText(/^Email/), 'elisa@escola.com.br');
    await usuario.type(within(modal).getByLabelText(/^Senha/), 'segredo1');
    await usuario.click(within(modal).getByRole('button', { name: 'Criar' }));
    await within(modal).findByText('Este e-mail já está cadastrado.');
    recusaNoRodape(modal, 'Este e-mail já está cadastrado.');
    expect(within(modal).getByRole('button', { name: 'Criar' })).toBeEnabled();
    await usuario.click(within(modal).getByRole('button', { name: 'Fechar' }));
    expect(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).toBeInTheDocument();
    expect(aoFechar).not.toHaveBeenCalled();
  });

  it('Nova Rota: a recusa do servidor fica ao lado do botão', async () => {
    montarAdmin(<ModalRota rota={null} aoFechar={() => {}} />, {
      'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo' }] } }),
      'GET /estados': () => ({ corpo: { estados: [{ uf: 'GO', nome: 'Goiás' }] } }),
      'GET /cidades/search': () => ({ corpo: { cidades: [{ id: 5208707, nome: 'Goiânia', uf: 'GO' }] } }),
      'POST /rotas': () => ({ status: 409, corpo: { error: 'Bruno Campo já tem uma rota ativa nestas datas.', codigo: 'conflito' } }),
    });
    const usuario = userEvent.setup();
    const modal = await screen.findByRole('dialog', { name: 'Nova Rota' });
    await usuario.click(within(modal).getByRole('button', { name: 'Criar Rota' }));
    await waitFor(() => expect(within(modal).getByLabelText(/Nome da rota/)).toHaveFocus());
    await usuario.type(within(modal).getByLabelText(/Nome da rota/), 'Rota Goiás');
    await usuario.selectOptions(within(modal).getByLabelText(/^Funcionário/), '2');
    await usuario.type(within(modal).getByLabelText(/Data de início/), '2026-12-10');
    await usuario.type(within(modal).getByLabelText(/Data de fim/), '2026-12-20');
    await usuario.click(await within(modal).findByText('GO'));
    await usuario.type(within(modal).getByLabelText(/Buscar cidade/), 'Goi');
    await usuario.click(await within(modal).findByRole('button', { name: 'Adicionar: Goiânia (GO)' }));
    await usuario.click(within(modal).getByRole('button', { name: 'Criar Rota' }));
    await within(modal).findByText('Bruno Campo já tem uma rota ativa nestas datas.');
    recusaNoRodape(modal, 'Bruno Campo já tem uma rota ativa nestas datas.');
    expect(within(modal).getByRole('button', { name: 'Criar Rota' })).toBeEnabled();
  });

  it('Rejeitar Despesa: sem motivo foca o campo; a recusa do servidor fica ao lado do botão; com motivo, Esc pergunta', async () => {
    const aoFechar = vi.fn();
    const aoRejeitar = vi.fn(async () => {
      throw new ErroApi(409, 'Esta despesa já foi aprovada por outro administrador.', 'conflito');
    });
    montarAdmin(<ModalRejeitar despesas={[{ ...despesaDeTeste('0190f3a0-0000-7000-8000-00000000000a', {}, ROTA), envio: null, cupomLocal: null }]} aoFechar={aoFechar} aoRejeitar={aoRejeitar} />, {});
    const usuario = userEvent.setup();
    const modal = await screen.findByRole('dialog', { name: 'Rejeitar Despesa' });
    await usuario.click(within(modal).getByRole('button', { name: 'Rejeitar' }));
    await waitFor(() => expect(within(modal).getByLabelText(/Motivo da rejeição/)).toHaveFocus());
    await usuario.type(within(modal).getByLabelText(/Motivo da rejeição/), 'Nota ilegível');
    await usuario.click(within(modal).getByRole('button', { name: 'Rejeitar' }));
    await within(modal).findByText('Esta despesa já foi aprovada por outro administrador.');
    recusaNoRodape(modal, 'Esta despesa já foi aprovada por outro administrador.');
    expect(within(modal).getByRole('button', { name: 'Rejeitar' })).toBeEnabled();
    await usuario.keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).toBeInTheDocument();
    expect(aoFechar).not.toHaveBeenCalled();
  });

  it('Adicionar Saldo: a recusa do servidor fica ao lado do botão; Cancelar preenchido pergunta', async () => {
    const aoFechar = vi.fn();
    montarAdmin(<ModalMovimentacaoSaldo aberto aoFechar={aoFechar} />, {
      'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo', email: 'b', saldo_atual: 0 }] } }),
      'GET /rotas': () => ({ corpo: { rotas: [rotaDeTeste({ id: 7, nome: 'Rota Centro', funcionario_id: 2 })] } }),
      'POST /saldo/adicionar': () => ({ status: 422, corpo: { error: 'A rota escolhida já foi finalizada.', codigo: 'regra_de_negocio' } }),
    });
    const usuario = userEvent.setup();
    const modal = await screen.findByRole('dialog', { name: 'Adicionar Saldo' });
    await waitFor(() => expect(within(modal).getAllByRole('option', { name: /Bruno Campo/ }).length).toBe(1));
    await usuario.selectOptions(within(modal).getByLabelText(/^Funcionário/), '2');
    await usuario.type(within(modal).getByLabelText(/Valor/), '150');
    await waitFor(() => expect(within(modal).getByLabelText(/^Rota/)).toHaveValue('7'));
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar Saldo' }));
    await within(modal).findByText('A rota escolhida já foi finalizada.');
    recusaNoRodape(modal, 'A rota escolhida já foi finalizada.');
    await usuario.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).toBeInTheDocument();
    expect(aoFechar).not.toHaveBeenCalled();
  });
});
