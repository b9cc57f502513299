/**
 * 'Importar pendências' (admin): the file an employee saved with 'Exportar pendências' when the phone
 * could not sync. The admin picks it, sees what it holds (whose, when, how many of each kind) and
 * confirms; the server replays it as that employee with the sync's own rules and answers each item.
 * Importing the same file again changes nothing. Online only, like every admin screen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { FileUp, Paperclip } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import { formatarDataHora } from '../../../shared/dates';
import {
  pendenciasSchema,
  resumirPorTipo,
  ROTULO_SITUACAO,
  FORMATO_PENDENCIAS,
  VERSOES_PENDENCIAS_LIDAS,
  LIMITE_PENDENCIAS_BYTES,
  LIMITE_PENDENCIAS_MB,
  plural,
  type ArquivoPendencias,
  type ResultadoImportacao,
  type SituacaoImportada,
} from '../../../shared/schemas/pendencias';
import { mensagemDeErro, requisitar } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { Modal } from '../components/Modal';
import { Selo, type CorSelo } from '../components/Selo';
import { useOnline } from '../components/useOnline';
import { fusoDoApp } from '../config/configApp';
import { formatarBytes } from '../pwa/armazenamento';

const COR_SITUACAO: Record<SituacaoImportada, CorSelo> = {
  aceito: 'verde',
  ja_recebido: 'azul',
  recusado: 'vermelho',
  retido: 'amarelo',
  nao_processado: 'laranja',
};

/** A big upload over the office link: well above the API's default 10 s. */
const TEMPO_LIMITE_IMPORTACAO_MS = 5 * 60_000;

interface Escolhido {
  arquivo: File;
  conteudo: ArquivoPendencias;
}

/** The chosen file read here for the preview; the server checks it again in full. */
export async function lerArquivoPendencias(arquivo: File): Promise<ArquivoPendencias> {
  if (arquivo.size > LIMITE_PENDENCIAS_BYTES) throw new Error(`O arquivo é grande demais: o máximo é ${LIMITE_PENDENCIAS_MB} MB.`);
  let bruto: unknown;
  try {
    bruto = JSON.parse(await arquivo.text());
  } catch {
    bruto = null;
  }
  const cabecalho = (bruto ?? {}) as { formato?: unknown; versao?: unknown };
  if (cabecalho.formato !== FORMATO_PENDENCIAS) {
    throw new Error('Este arquivo não é um arquivo de pendências do Sistema de Gestão. Escolha o arquivo .sgp criado em "Exportar pendências".');
  }
  // Files of earlier app versions (version 1) are still read: a phone may export before it updates.
  if (!(VERSOES_PENDENCIAS_LIDAS as readonly unknown[]).includes(cabecalho.versao)) {
    throw new Error('Este arquivo foi criado por outra versão do aplicativo e não pode ser lido aqui.');
  }
  const r = pendenciasSchema.safeParse(bruto);
  if (!r.success) throw new Error(r.error.issues[0]?.message ?? 'O arquivo de pendências está danificado.');
  return r.data;
}

export function ModalImportarPendencias({ aberto, aoFechar }: { aberto: boolean; aoFechar: () => void }) {
  const online = useOnline();
  const fuso = fusoDoApp();
  const clienteQuery = useQueryClient();
  const [escolhido, setEscolhido] = useState<Escolhido | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [resultado, setResultado] = useState<ResultadoImportacao | null>(null);
  // A new key empties the file input when starting over.
  const [chaveSeletor, setChaveSeletor] = useState(0);

  function recomecar() {
    setEscolhido(null);
    setErro(null);
    setResultado(null);
    setChaveSeletor((k) => k + 1);
  }

  function fechar() {
    if (enviando) return;
    recomecar();
    aoFechar();
  }

  async function escolher(e: ChangeEvent<HTMLInputElement>) {
    const arquivo = e.target.files?.[0];
    setResultado(null);
    setEscolhido(null);
    setErro(null);
    if (!arquivo) return;
    try {
      setEscolhido({ arquivo, conteudo: await lerArquivoPendencias(arquivo) });
    } catch (falha) {
      setErro(falha instanceof Error ? falha.message : 'Não foi possível ler o arquivo.');
    }
  }

  async function importar() {
    if (!escolhido) return;
    setEnviando(true);
    setErro(null);
    try {
      const form = new FormData();
      form.append('arquivo', escolhido.arquivo, escolhido.arquivo.name);
      const r = await requisitar<ResultadoImportacao>('POST', '/sync/importar', { corpo: form, tempoLimiteMs: TEMPO_LIMITE_IMPORTACAO_MS });
      setResultado(r);
      // Sales, expenses, balances and the dashboard may all have changed.
      void clienteQuery.invalidateQueries();
    } catch (falha) {
      setErro(mensagemDeErro(falha, 'Erro ao importar pendências'));
    } finally {
      setEnviando(false);
    }
  }

  const c = escolhido?.conteudo;
  const comprovantes = c ? c.operacoes.filter((o) => o.arquivo).length : 0;
  const recusadosNoAparelho = c ? c.operacoes.filter((o) => o.estado === 'erro').length : 0;

  return (
    <Modal
      aberto={aberto}
      aoFechar={fechar}
      titulo="Importar pendências"
      tamanho="grande"
      rodape={
        resultado ? (
          <>
            <Botao variante="outline" onClick={recomecar}>
              Importar outro arquivo
            </Botao>
            <Botao onClick={fechar}>Fechar</Botao>
          </>
        ) : (
          <>
            <Botao variante="outline" onClick={fechar} disabled={enviando}>
              Cancelar
            </Botao>
            <Botao icone={<FileUp size={18} />} onClick={() => void importar()} carregando={enviando} disabled={!escolhido || !online}>
              Importar
            </Botao>
          </>
        )
      }
    >
      {!resultado && (
        <>
          <p className="campo__ajuda" style={{ marginTop: 0 }}>
            Quando o celular de um funcionário não consegue sincronizar, ele usa "Exportar pendências" no painel de sincronização e envia o arquivo (.sgp) por
            WhatsApp, e-mail ou cabo. Os registros passam pelas mesmas regras da sincronização; importar o mesmo arquivo de novo não muda nada.
          </p>
          {!online && (
            <p className="aviso-online" role="alert">
              Sem conexão: a importação precisa de internet.
            </p>
          )}
          <Campo rotulo="Arquivo de pendências" erro={erro} ajuda={`Arquivo .sgp exportado pelo aplicativo (até ${LIMITE_PENDENCIAS_MB} MB).`}>
            {(p) => (
              <div className="cupom-campo">
                <label className="botao botao--outline cupom-campo__escolher">
                  <Paperclip size={16} aria-hidden="true" />
                  {escolhido ? 'Trocar arquivo' : 'Escolher arquivo'}
                  <input
                    {...p}
                    key={chaveSeletor}
                    className="sr-only"
                    type="file"
                    accept=".sgp,.txt,.json,application/json,text/plain"
                    disabled={enviando}
                    onChange={(e) => void escolher(e)}
                  />
                </label>
              </div>
            )}
          </Campo>
          {c && escolhido && (
            <section aria-label="Conteúdo do arquivo">
              <h3 style={{ margin: '1rem 0 0.5rem' }}>Conteúdo do arquivo</h3>
              <dl className="importar-pendencias__resumo">
                <dt>Arquivo</dt>
                <dd>
                  {escolhido.arquivo.name} ({formatarBytes(escolhido.arquivo.size)})
                </dd>
                <dt>Funcionário</dt>
                <dd>
                  {c.funcionario.nome} ({c.funcionario.email})
                </dd>
                <dt>Exportado em</dt>
                <dd>{formatarDataHora(c.exportadoEm, fuso) || c.exportadoEm}</dd>
                <dt>Registros</dt>
                <dd>
                  {plural(c.operacoes.length, 'registro', 'registros')}: {resumirPorTipo(c.operacoes)}
                </dd>
                <dt>Comprovantes</dt>
                <dd>{comprovantes}</dd>
                {recusadosNoAparelho > 0 && (
                  <>
                    <dt>Já recusados</dt>
                    <dd>{plural(recusadosNoAparelho, 'registro já foi recusado', 'registros já foram recusados')} pelo servidor no aparelho (serão conferidos de novo)</dd>
                  </>
                )}
              </dl>
              <ul className="lista-sync">
                {c.operacoes.map((op) => (
                  <li key={op.id} className="lista-sync__item">
                    <div>
                      <strong>{op.descricao || op.tipo || `${op.metodo} ${op.caminho}`}</strong>
                      <div className="campo__ajuda">Registrado em {formatarDataHora(op.criadoEm, fuso)}</div>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}

      {resultado && (
        <section aria-label="Resultado da importação">
          <p role="status" style={{ marginTop: 0 }}>
            <strong>
              Pendências de {resultado.funcionario.nome} importadas: {plural(resultado.totais.aceito, 'aceito', 'aceitos')},{' '}
              {plural(resultado.totais.ja_recebido, 'já recebido', 'já recebidos')}, {plural(resultado.totais.recusado, 'recusado', 'recusados')}
              {resultado.totais.retido > 0 && `, ${plural(resultado.totais.retido, 'retido', 'retidos')}`}
              {resultado.totais.nao_processado > 0 && `, ${plural(resultado.totais.nao_processado, 'não processado', 'não processados')}`}.
            </strong>
          </p>
          {(resultado.totais.recusado > 0 || resultado.totais.retido > 0) && (
            <p className="campo__ajuda">Os recusados continuam no celular do funcionário como "precisa de atenção", para ele corrigir ou descartar.</p>
          )}
          <ul className="lista-sync">
            {resultado.itens.map((item) => (
              <li key={item.id} className={`lista-sync__item${item.situacao === 'recusado' ? ' lista-sync__item--erro' : ''}`}>
                <div>
                  <strong>{item.descricao}</strong>
                  {item.mensagem && <div className={item.situacao === 'recusado' ? 'campo__erro' : 'campo__ajuda'}>{item.mensagem}</div>}
                </div>
                <Selo cor={COR_SITUACAO[item.situacao]}>{ROTULO_SITUACAO[item.situacao]}</Selo>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Modal>
  );
}
