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

  it('nomeia o funcionário e a rota citados quando a página traz os nomes; sem o nome, o número', () => {
    const nomes = { usuarios: { '3': 'Ana Souza' }, rotas: { '12': 'Rota Sul' } };
    const credito = { antes: { saldo_centavos: 0 }, depois: { saldo_centavos: 500, valor_centavos: 500, descricao: '', rota_id: 12 } };
    expect(linhasDasMudancas(descreverMudancas(credito, { nomes }))).toContain('Rota: Rota Sul (#12)');
    expect(linhasDasMudancas(descreverMudancas(credito))).toContain('Rota: #12');
    expect(linhasDasMudancas(descreverMudancas({ antes: { funcionario_id: 3 }, depois: { funcionario_id: 4 } }, { nomes }))).toEqual(['Funcionário: Ana Souza (#3) → #4']);
  });

  it('uma importação de pendências: o arquivo, quando foi exportado (no fuso do negócio) e quantas escritas entraram', () => {
    const linhas = linhasDasMudancas(
      descreverMudancas(
        { antes: null, depois: { arquivo: 'pendencias-caio.sgp', exportado_em: '2026-11-20T13:05:00.000Z', dispositivo: 'x', aceito: 3, ja_recebido: 1, recusado: 0, retido: 0, nao_processado: 0 } },
        { fuso: 'America/Sao_Paulo' },
      ),
    );
    expect(linhas).toEqual(['Arquivo: pendencias-caio.sgp', 'Exportado em: 20/11/2026 10:05', 'Aceitos: 3', 'Já recebidos: 1', 'Recusados: 0', 'Retidos: 0', 'Não processados: 0']);
  });
});
