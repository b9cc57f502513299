import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FORMATO_PENDENCIAS, type ResultadoImportacao } from '../../../shared/schemas/pendencias';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaUsuarios } from './PaginaUsuarios';

// A file written by an app before the sync protocol (version 1: method and path per write): still read.
const ARQUIVO = {
  formato: FORMATO_PENDENCIAS,
  versao: 1,
  exportadoEm: '2026-11-22T18:05:00.000Z',
  funcionario: { id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br' },
  dispositivo: null,
  versaoApp: null,
  operacoes: [
    { id: 'op-1', metodo: 'POST', caminho: '/vendas', corpo: {}, chaves: [], criadoEm: '2026-11-22T12:00:00.000Z', descricao: 'Fechamento de Goiânia (GO) em 22/11/2026', estado: 'pendente', arquivo: null },
    { id: 'op-2', metodo: 'POST', caminho: '/vendas', corpo: {}, chaves: [], criadoEm: '2026-11-22T12:01:00.000Z', descricao: 'Fechamento de Anápolis (GO) em 22/11/2026', estado: 'erro', arquivo: null },
    {
      id: 'op-3',
      metodo: 'POST',
      caminho: '/despesas',
      corpo: {},
      chaves: [],
      criadoEm: '2026-11-22T12:02:00.000Z',
      descricao: 'Despesa: Pedágio de R$ 12,30 em Goiânia',
      estado: 'pendente',
      arquivo: { nome: 'p.pdf', tipo: 'application/pdf', tamanho: 5, base64: 'JVBERi0=' },
    },
  ],
};

const RESULTADO: ResultadoImportacao = {
  funcionario: ARQUIVO.funcionario,
  exportadoEm: ARQUIVO.exportadoEm,
  totais: { aceito: 1, ja_recebido: 0, recusado: 1, retido: 0, nao_processado: 0 },
  itens: [
    { id: 'op-1', tipo: 'venda', descricao: 'Fechamento de Goiânia (GO) em 22/11/2026', situacao: 'aceito', status: 201, mensagem: null },
    { id: 'op-2', tipo: 'venda', descricao: 'Fechamento de Anápolis (GO) em 22/11/2026', situacao: 'recusado', status: 409, mensagem: 'Esta rota já foi finalizada e não aceita novos registros.' },
    { id: 'op-3', tipo: 'despesa', descricao: 'Despesa: Pedágio de R$ 12,30 em Goiânia', situacao: 'ja_recebido', status: 200, mensagem: null },
  ],
};

const arquivo = (conteudo: string, nome = 'pendencias-bruno.sgp') => new File([conteudo], nome, { type: 'application/json' });

function montar() {
  entrarComo(ADMIN_TESTE);
  const enviados: unknown[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /config': () => ({ corpo: { centro_nome: 'Centro', app_tz: 'America/Sao_Paulo', versao: 'teste' } }),
    'GET /usuarios': () => ({ corpo: { usuarios: [ADMIN_TESTE] } }),
    'POST /sync/importar': (corpo) => {
      enviados.push(corpo);
      return { corpo: RESULTADO };
    },
  });
  renderizarApp([{ path: '/usuarios', element: <PaginaUsuarios /> }], { em: '/usuarios' });
  return enviados;
}

describe('Importar pendências (admin)', () => {
  it('mostra o que o arquivo tem antes de importar, envia o arquivo escolhido e lista o resultado de cada item', async () => {
    const enviados = montar();
    await userEvent.click(await screen.findByRole('button', { name: 'Importar pendências' }));
    const modal = screen.getByRole('dialog', { name: 'Importar pendências' });
    expect(within(modal).getByRole('button', { name: 'Importar' })).toBeDisabled();

    await userEvent.upload(within(modal).getByLabelText('Arquivo de pendências'), arquivo(JSON.stringify(ARQUIVO)));
    const previa = await within(modal).findByRole('region', { name: 'Conteúdo do arquivo' });
    expect(previa).toHaveTextContent('Bruno Campo (bruno@escola.com.br)');
    expect(previa).toHaveTextContent('22/11/2026 15:05');
    expect(previa).toHaveTextContent('3 registros: 2 vendas e 1 despesa');
    expect(previa).toHaveTextContent('1 registro já foi recusado pelo servidor no aparelho');
    expect(enviados).toEqual([]);

    await userEvent.click(within(modal).getByRole('button', { name: 'Importar' }));
    const resultado = await within(modal).findByRole('region', { name: 'Resultado da importação' });
    expect(resultado).toHaveTextContent('Pendências de Bruno Campo importadas: 1 aceito, 0 já recebidos, 1 recusado.');
    const linhas = within(resultado).getAllByRole('listitem');
    expect(linhas.map((l) => l.textContent)).toEqual([
      'Fechamento de Goiânia (GO) em 22/11/2026Aceito',
      'Fechamento de Anápolis (GO) em 22/11/2026Esta rota já foi finalizada e não aceita novos registros.Recusado',
      'Despesa: Pedágio de R$ 12,30 em GoiâniaJá recebido',
    ]);
    // The chosen file itself went, as multipart in the field the server reads.
    const form = enviados[0] as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('arquivo') as File).name).toBe('pendencias-bruno.sgp');
  });

  it('um arquivo que não é de pendências é recusado na hora, em pt-BR, sem enviar nada', async () => {
    const enviados = montar();
    await userEvent.click(await screen.findByRole('button', { name: 'Importar pendências' }));
    const modal = screen.getByRole('dialog', { name: 'Importar pendências' });
    await userEvent.upload(within(modal).getByLabelText('Arquivo de pendências'), arquivo('nome;valor\nAna;10', 'planilha.txt'));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Este arquivo não é um arquivo de pendências do Sistema de Gestão.');
    await userEvent.upload(within(modal).getByLabelText('Arquivo de pendências'), arquivo(JSON.stringify({ ...ARQUIVO, versao: 9 })));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('criado por outra versão do aplicativo');
    expect(within(modal).getByRole('button', { name: 'Importar' })).toBeDisabled();
    expect(enviados).toEqual([]);
  });
});
