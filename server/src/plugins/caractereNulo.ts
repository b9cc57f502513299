/**
 * Text with the NUL character (U+0000) is refused with 400 before any route runs. PostgreSQL's
 * text cannot hold it: the insert, or even a lookup by it, fails and the request became a 500; SQLite
 * would have stored it. No field of the app has a use for it, so both engines answer alike: refused.
 * JSON bodies, query strings and path params here; the routes that read multipart or a JSON file
 * themselves (expense forms, the batch's `operacoes` field, the rescue file) call `recusarCaractereNulo`.
 */
import fp from 'fastify-plugin';
import { dadosInvalidos } from '../errors';
import type { App } from '../tipos';

export const MENSAGEM_CARACTERE_NULO = 'O texto enviado contém um caractere inválido (nulo). Corrija e tente novamente.';

/** Whether any string (value or key) inside `valor` contains U+0000. Walks data objects and arrays only. */
export function contemCaractereNulo(valor: unknown): boolean {
  const pilha: unknown[] = [valor];
  while (pilha.length > 0) {
    const atual = pilha.pop();
    if (typeof atual === 'string') {
      if (atual.includes('\u0000')) return true;
    } else if (Array.isArray(atual)) {
      pilha.push(...atual);
    } else if (typeof atual === 'object' && atual !== null) {
      // Data objects only: plain ones, prototype-less ones and the query parser's (an empty prototype).
      const prototipo = Object.getPrototypeOf(atual) as object | null;
      if (prototipo !== null && prototipo !== Object.prototype && Object.getPrototypeOf(prototipo) !== null) continue;
      for (const [chave, v] of Object.entries(atual)) {
        if (chave.includes('\u0000')) return true;
        pilha.push(v);
      }
    }
  }
  return false;
}

/**
 * Requests whose JSON body was parsed from a text without the six characters `\u0000`. JSON carries
 * U+0000 only as that escape (a raw one inside or outside a string is a syntax error, refused by the
 * parser), so their parsed body holds none and is not walked: the walk was ~6 µs of each queued sale of
 * a batch. A text with them (even a backslash written as `\\` before "u0000", which is no NUL)
 * is walked, which gives the exact answer.
 */
const corposJsonSemNulo = new WeakSet<object>();

/** Called by the JSON body parser with the raw text, before parsing it. */
export function anotarTextoJson(request: object, texto: string): void {
  if (!texto.includes('\\u0000')) corposJsonSemNulo.add(request);
}

/** Throws the 400 when `valor` carries a NUL character. */
export function recusarCaractereNulo(valor: unknown): void {
  if (contemCaractereNulo(valor)) throw dadosInvalidos(MENSAGEM_CARACTERE_NULO);
}

async function caractereNulo(app: App) {
  app.addHook('preValidation', async (request) => {
    recusarCaractereNulo(request.params);
    recusarCaractereNulo(request.query);
    // A JSON body parsed from a text without the escape holds none (anotarTextoJson).
    if (corposJsonSemNulo.has(request)) return;
    // Multipart bodies are read part by part by their routes (which check their fields themselves).
    if (!/^multipart\//i.test(request.headers['content-type'] ?? '')) recusarCaractereNulo(request.body);
  });
}

export default fp(caractereNulo, { name: 'caractere-nulo' });
