import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { definirLarguraDaJanela } from '../test/janela';
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

  it('colunas só do computador ou só do celular, e o texto longo numa linha própria no computador (issue 17)', () => {
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
