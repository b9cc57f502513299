import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import { CelularesPendentes } from './CelularesPendentes';
import { atrasado, descreverFila, diaEHora, haQuantoTempo } from './celulares';

const agora = Date.parse('2026-11-22T15:00:00.000Z');
const antes = (ms: number) => new Date(Date.now() - ms).toISOString();
const HORA = 3600_000;

describe('textos das pendências nos celulares', () => {
  it('tempo relativo em pt-BR, arredondado para baixo', () => {
    const ha = (ms: number) => haQuantoTempo(new Date(agora - ms).toISOString(), agora);
    expect(ha(20_000)).toBe('há instantes');
    expect(ha(60_000)).toBe('há 1 minuto');
    expect(ha(5 * 60_000 + 59_000)).toBe('há 5 minutos');
    expect(ha(HORA)).toBe('há 1 hora');
    expect(ha(3 * HORA + 59 * 60_000)).toBe('há 3 horas');
    expect(ha(24 * HORA)).toBe('há 1 dia');
    expect(ha(2 * 24 * HORA + 23 * HORA)).toBe('há 2 dias');
    expect(ha(-5000)).toBe('há instantes'); // a clock a little ahead
  });

  it("o que espera: '3 despesas e 1 venda', do tipo com mais itens para o com menos", () => {
    expect(descreverFila({ venda: 1, visita: 0, despesa: 3, rota: 0 })).toBe('3 despesas e 1 venda');
    expect(descreverFila({ venda: 2, visita: 1, despesa: 0, rota: 1 })).toBe('2 vendas, 1 visita e 1 finalização de rota');
    expect(descreverFila({ venda: 0, visita: 0, despesa: 0, rota: 2 })).toBe('2 finalizações de rota');
    expect(descreverFila({ venda: 10_000, visita: 0, despesa: 1_250, rota: 0 })).toBe('10.000 vendas e 1.250 despesas');
  });

  it('mais de 24 horas é atraso; 24 horas em ponto ainda não', () => {
    expect(atrasado(new Date(agora - 24 * HORA - 1000).toISOString(), agora)).toBe(true);
    expect(atrasado(new Date(agora - 24 * HORA).toISOString(), agora)).toBe(false);
    expect(atrasado(null, agora)).toBe(false);
    expect(diaEHora('2026-11-20T17:32:00.000Z', 'America/Sao_Paulo')).toBe('20/11 14:32');
  });
});

const celular = (c: Partial<CelularComFila>): CelularComFila => ({
  funcionario_id: 2,
  funcionario_nome: 'Maria Souza',
  dispositivo_id: '11111111-2222-4333-8444-555555555555',
  versao: '0.1.0',
  versao_antiga: false,
  fila: { venda: 1, visita: 0, despesa: 3, rota: 0 },
  mais_antigo_em: antes(2 * 24 * HORA + HORA),
  ultima_sync_em: '2026-11-20T17:32:00.000Z',
  visto_em: antes(60_000),
  ...c,
});

describe('CelularesPendentes (painel do admin)', () => {
  it('uma linha por celular com pendências; destaque quando espera há mais de 24 horas', () => {
    render(
      <CelularesPendentes
        carregando={false}
        celulares={[
          celular({}),
          celular({ funcionario_id: 3, funcionario_nome: 'João Lima', fila: { venda: 0, visita: 2, despesa: 0, rota: 0 }, mais_antigo_em: antes(3 * HORA + 60_000), ultima_sync_em: null, visto_em: antes(3 * 24 * HORA), versao_antiga: true, versao: '0.0.9' }),
        ]}
      />,
    );
    const secao = screen.getByRole('region', { name: 'Pendências nos celulares' });
    const [maria, joao] = within(secao).getAllByRole('listitem');
    expect(maria).toHaveTextContent('Maria Souza — 3 despesas e 1 venda no celular há 2 dias');
    expect(maria).toHaveTextContent('versão 0.1.0 · última sincronização 20/11 14:32');
    expect(maria).not.toHaveTextContent('visto');
    expect(maria).toHaveClass('celulares__item--atrasado');
    expect(within(maria!).getByText('Há mais de 24 horas')).toBeInTheDocument();

    expect(joao).toHaveTextContent('João Lima — 2 visitas no celular há 3 horas');
    expect(joao).toHaveTextContent('versão 0.0.9 · nunca sincronizou · visto há 3 dias');
    expect(joao).not.toHaveClass('celulares__item--atrasado');
    expect(within(joao!).queryByText('Há mais de 24 horas')).not.toBeInTheDocument();
    expect(within(joao!).getByText('Precisa atualizar o aplicativo')).toBeInTheDocument();
    expect(within(secao).getByText('1 celular há mais de 24 horas')).toBeInTheDocument();
  });

  it('todos os celulares em dia: um texto dizendo isso', () => {
    render(<CelularesPendentes carregando={false} celulares={[]} />);
    expect(screen.getByText('Nenhuma pendência: tudo o que a equipe registrou nos celulares já chegou ao servidor.')).toBeInTheDocument();
    expect(screen.queryByText(/mais de 24 horas/)).not.toBeInTheDocument();
  });
});
