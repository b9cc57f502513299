import { describe, expect, it } from 'vitest';
import { FILTROS_PADRAO, filtrosAtivos, paramsDosFiltros } from './filtrosAdmin';

describe('filtros da tela de vendas do administrador', () => {
  it('o padrão é só a rota ativa', () => {
    expect(paramsDosFiltros(FILTROS_PADRAO)).toEqual({ status_rota: 'ativa' });
    expect(filtrosAtivos(FILTROS_PADRAO)).toBe(0);
  });

  it('com uma rota escolhida vão a rota e as cidades marcadas (em lista), e o status não vai', () => {
    const f = { ...FILTROS_PADRAO, funcionario_id: '3', rota_id: '9', cidades: [5208707, 5201108], data_inicio: '2026-11-01', data_fim: '2026-11-30' };
    expect(paramsDosFiltros(f)).toEqual({ funcionario_id: '3', rota_id: '9', cidade_id: '5201108,5208707', data_inicio: '2026-11-01', data_fim: '2026-11-30' });
    expect(filtrosAtivos(f)).toBe(5);
  });

  it("'Todas' não filtra o status", () => {
    expect(paramsDosFiltros({ ...FILTROS_PADRAO, status_rota: 'todas' })).toEqual({});
    expect(paramsDosFiltros({ ...FILTROS_PADRAO, status_rota: 'finalizada' })).toEqual({ status_rota: 'finalizada' });
  });
});
