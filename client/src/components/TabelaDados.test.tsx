import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Coluna } from './TabelaDados';
import { definirLarguraDaJanela } from '../test/janela';
import { capturarDownload, textoComBom } from '../test/download';
import { TabelaDados } from './TabelaDados';

interface Linha {
  id: number;
  nome: string;
  cidade: string;
}
const linhas: Linha[] = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, nome: `Pessoa ${String(i + 1).padStart(2, '0')}`, cidade: i === 20 ? 'São José' : 'Goiânia' }));
const colunas = [
  { chave: 'nome', titulo: 'Nome' },
  { chave: 'cidade', titulo: 'Cidade' },
];

describe('TabelaDados', () => {
  it('mostra 10 linhas por página e navega entre as páginas', async () => {
    render(<TabelaDados titulo="Pessoas" colunas={colunas} linhas={linhas} chaveLinha={(l) => l.id} />);
    expect(screen.getAllByRole('row')).toHaveLength(11); // header + 10
    expect(screen.getByText('Página 1 de 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(screen.getByText('Página 2 de 3')).toBeInTheDocument();
    expect(screen.getByText('Pessoa 11')).toBeInTheDocument();
  });

  it('a busca ignora acentos e maiúsculas e volta para a página 1', async () => {
    render(<TabelaDados titulo="Pessoas" colunas={colunas} linhas={linhas} chaveLinha={(l) => l.id} />);
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await userEvent.type(screen.getByRole('searchbox'), 'SAO JOSE');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('Pessoa 21')).toBeInTheDocument();
    expect(screen.queryByText(/Página/)).not.toBeInTheDocument();
  });

  it('mostra o texto de vazio', () => {
    render(<TabelaDados colunas={colunas} linhas={[]} chaveLinha={(l: Linha) => l.id} vazio="Nenhum usuário ativo." />);
    expect(screen.getByText('Nenhum usuário ativo.')).toBeInTheDocument();
  });

  it('abaixo de 768 px vira cartões com 5 por página', () => {
    definirLarguraDaJanela(390);
    render(<TabelaDados colunas={colunas} linhas={linhas} chaveLinha={(l) => l.id} acoes={(l) => <button>Editar {l.nome}</button>} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cartoes = screen.getAllByRole('listitem');
    expect(cartoes).toHaveLength(5);
    expect(within(cartoes[0]!).getByText('Cidade')).toBeInTheDocument();
    expect(within(cartoes[0]!).getByRole('button', { name: 'Editar Pessoa 01' })).toBeInTheDocument();
    expect(screen.getByText('Página 1 de 5')).toBeInTheDocument();
  });

  it('colunas só do computador ou só do celular, e o texto longo numa linha própria no computador', () => {
    const cols = [
      { chave: 'nome', titulo: 'Nome', so: 'celular' as const },
      { chave: 'nome_cidade', titulo: 'Nome e Cidade', so: 'computador' as const, render: (l: Linha) => `${l.nome} · ${l.cidade}` },
      { chave: 'cidade', titulo: 'Cidade', so: 'celular' as const },
    ];
    const extra = (l: Linha) => (l.id === 1 ? `Observações: nota de ${l.nome}` : null);
    const poucas = linhas.slice(0, 2);
    const { unmount } = render(<TabelaDados colunas={cols} linhas={poucas} chaveLinha={(l) => l.id} linhaExtra={extra} />);
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Nome e Cidade']);
    expect(screen.getAllByRole('row')).toHaveLength(4); // header, 2 rows, 1 note under the first
    expect(screen.getByText('Observações: nota de Pessoa 01').closest('td')).toHaveAttribute('colspan', '1');
    unmount();
    definirLarguraDaJanela(390);
    render(<TabelaDados colunas={cols} linhas={poucas} chaveLinha={(l) => l.id} linhaExtra={extra} />);
    const cartao = screen.getAllByRole('listitem')[0]!;
    expect(within(cartao).getByText('Nome')).toBeInTheDocument();
    expect(within(cartao).getByText('Cidade')).toBeInTheDocument();
    expect(within(cartao).queryByText('Nome e Cidade')).not.toBeInTheDocument();
  });
});

describe('TabelaDados: Exportar CSV', () => {
  interface Gasto {
    id: number;
    nome: string;
    email: string;
    valor: number;
    data: string;
  }
  const gastos: Gasto[] = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, nome: i === 0 ? 'Ana; "Tia" Souza' : `Pessoa ${i + 1}`, email: `p${i + 1}@x.com`, valor: 10.5 * (i + 1), data: '2026-11-20' }));
  const colunasGasto: Coluna<Gasto>[] = [
    { chave: 'nome_email', titulo: 'Nome e Email', so: 'computador', render: (g) => `${g.nome} ${g.email}`, textoBusca: (g) => `${g.nome} ${g.email}`, csv: (g) => g.nome, tituloCsv: 'Nome' },
    { chave: 'email', titulo: 'Email', so: 'celular' },
    { chave: 'valor', titulo: 'Valor', numerica: true, render: (g) => `R$ ${g.valor}`, textoBusca: (g) => `R$ ${g.valor}` },
    { chave: 'data', titulo: 'Data', textoBusca: (g) => g.data.split('-').reverse().join('/') },
    { chave: 'junto', titulo: 'Junto', so: 'computador', render: () => 'x', csv: false },
  ];

  afterEach(() => vi.restoreAllMocks());

  it('baixa todas as linhas da busca (não só a página), com o BOM, ; e vírgula decimal; deixa de fora o que é só junção de tela', async () => {
    const baixado = capturarDownload();
    render(<TabelaDados titulo="Gastos" colunas={colunasGasto} linhas={gastos} chaveLinha={(g) => g.id} arquivoCsv="gastos" />);
    await userEvent.type(screen.getByRole('searchbox'), 'pessoa 1');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(baixado.nome).toBe('gastos.csv');
    expect(baixado.blob!.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await baixado.blob!.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM (text() would hide it)
    const texto = await textoComBom(baixado.blob!);
    // Pessoa 10, 11, 12 match the search ('Pessoa 1' is Ana's row, renamed).
    expect(texto).toBe('\uFEFFNome;Email;Valor;Data\r\nPessoa 10;p10@x.com;105;20/11/2026\r\nPessoa 11;p11@x.com;115,50;20/11/2026\r\nPessoa 12;p12@x.com;126;20/11/2026\r\n');
  });

  it('o texto com separador ou aspas vai entre aspas; sem linhas, o botão fica desabilitado; sem arquivoCsv, não há botão', async () => {
    const baixado = capturarDownload();
    const { unmount } = render(<TabelaDados colunas={colunasGasto} linhas={gastos.slice(0, 1)} chaveLinha={(g) => g.id} arquivoCsv="gastos" />);
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(await baixado.blob!.text()).toContain('"Ana; ""Tia"" Souza";p1@x.com;10,50;20/11/2026');
    unmount();
    const vazio = render(<TabelaDados colunas={colunasGasto} linhas={[]} chaveLinha={(g) => g.id} arquivoCsv="gastos" />);
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    vazio.unmount();
    render(<TabelaDados colunas={colunasGasto} linhas={gastos} chaveLinha={(g) => g.id} />);
    expect(screen.queryByRole('button', { name: /CSV/ })).not.toBeInTheDocument();
  });
});
