/**
 * GET /api/health, for a proxy, a monitor or the operator: 200 with every check ok, or 503 with
 * Retry-After naming what fails (saude/verificacoes.ts). No authentication; it says which parts fail
 * and the disk's free space, nothing about the data.
 */
import { z } from 'zod';
import { pastaUploads } from '../despesas/cupons';
import type { App } from '../tipos';
import { ESPERA_PADRAO_SEGUNDOS } from './indisponibilidade';
import {
  comLimite,
  resumirSaude,
  verificarArmazenamento,
  verificarBanco,
  verificarDisco,
  type EstadoDaCopiaContinua,
  type EstadoDaVerificacao,
  type NomeDaVerificacao,
} from './verificacoes';

const estado = z.object({ ok: z.boolean(), erro: z.string().optional() }).catchall(z.unknown());
const resposta = z.object({
  status: z.enum(['ok', 'falha']),
  verificacoes: z.partialRecord(z.enum(['banco', 'disco', 'armazenamento', 'copia_continua']), estado),
  error: z.string().optional(),
  codigo: z.literal('indisponivel').optional(),
});

export default async function rotasSaude(app: App, opcoes: { copiaContinua?: EstadoDaCopiaContinua }) {
  app.get('/health', { schema: { response: { 200: resposta, 503: resposta } } }, async (_request, reply) => {
    const { db, config, armazenamento } = app;
    const nomes: NomeDaVerificacao[] = ['banco', 'disco', 'armazenamento'];
    const verificacoes: Promise<EstadoDaVerificacao>[] = [
      comLimite(() => verificarBanco(db)),
      comLimite(() => verificarDisco(config.dataDir, config.discoMinimoBytes)),
      comLimite(() => verificarArmazenamento(armazenamento, pastaUploads(config.dataDir))),
    ];
    if (opcoes.copiaContinua) {
      nomes.push('copia_continua');
      verificacoes.push(comLimite(opcoes.copiaContinua));
    }
    const estados = await Promise.all(verificacoes);
    const saude = resumirSaude(Object.fromEntries(nomes.map((n, i) => [n, estados[i]!])));
    if (saude.status === 'ok') return saude;
    app.log.warn({ verificacoes: saude.verificacoes }, 'health: servidor com falha');
    return reply
      .code(503)
      .header('Retry-After', String(ESPERA_PADRAO_SEGUNDOS))
      .send({ ...saude, codigo: 'indisponivel' as const });
  });
}
