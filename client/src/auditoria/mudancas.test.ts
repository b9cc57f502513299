import { describe, expect, it } from 'vitest';
import { descreverMudancas, linhasDasMudancas } from './mudancas';

describe('descreverMudancas', () => {
  it('numa edição, só o que mudou, com rótulos e valores como as telas mostram', () => {
    const linhas = linhasDasMudancas(
      descreverMudancas({
        antes: { nome: 'Rota A', valor_aluguel_centavos: 30_000, cidades: [1, 2], status: 'ativa', tem_secretario: false },
        depois: { nome: 'Rota B', valor_aluguel_centavos: 45_050, cidades: [1, 2, 3], status: 'ativa', tem_secretario: true },
      }),
    );
    expect(linhas).toEqual(['Nome: Rota A → Rota B', 'Tem secretário: Não → Sim', 'Aluguel: R$ 300,00 → R$ 450,50', 'Cidades: 2 cidades → 3 cidades'].map((l) => l.replace(/R\$ /g, 'R$\u00a0')));
  });

  it('numa criação, todos os campos; no crédito, o saldo antes e depois e o valor; campos internos ficam de fora', () => {
    expect(linhasDasMudancas(descreverMudancas({ antes: null, depois: { nome: 'Caio', tipo: 'funcionario', ativo: true } }))).toEqual(['Nome: Caio', 'Tipo: Funcionário', 'Ativo: Sim']);
    const credito = linhasDasMudancas(
      descreverMudancas({ antes: { saldo_centavos: 0 }, depois: { saldo_centavos: 25_000, valor_centavos: 25_000, descricao: 'Adiantamento', rota_id: null, movimentacao_id: 9 } }),
    );
    expect(credito.map((l) => l.replace(/\u00a0/g, ' '))).toEqual(['Saldo: R$ 0,00 → R$ 250,00', 'Valor: R$ 250,00', 'Descrição: Adiantamento', 'Rota: Sem rota específica']);
    expect(linhasDasMudancas(descreverMudancas({ antes: { status_aprovacao: 'pendente', motivo_rejeicao: null, avaliado_em: null }, depois: { status_aprovacao: 'rejeitada', motivo_rejeicao: 'Sem nota', avaliado_em: 'x' } }))).toEqual([
      'Aprovação: Pendente → Rejeitada',
      'Motivo: — → Sem nota',
    ]);
  });
});
