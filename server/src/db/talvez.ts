/**
 * Answers ready now on SQLite, later on PostgreSQL. better-sqlite3 answers each statement at
 * once; wrapping every answer in a promise and awaiting it, statement by statement, was about a third of
 * the server's time per queued sale after the async port. The few data functions on the batch
 * sync's path answer `Talvez<T>` instead: the value itself on SQLite, a promise on PostgreSQL. A caller that
 * `await`s one works either way; a chain of steps written as a generator (`rodarPassos`) runs
 * synchronously while every answer is ready and waits from the first one that is not, the same code on
 * both engines (the technique of Babel's gensync).
 *
 * A `Talvez` function may throw where an async one would reject: awaited, or run inside steps, the
 * failure reaches the same catch.
 */

export type Talvez<T> = T | Promise<T>;

/** What `await` waits for: a promise, or any object with a `then` method (drizzle's query builders). */
function aEsperar(valor: unknown): valor is PromiseLike<unknown> {
  return typeof valor === 'object' && valor !== null && typeof (valor as { then?: unknown }).then === 'function';
}

/**
 * Inside steps: the value of `valor` (`const x = yield* aguardar(f())` where an async function has `const x = await f()`).
 * The batch's per-sale steps write `(yield f()) as T` instead, which is the same to `rodarPassos` without a generator
 * object per wait (1-2% of a batch, measured).
 */
export function* aguardar<T>(valor: Talvez<T>): Generator<unknown, T, unknown> {
  return (yield valor) as T;
}

/**
 * Runs the steps: synchronously while each value they wait for is ready, answering the result itself (or
 * throwing what they threw); from the first one that must be waited for, a promise of the result.
 */
export function rodarPassos<T>(passos: Generator<unknown, T, unknown>): Talvez<T> {
  let passo = passos.next();
  while (!passo.done) {
    if (aEsperar(passo.value)) return continuarDepois(passos, passo.value);
    passo = passos.next(passo.value);
  }
  return passo.value;
}

async function continuarDepois<T>(passos: Generator<unknown, T, unknown>, pendente: unknown): Promise<T> {
  for (;;) {
    let passo: IteratorResult<unknown, T>;
    let valor: unknown;
    try {
      valor = await pendente;
    } catch (erro) {
      // Thrown into the steps where they wait, as `await` does: their own try/catch/finally sees it.
      passo = passos.throw(erro);
      if (passo.done) return passo.value;
      pendente = passo.value;
      continue;
    }
    passo = passos.next(valor);
    if (passo.done) return passo.value;
    pendente = passo.value;
  }
}

/** `f` of the value, now if it is ready, after it otherwise (a single step, without a generator). */
export function depois<T, U>(valor: Talvez<T>, f: (valor: T) => Talvez<U>): Talvez<U> {
  return aEsperar(valor) ? (valor as Promise<T>).then(f) : f(valor as T);
}
