/**
 * Downloads an export the server streams (the accountant's ZIP, a list's whole CSV): the authenticated
 * request of api/client.ts, the body read as it arrives (bytes counted for the progress), then handed to
 * the browser's download under the name the server gave (Content-Disposition).
 */
import { pedirArquivo, ErroOffline, mensagemDeErro, type Parametros } from '../api/client';
import { baixarArquivo } from '../components/baixarArquivo';

/** No byte for this long: the download is given up (the server or the link stopped). */
export const SEM_BYTES_MS = 60_000;

export const MENSAGEM_ERRO_EXPORTACAO = 'Erro ao exportar. Tente novamente.';
export const MENSAGEM_DOWNLOAD_INTERROMPIDO = 'O download foi interrompido antes do fim. Tente novamente.';

/** The file name of `attachment; filename="x.zip"` (or filename*=UTF-8''...), null without one. */
export function nomeDoAnexo(cabecalho: string | null): string | null {
  if (!cabecalho) return null;
  const utf8 = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(cabecalho);
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]!.trim());
    } catch {
      // falls back to the plain name
    }
  }
  const simples = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;\s]+)/i.exec(cabecalho);
  return simples ? (simples[1] ?? simples[2] ?? null) : null;
}

/** What the download came to: the name it was saved under and its size. */
export interface Baixado {
  nome: string;
  bytes: number;
}

/**
 * Fetches `caminho` with `params`, reporting the bytes received so far, and saves the file. Throws with a
 * pt-BR message the screen shows as it is: the server's refusal (422, 403, 503...), no connection, or a
 * download cut in the middle.
 */
export async function baixarExportacao(caminho: string, params: Parametros, nomePadrao: string, aoProgresso: (bytes: number) => void): Promise<Baixado> {
  let resposta: Response;
  try {
    resposta = await pedirArquivo(caminho, { params });
  } catch (erro) {
    throw new Error(mensagemDeErro(erro, MENSAGEM_ERRO_EXPORTACAO), { cause: erro });
  }
  const nome = nomeDoAnexo(resposta.headers.get('content-disposition')) ?? nomePadrao;
  const tipo = resposta.headers.get('content-type') ?? 'application/octet-stream';
  const partes: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  if (resposta.body) {
    const leitor = resposta.body.getReader();
    try {
      for (;;) {
        let relogio: ReturnType<typeof setTimeout> | undefined;
        const parado = new Promise<never>((_, falhar) => {
          relogio = setTimeout(() => falhar(new ErroOffline('O servidor parou de enviar o arquivo.', true)), SEM_BYTES_MS);
        });
        const lido = await Promise.race([leitor.read(), parado]).finally(() => clearTimeout(relogio));
        if (lido.done) break;
        partes.push(lido.value as Uint8Array<ArrayBuffer>);
        bytes += lido.value.byteLength;
        aoProgresso(bytes);
      }
    } catch (erro) {
      void leitor.cancel().catch(() => undefined);
      throw new Error(erro instanceof ErroOffline && erro.tempoEsgotado ? `${erro.message} Tente novamente.` : MENSAGEM_DOWNLOAD_INTERROMPIDO, { cause: erro });
    }
  }
  baixarArquivo(new Blob(partes, { type: tipo }), nome);
  return { nome, bytes };
}
