/**
 * Helpers for the 'Exportar pendências' import tests: a file as the phone writes it, and the
 * multipart body the admin's screen sends (POST /api/sync/importar, field `arquivo`).
 */
import { v7 as uuidv7 } from 'uuid';
import { FORMATO_PENDENCIAS, VERSAO_PENDENCIAS, type ArquivoPendenciasEntrada } from '../../shared/schemas/pendencias';
import type { ArquivoTeste } from './despesas';

type OperacaoArquivo = ArquivoPendenciasEntrada['operacoes'][number];

export function operacaoPendencia(op: Omit<OperacaoArquivo, 'id' | 'criadoEm'> & { id?: string }, arquivo?: ArquivoTeste): OperacaoArquivo {
  return {
    id: op.id ?? uuidv7(),
    criadoEm: new Date().toISOString(),
    ...op,
    arquivo: arquivo ? { nome: arquivo.nome, tipo: arquivo.tipo, tamanho: arquivo.conteudo.length, base64: arquivo.conteudo.toString('base64') } : null,
  };
}

export function arquivoPendencias(funcionario: { id: number; nome: string; email: string }, operacoes: OperacaoArquivo[]): ArquivoPendenciasEntrada {
  return {
    formato: FORMATO_PENDENCIAS,
    versao: VERSAO_PENDENCIAS,
    exportadoEm: new Date().toISOString(),
    funcionario,
    dispositivo: uuidv7(),
    versaoApp: 'teste',
    operacoes,
  };
}

/** The multipart body a browser sends with the chosen file. */
export async function formularioPendencias(conteudo: string | Buffer | object, nome = 'pendencias-teste.sgp', campo = 'arquivo') {
  const bytes = typeof conteudo === 'string' || Buffer.isBuffer(conteudo) ? conteudo : JSON.stringify(conteudo);
  const fd = new FormData();
  fd.append(campo, new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type: 'application/json' }), nome);
  const r = new Response(fd);
  return { payload: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': r.headers.get('content-type')! } };
}
