/** Makes sure the city list is there at start: IBGE's API when reachable, else a small sample. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { CIDADES_AMOSTRA } from './amostra';
import { baixarMunicipiosIbge } from './importacao';
import { contarCidades, gravarEstadosECidades } from './repositorio';
import { UFS } from './ufs';

export type OrigemCidades = 'existente' | 'ibge' | 'amostra';

export const COMO_IMPORTAR =
  'Para carregar a lista completa do IBGE: `npm run cities:import -- CAMINHO` (pasta com municipios.csv e estados.csv), ' +
  'ou `./sistema-de-gestao cities:import CAMINHO` no executável.';

export async function garantirCidades(
  db: Db,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  baixar: (() => ReturnType<typeof baixarMunicipiosIbge>) | null = baixarMunicipiosIbge,
): Promise<OrigemCidades> {
  if ((await contarCidades(db)) > 0) return 'existente';
  if (baixar) {
    try {
      const { ufs, cidades } = await baixar();
      await gravarEstadosECidades(db, ufs, cidades);
      log.info({ cidades: cidades.length }, 'cidades carregadas da API de localidades do IBGE');
      return 'ibge';
    } catch (erro) {
      log.warn({ motivo: (erro as Error).message }, 'não foi possível baixar as cidades do IBGE');
    }
  }
  await gravarEstadosECidades(db, UFS, CIDADES_AMOSTRA);
  log.warn(`Carregada uma amostra de ${CIDADES_AMOSTRA.length} cidades. ${COMO_IMPORTAR}`);
  return 'amostra';
}
