import { describe, expect, it } from 'vitest';
import { filaVazia } from '../../../shared/dispositivos';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import { haAlgoARelatar, linhaDoCelular, resumoDosCelulares } from './desativacao';

const AGORA = Date.parse('2026-11-22T12:00:00.000Z');
const FUSO = 'America/Sao_Paulo';

const celular = (extra: Partial<CelularComFila>): CelularComFila => ({
  funcionario_id: 2,
  funcionario_nome: 'Bruno Campo',
  dispositivo_id: '11111111-2222-4333-8444-555555555555',
  versao: '0.5.0',
  versao_antiga: false,
  fila: filaVazia(),
  mais_antigo_em: null,
  ultima_sync_em: null,
  visto_em: '2026-11-22T11:59:00.000Z',
  ...extra,
});

describe('o texto da confirmação de desativar', () => {
  it('nada a relatar só sem rota, com saldo zero e sem celulares', () => {
    const nada = { usuario_id: 2, nome: 'Bruno', rota_ativa: null, saldo_atual: 0, celulares: [] };
    expect(haAlgoARelatar(nada)).toBe(false);
    expect(haAlgoARelatar({ ...nada, saldo_atual: -0.01 })).toBe(true);
    expect(haAlgoARelatar({ ...nada, rota_ativa: { id: 1, nome: 'Rota' } })).toBe(true);
    expect(haAlgoARelatar({ ...nada, celulares: [celular({ fila: { ...filaVazia(), visita: 1 } })] })).toBe(true);
  });

  it('um celular diz tudo numa frase; vários dão a soma e uma linha cada', () => {
    const um = celular({ fila: { ...filaVazia(), venda: 2 }, mais_antigo_em: '2026-11-22T09:00:00.000Z', ultima_sync_em: '2026-11-20T17:32:00.000Z' });
    expect(resumoDosCelulares([um], AGORA, FUSO)).toBe('2 vendas no celular há 3 horas · última sincronização 20/11 14:32.');
    const outro = celular({ dispositivo_id: 'x', fila: { ...filaVazia(), despesa: 1, rota: 1 } });
    expect(resumoDosCelulares([um, outro], AGORA, FUSO)).toBe('2 vendas, 1 despesa e 1 finalização de rota, em 2 celulares:');
    // No age reported (an old app), never synced.
    expect(linhaDoCelular(outro, AGORA, FUSO)).toBe('1 despesa e 1 finalização de rota · nunca sincronizou');
  });
});
