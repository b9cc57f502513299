import { describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import { rotaDeTeste } from '../test/rotas';
import {
  adicionarCidade,
  agruparPorEstado,
  alternarEstado,
  formularioAlterado,
  formularioDaRota,
  formularioVazio,
  mesclarResultados,
  podeBuscarCidades,
  previaDeCidades,
  removerCidade,
  validarFormulario,
  type FormularioRota,
} from './formularioRota';

const GOIANIA = { id: 5208707, nome: 'Goiânia', uf: 'GO' };
const ANAPOLIS = { id: 5201108, nome: 'Anápolis', uf: 'GO' };
const UBERLANDIA = { id: 3170206, nome: 'Uberlândia', uf: 'MG' };
const UBERABA = { id: 3170107, nome: 'Uberaba', uf: 'MG' };

function preenchido(extra: Partial<FormularioRota> = {}): FormularioRota {
  return {
    ...formularioVazio(),
    nome: 'Rota Sul',
    funcionario_id: '7',
    data_inicio: '2026-11-01',
    data_fim: '2026-11-30',
    estados: ['GO', 'MG'],
    cidades: [GOIANIA, UBERLANDIA],
    ...extra,
  };
}

const ROTA: Rota = rotaDeTeste({
  id: 3,
  nome: 'Rota Triângulo',
  funcionario_id: 7,
  funcionario_nome: 'Bruno',
  tem_secretario: true,
  secretario_nome: 'Sônia',
  valor_aluguel: 350.5,
  observacoes: 'Obs.',
  cidades: [UBERLANDIA, GOIANIA, UBERABA],
  criado_em: '2026-10-30T12:00:00.000Z',
});

describe('validarFormulario', () => {
  it('formulário vazio: cada texto da especificação, sem pedido', () => {
    const r = validarFormulario(formularioVazio());
    expect(r).toEqual({
      ok: false,
      erros: {
        nome: 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.',
        funcionario_id: 'Funcionário é obrigatório.',
        data_inicio: 'Data de início é obrigatória.',
        data_fim: 'Data de fim é obrigatória.',
        cidades: 'Selecione pelo menos uma cidade para a rota.',
        estados: 'Selecione pelo menos um estado para a rota.',
      },
    });
  });

  it('nome com 1 letra, datas invertidas e aluguel negativo', () => {
    const r = validarFormulario(preenchido({ nome: ' A ', data_inicio: '2026-11-30', data_fim: '2026-11-01', valor_aluguel: '-5' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.erros).toEqual({
      nome: 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.',
      data_fim: 'A data de fim não pode ser anterior à data de início.',
      valor_aluguel: 'Valor do aluguel não pode ser negativo.',
    });
  });

  it('válido: o corpo da API com aluguel em reais, ids das cidades na ordem e sem nome de secretário se não houver', () => {
    const r = validarFormulario(preenchido({ nome: '  Rota Sul ', valor_aluguel: '350.5', secretario_nome: 'esquecido', observacoes: ' ok ' }));
    expect(r).toEqual({
      ok: true,
      pedido: {
        nome: 'Rota Sul',
        funcionario_id: 7,
        tem_secretario: false,
        secretario_nome: '',
        valor_aluguel: 350.5,
        data_inicio: '2026-11-01',
        data_fim: '2026-11-30',
        observacoes: 'ok',
        cidades: [GOIANIA.id, UBERLANDIA.id],
      },
    });
    const comSecretario = validarFormulario(preenchido({ tem_secretario: true, secretario_nome: ' Sônia ', valor_aluguel: '' }));
    expect(comSecretario.ok && comSecretario.pedido).toMatchObject({ tem_secretario: true, secretario_nome: 'Sônia', valor_aluguel: 0 });
  });

  it('o aluguel é lido como pt-BR escreve: "350,50" e "1.280,50"', () => {
    for (const [texto, reais] of [['350,50', 350.5], ['1.280,50', 1280.5], ['R$ 1.280,50', 1280.5]] as const) {
      const r = validarFormulario(preenchido({ valor_aluguel: texto }));
      expect(r.ok && r.pedido.valor_aluguel, texto).toBe(reais);
    }
    const r = validarFormulario(preenchido({ valor_aluguel: '12,3,4' }));
    expect(r.ok ? null : r.erros.valor_aluguel).toBe('Valor do aluguel deve ser um número.');
  });
});

describe('estados e cidades', () => {
  it('a busca só roda com 2 letras e um estado', () => {
    expect(podeBuscarCidades('g', ['GO'])).toBe(false);
    expect(podeBuscarCidades(' go ', [])).toBe(false);
    expect(podeBuscarCidades('go', ['GO'])).toBe(true);
  });

  it('mescla as respostas de cada estado sem repetir cidade, os nomes que começam com o texto primeiro', () => {
    const r = mesclarResultados(
      [
        [ANAPOLIS, GOIANIA],
        [UBERLANDIA, UBERABA, GOIANIA],
      ],
      'uber',
    );
    expect(r.map((c) => c.nome)).toEqual(['Uberaba', 'Uberlândia', 'Anápolis', 'Goiânia']);
    expect(mesclarResultados([[GOIANIA], [GOIANIA]], 'goi')).toEqual([GOIANIA]);
  });

  it('uma cidade não entra duas vezes; remover tira só ela', () => {
    const uma = adicionarCidade([], GOIANIA);
    expect(adicionarCidade(uma, { ...GOIANIA })).toBe(uma);
    const duas = adicionarCidade(uma, ANAPOLIS);
    expect(duas).toEqual([GOIANIA, ANAPOLIS]);
    expect(removerCidade(duas, GOIANIA.id)).toEqual([ANAPOLIS]);
  });

  it('desmarcar um estado remove as cidades dele; marcar de novo não as traz de volta', () => {
    const antes = { estados: ['GO', 'MG'], cidades: [GOIANIA, UBERLANDIA, ANAPOLIS] };
    const semGo = alternarEstado(antes, 'GO');
    expect(semGo).toEqual({ estados: ['MG'], cidades: [UBERLANDIA] });
    expect(alternarEstado(semGo, 'GO')).toEqual({ estados: ['MG', 'GO'], cidades: [UBERLANDIA] });
  });

  it('agrupa por estado (estados em ordem alfabética, cidades na ordem da rota) e mostra no máximo 6 na prévia', () => {
    expect(agruparPorEstado([UBERLANDIA, GOIANIA, UBERABA, ANAPOLIS])).toEqual([
      { uf: 'GO', cidades: [GOIANIA, ANAPOLIS] },
      { uf: 'MG', cidades: [UBERLANDIA, UBERABA] },
    ]);
    const oito = Array.from({ length: 8 }, (_, i) => i);
    expect(previaDeCidades(oito, 6)).toEqual({ visiveis: [0, 1, 2, 3, 4, 5], restantes: 2 });
    expect(previaDeCidades([1, 2], 6)).toEqual({ visiveis: [1, 2], restantes: 0 });
  });
});

describe('edição e dados que seriam perdidos', () => {
  it('a edição traz os estados das cidades da rota já marcados e o aluguel com 2 casas', () => {
    expect(formularioDaRota(ROTA)).toEqual({
      nome: 'Rota Triângulo',
      funcionario_id: '7',
      data_inicio: '2026-11-01',
      data_fim: '2026-11-30',
      valor_aluguel: '350,50',
      tem_secretario: true,
      secretario_nome: 'Sônia',
      observacoes: 'Obs.',
      estados: ['MG', 'GO'],
      cidades: [UBERLANDIA, GOIANIA, UBERABA],
    });
  });

  it('qualquer dado preenchido conta como alteração; espaços em branco e ordem dos estados não', () => {
    const vazio = formularioVazio();
    expect(formularioAlterado(vazio, formularioVazio())).toBe(false);
    expect(formularioAlterado(vazio, { ...vazio, nome: '   ' })).toBe(false);
    expect(formularioAlterado(vazio, { ...vazio, nome: 'R' })).toBe(true);
    expect(formularioAlterado(vazio, { ...vazio, estados: ['GO'] })).toBe(true);
    expect(formularioAlterado(vazio, { ...vazio, tem_secretario: true })).toBe(true);
    const edicao = formularioDaRota(ROTA);
    expect(formularioAlterado(edicao, { ...edicao, estados: ['GO', 'MG'] })).toBe(false);
    expect(formularioAlterado(edicao, { ...edicao, cidades: [GOIANIA, UBERLANDIA, UBERABA] })).toBe(true);
  });
});
