/** GET /api/estados, /api/cidades, /api/cidades/search: any signed-in user. */
import { z } from 'zod';
import { camposPaginacao, camposRespostaPaginada, LIMITE_MAXIMO_PAGINA } from '../../../shared/schemas/paginacao';
import { fatiar } from '../paginacao';
import type { App } from '../tipos';
import { buscarCidades, listarCidades, listarEstados } from './repositorio';

const uf = z
  .string({ error: 'UF inválida.' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'UF inválida.')
  .optional();

const cidadeSchema = z.object({ id: z.number(), nome: z.string(), uf: z.string() });
const cidadesResposta = z.object({ cidades: z.array(cidadeSchema) });

export const BUSCA_MINIMA = 2;

export default async function rotasCidades(app: App) {
  // onRequest: 401 comes before any query validation (see usuarios/rotas.ts).
  app.addHook('onRequest', app.autenticar);

  app.get(
    '/estados',
    { schema: { response: { 200: z.object({ estados: z.array(z.object({ uf: z.string(), nome: z.string() })) }) } } },
    async () => ({ estados: await listarEstados(app.db) }),
  );

  // Every city of a state (or of Brazil, 5,570): paged like every list, the largest state fits a page.
  app.get(
    '/cidades',
    { schema: { querystring: z.object({ uf, ...camposPaginacao(LIMITE_MAXIMO_PAGINA) }), response: { 200: cidadesResposta.extend(camposRespostaPaginada) } } },
    async (request) => {
      const { itens, ...pagina } = fatiar(await listarCidades(app.db, request.query.uf), request.query);
      return { cidades: itens, ...pagina };
    },
  );

  app.get(
    '/cidades/search',
    {
      schema: {
        querystring: z.object({
          q: z
            .string({ error: `Digite pelo menos ${BUSCA_MINIMA} letras para buscar.` })
            .max(100, 'Busca longa demais.')
            .trim()
            .min(BUSCA_MINIMA, `Digite pelo menos ${BUSCA_MINIMA} letras para buscar.`),
          uf,
          limite: z.coerce.number({ error: 'Limite inválido.' }).int('Limite inválido.').min(1, 'Limite inválido.').max(100, 'Limite inválido.').default(30),
        }),
        response: { 200: cidadesResposta },
      },
    },
    async (request) => ({ cidades: await buscarCidades(app.db, request.query.q, request.query.uf, request.query.limite) }),
  );
}
