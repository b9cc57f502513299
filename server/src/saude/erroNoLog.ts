/**
 * An error as the log writes it, without the data of the query that failed: drizzle's DrizzleQueryError
 * puts the query's parameters in its message ('params: ...') and in `params`, node-postgres's errors put
 * row values in `detail` ('Key (email)=(...)'), `where` and quoted in some messages. Those are personal
 * data (names, emails, amounts), and logs travel further than the database. The SQL text (with $1, ?),
 * the codes, the stack and the `cause` chain stay: they are what finds the bug.
 */

/** Fields that may carry row values: dropped from every error in the chain. */
const CAMPOS_COM_DADOS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'hint']);
/** Fields kept as they are (besides type, message, stack, cause). */
const CAMPOS_SEGUROS = ['code', 'errno', 'syscall', 'severity', 'routine', 'table', 'column', 'constraint', 'schema', 'dataType', 'query', 'statusCode', 'codigo', 'name'];

/** The message without parameters: drizzle's 'params: ...' line, PostgreSQL's quoted input values. */
export function mensagemSemParametros(mensagem: string): string {
  const semParams = mensagem.replace(/\nparams: [\s\S]*$/, '\nparams: [omitidos]');
  // 'invalid input syntax for type bigint: "abc"', 'value too long ...: "..."': the value is the data.
  return semParams.replace(/: "(?:[^"\\]|\\.)*"/g, ': "[omitido]"');
}

export function erroSemParametros(erro: unknown, profundidade = 0): unknown {
  if (!(erro instanceof Error) && (typeof erro !== 'object' || erro === null)) return erro;
  const e = erro as Error & Record<string, unknown>;
  const mensagem = typeof e.message === 'string' ? e.message : String(erro);
  const limpa = mensagemSemParametros(mensagem);
  const saida: Record<string, unknown> = {
    type: e.constructor?.name ?? 'Error',
    message: limpa,
  };
  if (typeof e.stack === 'string') saida.stack = e.stack.split(mensagem).join(limpa);
  for (const campo of CAMPOS_SEGUROS) {
    if (e[campo] !== undefined && !CAMPOS_COM_DADOS.has(campo)) saida[campo] = e[campo];
  }
  if (e.cause !== undefined && profundidade < 5) saida.cause = erroSemParametros(e.cause, profundidade + 1);
  return saida;
}
