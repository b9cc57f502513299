import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Despesa, ListaDespesas } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import { hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { PaginaDespesas } from './PaginaDespesas';
import { salvarRascunho } from './rascunho';
import { bytesDe } from '../test/arquivos';

// jsdom has no canvas: the compressor is replaced; the real one runs in the browser test.
const comprimir = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: comprimir }));

const ROTA = rotaDeTeste({
  nome: 'Rota Centro-Oeste',
  cidades: [
    { id: 5208707, nome: 'Goiânia', uf: 'GO' },
    { id: 5201108, nome: 'Anápolis', uf: 'GO' },
    { id: 5204508, nome: 'Caldas Novas', uf: 'GO' },
  ],
});

const despesa = (id: string, extra: Partial<Despesa> = {}) => despesaDeTeste(id, extra, ROTA);
const lista = listaDeDespesas;

interface Opcoes {
  despesas?: Despesa[];
  rotas?: Rota[];
  saldo?: number;
  extra?: Record<string, ManipuladorApi>;
  listaExtra?: Partial<ListaDespesas>;
}

function montarFuncionario({ despesas = [], rotas = [ROTA], saldo = 500, extra = {}, listaExtra = {} }: Opcoes = {}) {
  entrarComo(FUNCIONARIO_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
    'GET /despesas': () => ({ corpo: lista(despesas, listaExtra) }),
    'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas } }),
    'GET /saldo/resumo': () => ({ corpo: { saldo_atual: saldo, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } }),
    'POST /despesas': (corpo) => {
      const f = corpo as FormData;
      return { status: 201, corpo: { despesa: despesa(String(f.get('id')), { valor: Number(f.get('valor')), recebido_em: '2026-11-22T17:32:00.000Z' }) } };
    },
    ...extra,
  });
  renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  return api;
}

async function limparBanco() {
  await Promise.all([bancoLocal.outbox.clear(), bancoLocal.arquivos.clear(), bancoLocal.cache.clear(), bancoLocal.rascunhos.clear(), bancoLocal.sincronizados.clear()]);
}

beforeEach(async () => {
  await limparBanco();
  comprimir.mockReset();
});
afterEach(() => {
  motorSync.parar();
});

async function abrirNovaDespesa() {
  const usuario = userEvent.setup();
  await usuario.click(await screen.findByRole('button', { name: 'Nova Despesa' }));
  return { usuario, modal: screen.getByRole('dialog', { name: 'Nova Despesa' }) };
}

describe('Despesas, funcionário', () => {
  it('mostra o Saldo Atual confirmado e projetado, verde acima de zero', async () => {
    montarFuncionario({ despesas: [despesa('d1')] });
    const confirmado = await screen.findByTestId('saldo-confirmado');
    await waitFor(() => expect(confirmado).toHaveTextContent('R$ 500,00'));
    expect(confirmado).toHaveClass('valor-positivo');
    expect(screen.getByTestId('saldo-projetado')).toHaveTextContent('R$ 500,00');
    expect(screen.getByText('Nada aguardando envio: o projetado é igual ao confirmado.')).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Anápolis (GO)' })).toBeInTheDocument();
    for (const rotulo of ['Total Geral', 'Alimentação', 'Hospedagem', 'Combustível', 'Pedágio', 'Aluguel de Sala', 'Outros']) {
      expect(within(screen.getByLabelText('Totais por tipo')).getByText(rotulo)).toBeInTheDocument();
    }
    // An employee has no admin filters.
    expect(screen.queryByLabelText('Funcionário')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Tipo')).toBeInTheDocument();
  });

  it('saldo zero fica sem cor (zero não é problema), não vermelho', async () => {
    montarFuncionario({ saldo: 0 });
    await waitFor(() => expect(screen.getByTestId('saldo-confirmado')).toHaveTextContent('R$ 0,00'));
    expect(screen.getByTestId('saldo-confirmado')).not.toHaveClass('valor-negativo');
    expect(screen.getByTestId('saldo-confirmado')).not.toHaveClass('valor-positivo');
  });

  it('registra com foto grande reduzida no navegador: vai para a fila com o arquivo e é enviada como multipart', async () => {
    const api = montarFuncionario();
    comprimir.mockImplementation(async () => new File([bytesDe('jpeg', 2048, 7)], 'reduzida.jpg', { type: 'image/jpeg' }));
    const { usuario, modal } = await abrirNovaDespesa();
    expect(within(modal).getByLabelText(/Rota/)).toHaveDisplayValue('Rota Centro-Oeste');
    expect(within(modal).getByRole('combobox', { name: /Cidade/ })).toHaveValue('Goiânia (GO)'); // first city preselected
    expect(within(modal).getByLabelText(/Data da Despesa/)).toHaveValue(hojeNoApp());

    await usuario.click(within(modal).getByRole('combobox', { name: /Cidade/ }));
    await usuario.type(within(modal).getByRole('combobox', { name: /Cidade/ }), 'caldas');
    await usuario.click(within(modal).getByRole('option', { name: 'Caldas Novas (GO)' }));
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'combustivel');
    await usuario.type(within(modal).getByLabelText(/Valor/), '150,75');
    await usuario.type(within(modal).getByLabelText(/Descrição/), 'Tanque cheio');
    const foto = new File([new Uint8Array(3 * 1024 * 1024)], 'IMG_2026.png', { type: 'image/png' });
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), foto);
    expect(await within(modal).findByText('reduzida de 3,0 MB', { exact: false })).toBeInTheDocument();
    expect(comprimir).toHaveBeenCalledWith(foto, { maxWidthOrHeight: 800, initialQuality: 0.7, fileType: 'image/jpeg', useWebWorker: false });

    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    const envio = api.chamadas.find((c) => c.metodo === 'POST' && c.caminho === '/despesas')!;
    const form = envio.corpo as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([k]) => k !== 'cupom'))).toMatchObject({
      rota_id: '7',
      cidade_id: '5204508',
      data_despesa: hojeNoApp(),
      tipo: 'combustivel',
      tipo_outro: '',
      valor: '150.75',
      descricao: 'Tanque cheio',
    });
    const cupom = form.get('cupom') as File;
    expect(cupom.name).toBe('IMG_2026.jpg');
    expect(cupom.type).toBe('image/jpeg');
    expect(cupom.size).toBe(2048);
    expect([...form.keys()].at(-1)).toBe('cupom'); // fields first, file last
    // Confirmed: nothing left in the queue, the draft is gone, the history keeps the server's time.
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    expect(await bancoLocal.arquivos.count()).toBe(0);
    expect(await bancoLocal.rascunhos.count()).toBe(0);
    expect((await bancoLocal.sincronizados.toArray())[0]).toMatchObject({ recebidoEm: '2026-11-22T17:32:00.000Z' });
  });

  it('PDF e arquivos pequenos não são comprimidos', async () => {
    montarFuncionario();
    const { usuario, modal } = await abrirNovaDespesa();
    const pdf = new File(['%PDF-1.4 cupom'], 'cupom.pdf', { type: 'application/pdf' });
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), pdf);
    expect(await within(modal).findByText('cupom.pdf')).toBeInTheDocument();
    expect(await within(modal).findByRole('link', { name: 'Ver PDF' })).toHaveAttribute('href', expect.stringMatching(/^blob:/));
    const pequena = new File([bytesDe('jpeg', 200 * 1024)], 'pequena.jpg', { type: 'image/jpeg' });
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), pequena);
    expect(await within(modal).findByText('pequena.jpg')).toBeInTheDocument();
    expect(comprimir).not.toHaveBeenCalled();
  });

  it('recusa NA ESCOLHA, antes de qualquer envio, o que o servidor recusaria: um PDF de 30 MB e um texto renomeado para .jpg', async () => {
    const api = montarFuncionario();
    const { usuario, modal } = await abrirNovaDespesa();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'alimentacao');
    await usuario.type(within(modal).getByLabelText(/Valor/), '48,00');
    const seletor = within(modal).getByLabelText('Cupom/Comprovante');

    await usuario.upload(seletor, new File([bytesDe('pdf', 30 * 1024 * 1024)], 'nota-30mb.pdf', { type: 'application/pdf' }));
    expect(await within(modal).findByText('nota-30mb.pdf: O arquivo é grande demais. O limite é 20 MB.')).toBeInTheDocument();
    expect(seletor).toHaveAttribute('aria-invalid', 'true');
    expect(seletor).toHaveAccessibleDescription('nota-30mb.pdf: O arquivo é grande demais. O limite é 20 MB.');

    // The name and the browser's type say JPEG; the bytes are text: the server's rule looks at the bytes.
    await usuario.upload(seletor, new File(['isto não é uma foto'], 'recibo.jpg', { type: 'image/jpeg' }));
    expect(
      await within(modal).findByText('recibo.jpg: Tipo de arquivo não aceito. Envie imagem (JPG, PNG, WEBP, HEIC), PDF, DOC ou DOCX.'),
    ).toBeInTheDocument();
    expect(within(modal).getByText(/0 de 5 comprovantes/)).toBeInTheDocument();
    expect(within(modal).queryByRole('button', { name: /^Remover / })).toBeNull();

    // A good file afterwards clears the message; saving sends only it.
    await usuario.upload(seletor, new File([bytesDe('pdf', 64)], 'boa.pdf', { type: 'application/pdf' }));
    await within(modal).findByText('boa.pdf');
    expect(within(modal).queryByText(/Tipo de arquivo não aceito/)).toBeNull();
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa registrada com sucesso!')).toBeInTheDocument();
    const envios = api.chamadas.filter((c) => c.metodo === 'POST');
    const enviados = envios.flatMap((c) => (c.corpo instanceof FormData ? [...c.corpo.values()].filter((v): v is File => v instanceof File) : []));
    expect(enviados.map((f) => f.name)).toEqual(['boa.pdf']);
    expect(await bancoLocal.arquivos.count()).toBe(0);
  });

  it('sem conexão: guarda no aparelho, mostra na lista como "Aguardando envio" e desconta do saldo projetado', async () => {
    montarFuncionario({ despesas: [despesa('d1')], saldo: 100, extra: { 'POST /despesas': () => 'offline' } });
    const { usuario, modal } = await abrirNovaDespesa();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'pedagio');
    await usuario.type(within(modal).getByLabelText(/Valor/), '12,30');
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File(['%PDF-1.4'], 'pedagio.pdf', { type: 'application/pdf' }));
    await within(modal).findByText('pedagio.pdf');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.')).toBeInTheDocument();

    const linha = (await screen.findByText('Aguardando envio')).closest('tr')!;
    expect(within(linha).getByText('Pedágio')).toBeInTheDocument();
    expect(within(linha).getByText('Goiânia (GO)')).toBeInTheDocument();
    expect(screen.getByTestId('saldo-confirmado')).toHaveTextContent('R$ 100,00');
    await waitFor(() => expect(screen.getByTestId('saldo-projetado')).toHaveTextContent('R$ 87,70'));
    expect(screen.getByText(/Inclui 1 alteração aguardando envio/)).toBeInTheDocument();
    // The receipt bytes are in IndexedDB with the queued write.
    const [item] = await bancoLocal.outbox.toArray();
    expect(item).toMatchObject({ tipo: 'despesa.criar', estado: 'pendente', chaves: [`despesa:${(item!.dados as { id: string }).id}`] });
    const arquivo = await bancoLocal.arquivos.get(item!.arquivos[0]!);
    expect(arquivo).toMatchObject({ nome: 'pedagio.pdf', tipo: 'application/pdf', tamanho: 8 });
    expect(within(screen.getByLabelText('Totais por tipo')).getByText('R$ 58,20')).toBeInTheDocument();
  });

  it('vários comprovantes: adiciona um a um, remove um, guarda os dois na fila; no quinto o botão para', async () => {
    montarFuncionario({ extra: { 'POST /despesas': () => 'offline' } });
    const { usuario, modal } = await abrirNovaDespesa();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'alimentacao');
    await usuario.type(within(modal).getByLabelText(/Valor/), '58,40');
    const seletor = () => within(modal).getByLabelText('Cupom/Comprovante');
    await usuario.upload(seletor(), new File(['%PDF-1.4 a'], 'nfce.pdf', { type: 'application/pdf' }));
    await usuario.upload(seletor(), new File(['%PDF-1.4 b'], 'engano.pdf', { type: 'application/pdf' }));
    await usuario.upload(seletor(), new File(['%PDF-1.4 c'], 'cartao.pdf', { type: 'application/pdf' }));
    await within(modal).findByText('cartao.pdf');
    expect(within(modal).getByText(/3 de 5 comprovantes/)).toBeInTheDocument();
    await usuario.click(within(modal).getByRole('button', { name: 'Remover engano.pdf' }));
    expect(within(modal).queryByText('engano.pdf')).toBeNull();
    expect(within(modal).getAllByRole('button', { name: /^Remover / })).toHaveLength(2);
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.')).toBeInTheDocument();
    const [item] = await bancoLocal.outbox.toArray();
    const arquivos = await bancoLocal.arquivos.bulkGet(item!.arquivos);
    expect(arquivos.map((a) => a?.nome)).toEqual(['nfce.pdf', 'cartao.pdf']);
    expect((item!.dados as { cupons: { nome: string }[] }).cupons.map((c) => c.nome)).toEqual(['nfce.pdf', 'cartao.pdf']);
    const linha = (await screen.findByText('Aguardando envio')).closest('tr')!;
    expect(within(linha).getByRole('button', { name: /^Visualizar os 2 comprovantes/ })).toHaveTextContent('Visualizar (2)');

    // Five is the limit: the chooser is disabled and says why.
    const outro = await abrirNovaDespesa();
    for (let i = 1; i <= 5; i++) await outro.usuario.upload(within(outro.modal).getByLabelText('Cupom/Comprovante'), new File([`%PDF-1.4 ${i}`], `${i}.pdf`, { type: 'application/pdf' }));
    await within(outro.modal).findByText('5.pdf');
    expect(within(outro.modal).getByLabelText('Cupom/Comprovante')).toBeDisabled();
    expect(within(outro.modal).getByText(/Limite de 5 comprovantes atingido/)).toBeInTheDocument();
  });

  it('a recusa do servidor aparece no formulário, que continua aberto com os dados; a despesa fica na fila, recusada', async () => {
    montarFuncionario({
      extra: { 'POST /despesas': () => ({ status: 409, corpo: { error: 'Esta rota já foi finalizada e não aceita novos registros.', codigo: 'conflito' } }) },
    });
    const { usuario, modal } = await abrirNovaDespesa();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'hospedagem');
    await usuario.type(within(modal).getByLabelText(/Valor/), '200');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await within(modal).findByText('Esta rota já foi finalizada e não aceita novos registros.')).toBeInTheDocument();
    expect(within(modal).getByLabelText(/Valor/)).toHaveValue('200,00');
    // Nothing leaves the device on a refusal: it waits under 'Precisam de atenção' until fixed or discarded.
    const itens = await bancoLocal.outbox.toArray();
    expect(itens).toHaveLength(1);
    expect(itens[0]).toMatchObject({ tipo: 'despesa.criar', estado: 'erro', erro: 'Esta rota já foi finalizada e não aceita novos registros.' });
  });

  it('valida antes de guardar: tipo, valor e "Especificar Tipo" para outro', async () => {
    const api = montarFuncionario();
    const { usuario, modal } = await abrirNovaDespesa();
    expect(within(modal).queryByLabelText(/Especificar Tipo/)).not.toBeInTheDocument();
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(within(modal).getByText('Tipo de despesa é obrigatório.')).toBeInTheDocument();
    expect(within(modal).getByText('Valor é obrigatório.')).toBeInTheDocument();
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'outro');
    await usuario.type(within(modal).getByLabelText(/Valor/), '0');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(within(modal).getByText('Especifique o tipo da despesa.')).toBeInTheDocument();
    expect(within(modal).getByText('Valor deve ser maior que zero.')).toBeInTheDocument();
    expect(await bancoLocal.outbox.count()).toBe(0);
    expect(api.chamadas.some((c) => c.metodo === 'POST')).toBe(false);
  });

  it('sem rota ativa: avisa e não deixa registrar', async () => {
    montarFuncionario({ rotas: [], despesas: [] });
    expect(await screen.findByText('Nenhuma rota ativa no momento.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nova Despesa' })).not.toBeInTheDocument();
    expect(await screen.findByText('Nenhuma despesa encontrada.')).toBeInTheDocument();
  });

  it('edita mantendo o cupom, exclui o cupom, e só oferece isso para despesa Pendente', async () => {
    const api = montarFuncionario({
      despesas: [
        despesa('d1', { cupom_url: '/api/despesas/d1/cupom', cupom_mime: 'application/pdf', cupom_nome: 'cupom.pdf', arquivo_cupom: 'x.pdf' }),
        despesa('d2', { status_aprovacao: 'aprovada', aprovada: true, descricao: 'Já aprovada' }),
      ],
      extra: { 'PUT /despesas/:id': (corpo) => ({ corpo: { despesa: despesa('d1', { valor: Number((corpo as FormData).get('valor')) }) } }) },
    });
    const usuario = userEvent.setup();
    expect(await screen.findByText('Já aprovada')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Editar: Alimentação de R\$\s45,90 em 20\/11\/2026/ })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Editar:/ })).toHaveLength(1);
    await usuario.click(screen.getByRole('button', { name: /^Editar:/ }));
    const modal = screen.getByRole('dialog', { name: 'Editar Despesa' });
    expect(within(modal).getByRole('link', { name: 'Ver PDF' })).toHaveAttribute('href', '/api/despesas/d1/cupom');
    await usuario.click(within(modal).getByRole('button', { name: 'Excluir comprovante' }));
    expect(within(modal).getByText('O comprovante será excluído ao salvar.')).toBeInTheDocument();
    const valor = within(modal).getByLabelText(/Valor/);
    await usuario.clear(valor);
    await usuario.type(valor, '40');
    await usuario.click(within(modal).getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Despesa atualizada com sucesso!')).toBeInTheDocument();
    const form = api.chamadas.find((c) => c.metodo === 'PUT')!.corpo as FormData;
    expect(form.get('excluir_cupom')).toBe('true');
    expect(form.get('valor')).toBe('40.00');
    expect(form.get('cupom')).toBeNull();
  });

  it('excluir pede confirmação com o texto da especificação', async () => {
    const api = montarFuncionario({ despesas: [despesa('d1')], extra: { 'DELETE /despesas/:id': () => ({ corpo: { message: 'ok', despesa: despesa('d1', { excluida: true }) } }) } });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Excluir:/ }));
    expect(screen.getByText('Tem certeza que deseja excluir esta despesa?')).toBeInTheDocument();
    await usuario.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(api.chamadas.some((c) => c.metodo === 'DELETE')).toBe(false);
    await usuario.click(screen.getByRole('button', { name: /^Excluir:/ }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Excluir despesa' })).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Despesa excluída com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'DELETE')?.caminho).toBe('/despesas/d1');
  });

  it('no celular: cartões com o menu Ver Detalhes, Visualizar Cupom Fiscal, Editar, Excluir; rejeitada mostra o motivo', async () => {
    definirLarguraDaJanela(390);
    montarFuncionario({
      despesas: [
        despesa('d1', { cupom_url: '/api/despesas/d1/cupom', cupom_mime: 'image/jpeg', cupom_nome: 'nota.jpg', arquivo_cupom: 'x.jpg' }),
        despesa('d2', { status_aprovacao: 'rejeitada', rejeitada: true, motivo_rejeicao: 'Nota ilegível', tipo: 'hospedagem' }),
      ],
    });
    const usuario = userEvent.setup();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(await screen.findByText('Motivo: Nota ilegível')).toBeInTheDocument();
    await usuario.click(screen.getByRole('button', { name: /^Ações: Alimentação/ }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Ver Detalhes', 'Visualizar Cupom Fiscal', 'Editar', 'Excluir']);
    await usuario.click(within(menu).getByRole('menuitem', { name: 'Visualizar Cupom Fiscal' }));
    const visualizador = screen.getByRole('dialog', { name: 'Cupom Fiscal' });
    expect(within(visualizador).getByRole('img')).toHaveAttribute('src', '/api/despesas/d1/cupom');
    fireEvent.error(within(visualizador).getByRole('img')); // e.g. offline: the server's copy cannot load
    expect(within(visualizador).getByText(/Não foi possível abrir o comprovante/)).toBeInTheDocument();
    await usuario.click(within(visualizador).getAllByRole('button', { name: 'Fechar' }).at(-1)!);

    await usuario.click(screen.getByRole('button', { name: /^Ações: Hospedagem/ }));
    // Rejected: no Editar/Excluir as if it were pending; it is corrected and sent again.
    expect(within(screen.getByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Ver Detalhes', 'Corrigir e reenviar']);
    await usuario.click(screen.getByRole('menuitem', { name: 'Ver Detalhes' }));
    const detalhes = screen.getByRole('dialog', { name: 'Detalhes da Despesa' });
    expect(within(detalhes).getByText('Motivo da rejeição')).toBeInTheDocument();
    expect(within(detalhes).getAllByText(/Nota ilegível/).length).toBeGreaterThan(0);
  });

  it('um formulário deixado pela metade (a câmera descarregou a página) volta aberto', async () => {
    await salvarRascunho(FUNCIONARIO_TESTE.id, {
      editando: null,
      id: '0190f3a0-0000-7000-8000-000000000001',
      form: { cidade_id: 5201108, data_despesa: '2026-11-21', tipo: 'alimentacao', tipo_outro: '', valor: '32,50', descricao: 'Jantar', chave_nfce: '' },
      cupom: null,
      excluirCupom: false,
    });
    montarFuncionario();
    const modal = await screen.findByRole('dialog', { name: 'Nova Despesa' });
    expect(within(modal).getByText('Recuperamos o formulário que você estava preenchendo.')).toBeInTheDocument();
    expect(within(modal).getByLabelText(/Valor/)).toHaveValue('32,50');
    expect(within(modal).getByRole('combobox', { name: /Cidade/ })).toHaveValue('Anápolis (GO)');
    const usuario = userEvent.setup();
    await usuario.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    // A recovered form holds what was typed: discarding it asks first.
    expect(await bancoLocal.rascunhos.count()).toBe(1);
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).getByRole('button', { name: 'Descartar' }));
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(0));
  });

  it('pagina de 20 em 20 com Anterior/Próxima', async () => {
    const api = montarFuncionario({ despesas: [despesa('d1')], listaExtra: { total: 45 } });
    const usuario = userEvent.setup();
    expect(await screen.findByText('Página 1 de 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    await usuario.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Página 2 de 3')).toBeInTheDocument();
    await waitFor(() => expect(api.chamadas.some((c) => c.caminho === '/despesas' && c.metodo === 'GET')).toBe(true));
  });
});

describe('Despesas, admin', () => {
  function montarAdmin(despesas: Despesa[]) {
    entrarComo(ADMIN_TESTE);
    const urls: URL[] = [];
    const api = simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /despesas': (_c, url) => {
        urls.push(url);
        return { corpo: lista(despesas) };
      },
      'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo', email: 'b@x', saldo_atual: 10 }] } }),
      'GET /rotas': () => ({ corpo: { rotas: [ROTA] } }),
      'PATCH /despesas/:id/aprovar': () => ({ corpo: { despesa: despesa('d1', { aprovada: true, status_aprovacao: 'aprovada' }) } }),
      'PATCH /despesas/:id/rejeitar': (corpo) => ({ corpo: { despesa: despesa('d2', { rejeitada: true, status_aprovacao: 'rejeitada', motivo_rejeicao: (corpo as { motivo: string }).motivo }) } }),
    });
    renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
    return { api, urls };
  }

  it('vê tudo só para leitura, com os filtros do admin e Status da Rota padrão Ativas', async () => {
    const { urls } = montarAdmin([despesa('d1'), despesa('d2', { rejeitada: true, status_aprovacao: 'rejeitada', motivo_rejeicao: 'Fora da política' })]);
    const usuario = userEvent.setup();
    await screen.findAllByRole('row');
    // Who and the route share a cell; the description has a line under the row (so the table fits at 1280 px).
    for (const coluna of ['Data', 'Registrado por e Rota', 'Cidade', 'Tipo', 'Valor', 'Status', 'Cupom Fiscal', 'Ações']) {
      expect(screen.getByRole('columnheader', { name: coluna })).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Nova Despesa' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Editar:/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('saldo-confirmado')).not.toBeInTheDocument();
    expect(screen.getByText('Rejeitada', { selector: '.selo' })).toHaveAttribute('title', 'Motivo: Fora da política');
    expect(urls[0]!.searchParams.get('status_rota')).toBe('ativa');
    expect(urls[0]!.searchParams.get('limit')).toBe('20');

    const statusRota = screen.getByLabelText('Status da Rota');
    expect(statusRota).toHaveValue('ativa');
    await usuario.selectOptions(screen.getByLabelText('Funcionário'), '2');
    await usuario.selectOptions(await screen.findByLabelText('Rota'), String(ROTA.id));
    expect(statusRota).toBeDisabled();
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('rota_id')).toBe('7'));
    expect(urls.at(-1)!.searchParams.get('funcionario_id')).toBe('2');
    expect(urls.at(-1)!.searchParams.get('status_rota')).toBeNull();
    expect(urls.at(-1)!.searchParams.get('page')).toBe('1');
  });

  it('pagina no servidor: Próxima pede a página 2 com os filtros, e os cartões são os totais de todo o filtro', async () => {
    entrarComo(ADMIN_TESTE);
    const urls: URL[] = [];
    // 45 expenses on the server, R$ 10,00 each: a page holds 20, the cards say R$ 450,00.
    const todas = Array.from({ length: 45 }, (_, i) => despesa(`p${i + 1}`, { valor: 10, descricao: `Gasto ${i + 1}` }));
    const totaisDeTodas = { geral: 450, alimentacao: 450, hospedagem: 0, combustivel: 0, pedagio: 0, aluguel_sala: 0, outro: 0 };
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /despesas': (_c, url) => {
        urls.push(url);
        const page = Number(url.searchParams.get('page'));
        const limit = Number(url.searchParams.get('limit'));
        return { corpo: { despesas: todas.slice((page - 1) * limit, page * limit), totais: totaisDeTodas, page, limit, total: todas.length } };
      },
      'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo', email: 'b@x', saldo_atual: 10 }] } }),
      'GET /rotas': () => ({ corpo: { rotas: [ROTA] } }),
    });
    renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
    const usuario = userEvent.setup();
    expect(await screen.findByText('Página 1 de 3')).toBeInTheDocument();
    expect(screen.getByText('Gasto 20')).toBeInTheDocument();
    expect(screen.queryByText('Gasto 21')).not.toBeInTheDocument();
    const cartoes = screen.getByLabelText('Totais por tipo');
    // Twenty rows of R$ 10,00 on screen; the cards are the server's R$ 450,00 of all 45.
    expect(within(cartoes).getAllByText('R$ 450,00')).toHaveLength(2);
    await usuario.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Página 2 de 3')).toBeInTheDocument();
    expect(urls.at(-1)!.searchParams.get('page')).toBe('2');
    expect(urls.at(-1)!.searchParams.get('status_rota')).toBe('ativa');
    expect(await screen.findByText('Gasto 21')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Totais por tipo')).getAllByText('R$ 450,00')).toHaveLength(2);
  });

  it('aprova pela lista e rejeita pelos detalhes com motivo obrigatório', async () => {
    const { api } = montarAdmin([despesa('d1', { descricao: 'Primeira' }), despesa('d2', { descricao: 'Segunda', tipo: 'hospedagem' })]);
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Aprovar: Alimentação/ }));
    expect(await screen.findByText('Despesa aprovada.')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'PATCH')?.caminho).toBe('/despesas/d1/aprovar');

    await usuario.click(screen.getByRole('button', { name: /^Ver detalhes: Hospedagem/ }));
    const detalhes = screen.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await usuario.click(within(detalhes).getByRole('button', { name: 'Rejeitar' }));
    const rejeitar = screen.getByRole('dialog', { name: 'Rejeitar Despesa' });
    await usuario.click(within(rejeitar).getByRole('button', { name: 'Rejeitar' }));
    expect(within(rejeitar).getByText('Informe o motivo da rejeição.')).toBeInTheDocument();
    await usuario.type(within(rejeitar).getByLabelText(/Motivo da rejeição/), 'Sem nota fiscal');
    await usuario.click(within(rejeitar).getByRole('button', { name: 'Rejeitar' }));
    expect(await screen.findByText('Despesa rejeitada.')).toBeInTheDocument();
    const chamada = api.chamadas.find((c) => c.caminho === '/despesas/d2/rejeitar')!;
    expect(chamada.corpo).toEqual({ motivo: 'Sem nota fiscal' });
  });
});
