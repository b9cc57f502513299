import { describe, expect, it } from 'vitest';
import { enderecoDaDespesa, enderecoDaRota, enderecoDaVenda, enderecoDoSaldo, enderecoDoUsuario, idDoEndereco, PARAMETROS_DAS_TELAS } from './enderecosDasTelas';

describe('endereços que abrem um registro', () => {
  it('cada tela com o seu parâmetro', () => {
    expect(enderecoDaDespesa('0193a2b4-0000-7000-8000-000000000001')).toBe('/despesas?despesa=0193a2b4-0000-7000-8000-000000000001');
    expect(enderecoDaRota(7)).toBe('/relatorios?rota=7');
    expect(enderecoDoUsuario(5)).toBe('/usuarios?usuario=5');
    expect(enderecoDoSaldo(5)).toBe('/saldo?funcionario=5');
    expect(enderecoDaVenda({ rotaId: 7, cidadeId: 5208707, data: '2026-12-03' })).toBe('/vendas?rota=7&cidade=5208707&data=2026-12-03');
  });

  it('o id lido de volta só quando é um inteiro positivo', () => {
    const ler = (busca: string) => idDoEndereco(new URLSearchParams(busca), PARAMETROS_DAS_TELAS.rota);
    expect(ler(new URL(`http://x${enderecoDaRota(7)}`).search)).toBe(7);
    for (const ruim of ['', 'rota=', 'rota=0', 'rota=-3', 'rota=1.5', 'rota=abc', 'rota=07', 'rota=99999999999999999', 'outro=7']) expect(ler(ruim)).toBeNull();
  });
});
