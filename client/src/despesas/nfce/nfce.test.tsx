/**
 * The NFC-e on the phone: the chave typed by hand (checked on leaving the field) and the QR of
 * the receipt photo read from the original file (the decoder is injected: jsdom has no canvas), which
 * fills the date and the total of a contingency receipt. The real decoders run in e2e/nfce.test.ts.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { digitoVerificadorChave } from '../../../../shared/nfce';
import { bancoLocal } from '../../offline/db';
import { operacoes } from '../../offline';
import { FUNCIONARIO_TESTE } from '../../test/renderizar';
import { rotaDeTeste } from '../../test/rotas';
import '../operacoes';
import { ModalDespesa } from '../ModalDespesa';
import { lerNfceDaFoto, type LeitorQr } from './leitorQr';
import { bytesDe } from '../../test/arquivos';

// jsdom has no canvas: the compressor is replaced (a large photo is "reduced" to these bytes).
const comprimir = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: comprimir }));

const ROTA = rotaDeTeste({ nome: 'Rota Centro-Oeste', cidades: [{ id: 5201108, nome: 'Anápolis', uf: 'GO' }] });

/** GO, 2026-10, CNPJ 12.345.678/0001-95, NFC-e nº 777, contingency (tpEmis 9). */
const C43 = `522610${'12345678000195'}65001${'000000777'}9${'12345678'}`;
const CHAVE = C43 + digitoVerificadorChave(C43);
const CHAVE_ERRADA = C43 + String((digitoVerificadorChave(C43) + 1) % 10);
const QR_CONTINGENCIA = `https://www.sefaz.go.gov.br/nfeweb/sites/nfce/danfeNFCe?p=${CHAVE}|2|1|15|87.40|${'4a'.repeat(28)}|1|${'A'.repeat(40)}`;

function abrir(lerQr: LeitorQr) {
  render(<ModalDespesa usuario={FUNCIONARIO_TESTE} rota={ROTA} despesa={null} rascunho={null} aoFechar={() => {}} lerQr={lerQr} />);
  return { usuario: userEvent.setup(), modal: screen.getByRole('dialog', { name: 'Nova Despesa' }) };
}

beforeEach(async () => {
  await bancoLocal.rascunhos.clear();
  comprimir.mockReset();
});

describe('NFC-e no formulário da despesa', () => {
  it('a chave digitada é conferida ao sair do campo: dígito errado mostra o motivo; a certa mostra CNPJ e mês', async () => {
    const { usuario, modal } = abrir(async () => []);
    const campo = within(modal).getByLabelText('Chave da NFC-e (44 dígitos)');
    await usuario.type(campo, CHAVE_ERRADA);
    await usuario.tab();
    expect(await within(modal).findByText('Chave da NFC-e inválida: o dígito verificador não confere. Confira os números digitados.')).toBeInTheDocument();
    expect(campo).toHaveAttribute('aria-invalid', 'true');

    await usuario.clear(campo);
    await usuario.type(campo, CHAVE.replace(/(.{4})/g, '$1 ').trim());
    await usuario.tab();
    expect(within(modal).queryByText(/dígito verificador/)).not.toBeInTheDocument();
    expect(within(modal).getByText('NFC-e: CNPJ 12.345.678/0001-95 · 10/2026')).toBeInTheDocument();
    // Too short is told apart.
    await usuario.clear(campo);
    await usuario.type(campo, '5226');
    await usuario.tab();
    expect(await within(modal).findByText('Chave da NFC-e inválida: ela tem 44 caracteres, e foram informados 4.')).toBeInTheDocument();
  });

  it('o QR da foto ORIGINAL (antes da redução) é lido: NFC-e lida, CNPJ e mês, data e valor preenchidos', async () => {
    comprimir.mockImplementation(async () => new File([bytesDe('jpeg', 2048, 7)], 'reduzida.jpg', { type: 'image/jpeg' }));
    const lerQr = vi.fn<LeitorQr>(async () => ['https://pix.exemplo/qr?valor=1', QR_CONTINGENCIA]);
    const { usuario, modal } = abrir(lerQr);
    const foto = new File([new Uint8Array(3 * 1024 * 1024)], 'cupom.jpg', { type: 'image/jpeg' });
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), foto);

    const lida = await within(modal).findByText('NFC-e lida');
    expect(lida.parentElement).toHaveTextContent('CNPJ 12.345.678/0001-95 · 10/2026');
    expect(within(modal).getByText('Data e valor preenchidos pelo QR code. Confira antes de salvar.')).toBeInTheDocument();
    expect(lerQr).toHaveBeenCalledTimes(1);
    expect(lerQr.mock.calls[0]![0]).toBe(foto); // the 3 MB original, not the reduced copy
    expect(within(modal).getByLabelText(/Data da Despesa/)).toHaveValue('2026-10-15');
    expect(within(modal).getByLabelText(/Valor/)).toHaveValue('87,40');
    expect(within(modal).getByLabelText('Chave da NFC-e (44 dígitos)')).toHaveValue(CHAVE);
  });

  it('uma segunda foto sem QR (o comprovante do cartão) não desfaz a NFC-e lida da primeira', async () => {
    const lerQr = vi.fn<LeitorQr>().mockResolvedValueOnce([QR_CONTINGENCIA]).mockResolvedValueOnce([]);
    const { usuario, modal } = abrir(lerQr);
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File([bytesDe('jpeg', 10)], 'nfce.jpg', { type: 'image/jpeg' }));
    await within(modal).findByText('NFC-e lida');
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File([bytesDe('jpeg', 10)], 'cartao.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(lerQr).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(within(modal).queryByText(/Procurando o QR code/)).not.toBeInTheDocument());
    expect(within(modal).getByText('NFC-e lida')).toBeInTheDocument();
    expect(within(modal).queryByText(/Não encontramos o QR code/)).not.toBeInTheDocument();
    expect(within(modal).getByLabelText('Chave da NFC-e (44 dígitos)')).toHaveValue(CHAVE);
  });

  it('foto sem QR de NFC-e: diz para digitar a chave; PDF nem é procurado', async () => {
    const lerQr = vi.fn<LeitorQr>(async () => []);
    const { usuario, modal } = abrir(lerQr);
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File([bytesDe('png', 10)], 'foto.png', { type: 'image/png' }));
    expect(await within(modal).findByText('Não encontramos o QR code da NFC-e na foto. Se o cupom tiver um, digite a chave abaixo.')).toBeInTheDocument();
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File([bytesDe('pdf', 10)], 'nota.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(within(modal).getByText('nota.pdf')).toBeInTheDocument());
    expect(lerQr).toHaveBeenCalledTimes(1);
  });

  it('um QR de NFC-e com chave errada diz por quê; um decodificador que falha conta como sem QR', async () => {
    expect(await lerNfceDaFoto(new Blob(), async () => [`https://x.gov.br/q?p=${CHAVE_ERRADA}|2|1|1|ab`])).toEqual({
      estado: 'invalida',
      motivo: 'Chave da NFC-e inválida: o dígito verificador não confere. Confira os números digitados.',
    });
    expect(
      await lerNfceDaFoto(new Blob(), async () => {
        throw new Error('sem canvas');
      }),
    ).toEqual({ estado: 'sem-qr' });
  });

  it('a chave vai na operação da fila; uma operação de versão antiga (sem o campo) não a manda', () => {
    const dados = { operacao: 'criar', id: 'd1', rota_id: 7, cidade_id: 5201108, data_despesa: '2026-10-15', tipo: 'alimentacao', tipo_outro: '', valor: 87.4, descricao: '' };
    expect(operacoes['despesa.criar']!.paraEnvio({ ...dados, chave_nfce: CHAVE })).toMatchObject({ chave_nfce: CHAVE, valor: 8740 });
    expect(operacoes['despesa.criar']!.paraEnvio(dados)).not.toHaveProperty('chave_nfce');
    expect(operacoes['despesa.editar']!.paraEnvio({ ...dados, operacao: 'editar', chave_nfce: null })).toMatchObject({ chave_nfce: null });
  });
});
