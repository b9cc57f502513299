/**
 * 'Pronto para viajar' (docs/decisions/copias-do-aparelho.md, 'Pronto para viajar'): the employee's
 * dashboard says what this phone holds for a day
 * without signal, item by item, and offers ONE action that refreshes all of it while there is signal.
 * The list reads only the device (IndexedDB, navigator.storage), so it works offline too.
 * With signal the app fetches the copies by itself (preparo.ts): the card shows that work
 * and its progress, and raises an alarm only for what the app cannot fix.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { AlertTriangle, CheckCircle2, ChevronDown, Loader2, Luggage, RefreshCw, WifiOff, XCircle } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { formatarHora } from '../../../shared/dates';
import { Botao } from '../components/Botao';
import { useOnline } from '../components/useOnline';
import { fusoDoApp, hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { pedirArmazenamentoPersistente } from '../pwa/armazenamento';
import { lerArmazenamento, lerCopiasDoAparelho, type Armazenamento, type ResultadoAtualizacao } from './dadosDaViagem';
import { preparo, useEstadoPreparo } from './preparo';
import { montarChecklist, resumirChecklist, type EstadoItemViagem } from './prontoParaViajar';
import './prontoParaViajar.css';

const ICONE: Record<EstadoItemViagem, typeof CheckCircle2> = { ok: CheckCircle2, preparando: Loader2, aviso: AlertTriangle, falta: XCircle };
/** Said before each line to screen readers: the colour and icon say it to the eye. */
const ESTADO_FALADO: Record<EstadoItemViagem, string> = { ok: 'Pronto', preparando: 'Baixando', aviso: 'Conferir', falta: 'Falta' };

/**
 * The clock the ages are counted from: read every minute ('atualizado há 5 minutos' keeps counting
 * while the card is open) and whenever the device is measured again.
 */
function useAgora(): [number, (agora: number) => void] {
  const [agora, setAgora] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setAgora(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return [agora, setAgora];
}

function textoDoResultado(r: ResultadoAtualizacao): string {
  const hora = formatarHora(r.em, fusoDoApp());
  if (r.falhas.length === 0) return `Tudo atualizado às ${hora}.`;
  const lista = r.falhas.join(', ');
  return r.semConexao ? `A conexão caiu: não foi possível atualizar ${lista}. Tente de novo com sinal.` : `Não foi possível atualizar ${lista}. Tente de novo.`;
}

interface PropsCartao {
  usuarioId: number;
  /**
   * The screen's last read could not reach the server (its data came from the device).
   * navigator.onLine alone is not enough: it says true on a signal that carries no data.
   */
  semServidor?: boolean;
}

export function CartaoProntoParaViajar({ usuarioId, semServidor = false }: PropsCartao) {
  const idTitulo = useId();
  const idLista = useId();
  const queryClient = useQueryClient();
  const semConexao = !useOnline() || semServidor;
  const [agora, setAgora] = useAgora();
  const hoje = hojeNoApp();
  const copias = useLiveQuery(() => lerCopiasDoAparelho(bancoLocal, usuarioId, hoje), [usuarioId, hoje]);
  const [armazenamento, setArmazenamento] = useState<Armazenamento | null>(null);
  const estadoPreparo = useEstadoPreparo();
  const doUsuario = estadoPreparo.usuarioId === usuarioId;
  const atualizando = doUsuario && estadoPreparo.rodando;
  const resultado = doUsuario ? estadoPreparo.ultimo : null;
  // Before the first run ends, with signal, the app is about to fetch: not an alarm yet.
  const preparando = atualizando || (!semConexao && resultado === null);
  /** null: open while something is missing, closed when all is ready; then the person's choice. */
  const [aberto, setAberto] = useState<boolean | null>(null);

  const medir = useCallback(
    () =>
      void lerArmazenamento().then((a) => {
        setArmazenamento(a);
        setAgora(Date.now());
      }),
    [setAgora],
  );
  // Re-measured when the device's data changes (a receipt saved, copies refreshed).
  useEffect(medir, [medir, copias]);

  const itens = useMemo(
    () => (copias && armazenamento ? montarChecklist({ ...copias, ...armazenamento }, agora, { comSinal: !semConexao, preparando }) : null),
    [copias, armazenamento, agora, semConexao, preparando],
  );
  const resumo = itens && resumirChecklist(itens);
  const listaAberta = aberto ?? (resumo ? !resumo.pronto : false);

  async function atualizar() {
    try {
      await preparo.preparar({
        banco: bancoLocal,
        usuarioId,
        hoje,
        queryClient,
        sincronizar: () => motorSync.sincronizarAgora({ ignorarEspera: true }),
        pedirPersistencia: pedirArmazenamentoPersistente,
      });
    } finally {
      medir();
    }
  }

  const estadoGeral: EstadoItemViagem = !resumo
    ? 'preparando'
    : resumo.pronto
      ? 'ok'
      : resumo.faltam > 0
        ? 'falta'
        : resumo.preparando > 0
          ? 'preparando'
          : 'aviso';
  const progresso = atualizando && estadoPreparo.total > 0 ? { feitos: estadoPreparo.feitos, total: estadoPreparo.total } : null;
  const IconeGeral = resumo?.pronto ? CheckCircle2 : Luggage;
  return (
    <section className={`cartao viagem viagem--${estadoGeral}`} aria-labelledby={idTitulo}>
      <div className="viagem__topo">
        <span className={`viagem__selo viagem__selo--${estadoGeral}`} aria-hidden="true">
          <IconeGeral size={24} />
        </span>
        <h2 className="viagem__titulo" id={idTitulo}>
          Pronto para viajar
        </h2>
        <p className="viagem__resumo" role="status" data-testid="viagem-resumo">
          {resumo ? resumo.texto : 'Conferindo o aparelho...'}
          {progresso && <span className="viagem__progresso-texto">{` (${progresso.feitos} de ${progresso.total})`}</span>}
        </p>
        {progresso && (
          <span
            className="progresso viagem__progresso"
            role="progressbar"
            aria-label="Baixando os dados para trabalhar sem sinal"
            aria-valuemin={0}
            aria-valuemax={progresso.total}
            aria-valuenow={progresso.feitos}
          >
            <span className="progresso__barra" style={{ width: `${Math.min(100, (progresso.feitos / progresso.total) * 100)}%` }} />
          </span>
        )}
        {itens && (
          <button type="button" className="viagem__alternar" aria-expanded={listaAberta} aria-controls={idLista} onClick={() => setAberto(!listaAberta)}>
            {listaAberta ? 'Ocultar' : 'Ver itens'}
            <ChevronDown size={18} aria-hidden="true" className={listaAberta ? 'girado' : undefined} />
          </button>
        )}
      </div>

      {itens && listaAberta && (
        <ul className="viagem__lista" id={idLista} aria-label="Itens para trabalhar sem sinal">
          {itens.map((item) => {
            const Icone = ICONE[item.estado];
            return (
              <li key={item.id} className={`viagem__item viagem__item--${item.estado}`} data-item={item.id} data-estado={item.estado}>
                <Icone size={22} className="viagem__icone" aria-hidden="true" />
                <span className="viagem__textos">
                  <span className="sr-only">{ESTADO_FALADO[item.estado]}: </span>
                  <strong className="viagem__item-titulo">{item.titulo}</strong>
                  {item.detalhe && <span className="viagem__item-detalhe">{item.detalhe}</span>}
                </span>
              </li>
            );
          })}
        </ul>
      )}

      <div className="viagem__acao">
        <Botao bloco tamanho="lg" icone={<RefreshCw size={18} />} onClick={() => void atualizar()} disabled={semConexao} carregando={atualizando}>
          {atualizando ? 'Atualizando...' : 'Atualizar tudo'}
        </Botao>
        {semConexao && (
          <p className="viagem__nota viagem__nota--offline">
            <WifiOff size={16} aria-hidden="true" /> Sem conexão: conecte-se para atualizar
          </p>
        )}
        {!semConexao && resultado && (
          <p className={`viagem__nota ${resultado.falhas.length ? 'viagem__nota--erro' : 'viagem__nota--ok'}`} role="status" data-testid="viagem-resultado">
            {textoDoResultado(resultado)}
          </p>
        )}
      </div>
    </section>
  );
}
