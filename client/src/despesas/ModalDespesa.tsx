/**
 * 'Nova Despesa' / 'Editar Despesa' (spec sections 2 and 5). The employee's route is fixed (their
 * active route); the city is typed ahead over the route's cities; the receipt is reduced in the
 * browser when it is a large image and written to IndexedDB with the queued write before the form
 * closes. While the form is open it is kept as a draft (the camera may unload the page).
 */
import { FileText, Paperclip, Trash2, Undo2 } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from '../components/avisos';
import { v7 as uuidv7 } from 'uuid';
import { centavosParaReais, formatarCentavos, formatarReais, lerValorDigitado, reaisParaCentavos } from '../../../shared/money';
import { limiteDiarioCentavos, MULTIPLO_MUITO_ACIMA, textoAcimaDoLimite, textoConfirmeValor } from '../../../shared/politicaDespesas';
import {
  CUPOM_ACEITOS,
  MAXIMO_CUPONS_POR_DESPESA,
  MENSAGEM_CUPONS_DEMAIS,
  despesaCriarSchema,
  despesaEditarSchema,
  ROTULO_TIPO_DESPESA,
  TIPOS_DESPESA,
  type CupomDespesa,
  type TipoDespesa,
} from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { Confirmacao } from '../components/Confirmacao';
import { errosPorCampo } from '../components/errosDeFormulario';
import { camposMudaram, useFecharFormulario } from '../components/fecharFormulario';
import { Modal } from '../components/Modal';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { hojeNoApp } from '../config/configApp';
import { bancoLocal } from '../offline/db';
import { CampoCidade } from './CampoCidade';
import { prepararCupomAceito, tipoDeVisualizacao } from './compressao';
import { CampoNfce } from './nfce/CampoNfce';
import { ehFotoLegivel, lerNfceDaFoto, lerQrDaImagem, type LeitorQr, type LeituraNfce } from './nfce/leitorQr';
import type { DadosDespesaNaFila, DespesaExibida } from './fila';
import { TEXTO_DINHEIRO_REJEITADA } from './apresentacao';
import { atualizarCopiaDoDia, avisosDoLimite, lerDespesasDoDia, type AvisosDoLimite } from './limiteDoDia';
import { cuponsNaFila, enfileirarCorrecao, enfileirarCriacao, enfileirarEdicao, enviarAgora, type AlteracaoCupons, type CupomLocal, type CupomPreparado } from './operacoes';
import { apagarRascunho, salvarRascunho, type FormularioDespesa, type RascunhoDespesa } from './rascunho';
import { useUrlDeBytes, useUrlLocal } from './VisualizadorCupom';
import { EntradaDinheiro } from '../components/EntradaDinheiro';

interface PropsModalDespesa {
  usuario: Usuario;
  /** The employee's active route: its cities, and the route of a new expense. */
  rota: Rota;
  despesa: DespesaExibida | null;
  rascunho: RascunhoDespesa | null;
  aoFechar: () => void;
  /** Reads the QR codes of a photo (tests inject one; the app uses BarcodeDetector, else ZXing). */
  lerQr?: LeitorQr;
}

function formularioInicial(rota: Rota, despesa: DespesaExibida | null): FormularioDespesa {
  if (despesa) {
    return {
      cidade_id: despesa.cidade_id,
      data_despesa: despesa.data_despesa,
      tipo: despesa.tipo,
      tipo_outro: despesa.tipo_outro ?? '',
      valor: despesa.valor.toFixed(2).replace('.', ','),
      descricao: despesa.descricao,
      chave_nfce: despesa.chave_nfce ?? '',
    };
  }
  return { cidade_id: rota.cidades[0]?.id ?? null, data_despesa: hojeNoApp(), tipo: '', tipo_outro: '', valor: '', descricao: '', chave_nfce: '' };
}

const tamanho = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** What saving writes, kept while the daily limit's questions are on screen. */
interface Gravacao {
  dados: Omit<DadosDespesaNaFila, 'cupom'>;
  alteracaoDeCupons: AlteracaoCupons;
}

/** 'acima': the day's meals pass the limit; 'valor': the amount, above 10x the limit, read back in words. */
interface ConfirmacaoPendente {
  etapa: 'acima' | 'valor';
  avisos: AvisosDoLimite;
  gravacao: Gravacao;
}

/** Field names of the shared schema -> the form's fields. */
const CAMPO_DO_ERRO: Record<string, string> = { cidade_id: 'cidade', rota_id: 'rota' };

export function ModalDespesa({ usuario, rota, despesa: despesaInicial, rascunho, aoFechar, lerQr = lerQrDaImagem }: PropsModalDespesa) {
  const despesa = rascunho ? rascunho.editando : despesaInicial;
  const edicao = despesa !== null;
  // A rejected expense is corrected and sent again: back to Pendente when the server takes it.
  const correcao = despesa?.status_aprovacao === 'rejeitada';
  const [id] = useState(() => rascunho?.id ?? despesa?.id ?? uuidv7());
  const [form, setForm] = useState<FormularioDespesa>(() => rascunho?.form ?? formularioInicial(rota, despesa));
  const [formAoAbrir] = useState(form);
  // The receipts chosen in this form (each with its size before reduction), and the server's marked for removal.
  const [novos, setNovos] = useState<{ cupom: CupomPreparado; original: number | null }[]>(() =>
    (rascunho?.cupons ?? (rascunho?.cupom ? [rascunho.cupom] : [])).map((cupom) => ({ cupom, original: null })),
  );
  const [removidos, setRemovidos] = useState<number[]>(rascunho?.removerCupons ?? []);
  // The receipts of this expense still only on the device (its queued items' files), read from the queue; and those marked for removal.
  const [locais, setLocais] = useState<CupomLocal[]>(() =>
    (despesa?.cuponsLocais ?? (despesa?.cupomLocal ? [{ id: despesa.cupomLocal, nome: despesa.cupom_nome ?? 'Comprovante', tipo: despesa.cupom_mime ?? '' }] : [])).map((c) => ({ ...c, tamanho: 0 })),
  );
  const [locaisRemovidos, setLocaisRemovidos] = useState<string[]>(rascunho?.removerLocais ?? []);
  const [excluirCupom, setExcluirCupom] = useState(rascunho?.excluirCupom ?? false);
  const [preparando, setPreparando] = useState(false);
  const cupom = novos[0]?.cupom ?? null;
  const cupons = novos.map((n) => n.cupom);
  const quantidadeNoFormulario =
    (despesa?.cupons ? despesa.cupons.filter((c) => !removidos.includes(c.id)).length : despesa?.cupom_url && !excluirCupom ? 1 : 0) +
    locais.filter((c) => !locaisRemovidos.includes(c.id)).length +
    novos.length;
  const [erros, setErros] = useState<Record<string, string>>({});
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [salvando, setSalvando] = useState(false);
  // The daily limit's questions before saving (shared/politicaDespesas.ts): never a refusal.
  const [confirmacao, setConfirmacao] = useState<ConfirmacaoPendente | null>(null);
  const [verificando, setVerificando] = useState(false);
  const [leituraNfce, setLeituraNfce] = useState<LeituraNfce | null>(null);
  const [lendoNfce, setLendoNfce] = useState(false);
  const [preencheuNfce, setPreencheuNfce] = useState(false);
  const encerrado = useRef(false);
  const temporizadorRascunho = useRef<ReturnType<typeof setTimeout> | null>(null);
  const seletorArquivo = useRef<HTMLInputElement>(null);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();

  const rascunhoAtual = (): RascunhoDespesa => ({ editando: despesa, id, form, cupom, excluirCupom, cupons, removerCupons: removidos, removerLocais: locaisRemovidos });

  // What the queue holds for this expense now (the list's copy may be a moment old).
  useEffect(() => {
    let vivo = true;
    void cuponsNaFila(usuario.id, id).then((lista) => {
      if (vivo) setLocais(lista);
    });
    return () => {
      vivo = false;
    };
  }, [usuario.id, id]);

  // The draft follows every change (debounced); it goes when the form is saved or cancelled.
  useEffect(() => {
    if (encerrado.current) return;
    if (temporizadorRascunho.current) clearTimeout(temporizadorRascunho.current);
    const atual: RascunhoDespesa = { editando: despesa, id, form, cupom, excluirCupom, cupons, removerCupons: removidos, removerLocais: locaisRemovidos };
    temporizadorRascunho.current = setTimeout(() => {
      if (!encerrado.current) void salvarRascunho(usuario.id, atual);
    }, 300);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `cupom` and `cupons` are derived from `novos`
  }, [form, novos, removidos, locaisRemovidos, excluirCupom, despesa, id, usuario.id]);
  useEffect(
    () => () => {
      if (temporizadorRascunho.current) clearTimeout(temporizadorRascunho.current);
    },
    [],
  );

  async function encerrar() {
    encerrado.current = true;
    if (temporizadorRascunho.current) clearTimeout(temporizadorRascunho.current);
    await apagarRascunho(usuario.id);
  }

  // With signal, the day's meals of the route come into the device copy while the form is filled.
  const rotaDaDespesa = despesa?.rota_id ?? rota.id;
  useEffect(() => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(form.data_despesa)) void atualizarCopiaDoDia(bancoLocal, usuario.id, rotaDaDespesa, form.data_despesa);
  }, [usuario.id, rotaDaDespesa, form.data_despesa]);

  // A recovered draft holds what was typed before the page was unloaded: it counts as filled.
  const alterado = rascunho !== null || novos.length > 0 || removidos.length > 0 || excluirCupom || camposMudaram(formAoAbrir, form);
  // Escape reaches this dialog too while a question is open on top of it: only the question closes.
  const { pedirFechar: cancelar, pergunta } = useFecharFormulario({
    alterado,
    bloqueado: salvando || confirmacao !== null,
    aoFechar: () => void encerrar().finally(aoFechar),
  });

  function mudar<K extends keyof FormularioDespesa>(campo: K, valor: FormularioDespesa[K]) {
    setForm((f) => ({ ...f, [campo]: valor }));
    const chaveErro = campo === 'cidade_id' ? 'cidade' : campo;
    if (erros[chaveErro]) setErros(({ [chaveErro]: _, ...resto }) => resto);
  }

  async function escolherArquivo(e: ChangeEvent<HTMLInputElement>) {
    const arquivo = e.target.files?.[0];
    e.target.value = ''; // choosing the same file again still fires
    if (!arquivo) return;
    await aoEscolherComprovante(arquivo);
  }

  /**
   * The one place every picked receipt passes: its NFC-e read from the
   * original photo (the compressor's 800 px would blur the QR), then reduced and added to the list.
   */
  async function aoEscolherComprovante(arquivo: File) {
    if (quantidadeNoFormulario >= MAXIMO_CUPONS_POR_DESPESA) {
      toast.error(MENSAGEM_CUPONS_DEMAIS);
      return;
    }
    setErros(({ cupom: _, ...resto }) => resto);
    setPreparando(true);
    try {
      // A file the server would refuse (too large, or bytes not an image/PDF/DOC) is refused here, before any upload.
      const preparado = await prepararCupomAceito(arquivo);
      if ('recusa' in preparado) {
        setErros((atuais) => ({ ...atuais, cupom: `${arquivo.name}: ${preparado.recusa}` }));
        return;
      }
      if (ehFotoLegivel(arquivo)) void lerNfce(arquivo);
      setNovos((lista) => [...lista, { cupom: preparado.cupom, original: arquivo.size }]);
    } catch (erro) {
      console.error('Erro ao ler o comprovante:', erro);
      toast.error('Não foi possível ler o arquivo escolhido. Tente de novo.');
    } finally {
      setPreparando(false);
    }
  }

  /** The receipt's NFC-e from its QR; a contingency receipt's date and total fill the form. */
  async function lerNfce(arquivo: File) {
    setLendoNfce(true);
    const leitura = await lerNfceDaFoto(arquivo, lerQr);
    setLendoNfce(false);
    // A second photo without the QR (the card slip) does not undo the NFC-e an earlier one gave.
    setLeituraNfce((atual) => (leitura.estado !== 'lida' && atual?.estado === 'lida' ? atual : leitura));
    if (leitura.estado !== 'lida') return;
    const { nfce } = leitura;
    const data = nfce.data && nfce.data <= hojeNoApp() ? nfce.data : undefined;
    const valor = nfce.totalCentavos !== undefined ? formatarReais(centavosParaReais(nfce.totalCentavos)).replace(/^R\$\s/, '') : undefined;
    setForm((f) => ({ ...f, chave_nfce: nfce.chave, ...(data ? { data_despesa: data } : {}), ...(valor ? { valor } : {}) }));
    setPreencheuNfce(data !== undefined || valor !== undefined);
    setErros(({ chave_nfce: _c, ...resto }) => (data || valor ? (({ data_despesa: _d, valor: _v, ...r }) => r)(resto) : resto));
  }

  async function salvar(evento: FormEvent) {
    evento.preventDefault();
    if (salvando || verificando || preparando || lendoNfce) return;
    setErroServidor(null);
    const valor = lerValorDigitado(form.valor);
    const pedido = {
      id,
      rota_id: despesa?.rota_id ?? rota.id,
      cidade_id: form.cidade_id ?? undefined,
      data_despesa: form.data_despesa,
      tipo: form.tipo || undefined,
      tipo_outro: form.tipo_outro,
      valor: form.valor.trim() === '' ? undefined : (valor ?? form.valor),
      descricao: form.descricao,
      chave_nfce: form.chave_nfce,
    };
    const r = edicao ? despesaEditarSchema.safeParse(pedido) : despesaCriarSchema.safeParse(pedido);
    const encontrados: Record<string, string> = {};
    if (!r.success) for (const [campo, msg] of Object.entries(errosPorCampo(r.error))) encontrados[CAMPO_DO_ERRO[campo] ?? campo] ??= msg;
    if (!encontrados.data_despesa && form.data_despesa > hojeNoApp()) encontrados.data_despesa = 'A data da despesa não pode estar no futuro.';
    if (Object.keys(encontrados).length > 0 || !r.success) {
      setErros(encontrados);
      apontarCampoRecusado();
      return;
    }
    const cidade = rota.cidades.find((c) => c.id === form.cidade_id);
    const dados: Omit<DadosDespesaNaFila, 'cupom'> = {
      id,
      rota_id: pedido.rota_id,
      cidade_id: form.cidade_id!,
      data_despesa: form.data_despesa,
      tipo: form.tipo as TipoDespesa,
      tipo_outro: form.tipo === 'outro' ? form.tipo_outro.trim() : '',
      valor: valor!,
      descricao: form.descricao.trim(),
      chave_nfce: r.data.chave_nfce ?? null,
      registrado_em: despesa?.registrado_em ?? new Date().toISOString(),
      rota_nome: despesa?.rota_nome ?? rota.nome,
      cidade_nome: cidade?.nome ?? despesa?.cidade_nome ?? '',
      cidade_uf: cidade?.uf ?? despesa?.cidade_uf ?? '',
      funcionario_nome: usuario.nome,
    };
    // A copy read by an older version has no receipt ids: removing its one receipt is the older 'excluir' (a new file then replaces it).
    const alteracaoDeCupons: AlteracaoCupons =
      despesa && !despesa.cupons && excluirCupom ? { cupom, excluirCupom } : { novos: cupons, removerCupons: removidos, removerLocais: locaisRemovidos };
    const gravacao = { dados, alteracaoDeCupons };
    setVerificando(true);
    let avisos: AvisosDoLimite;
    try {
      const outras = await lerDespesasDoDia(bancoLocal, usuario.id, dados.rota_id, dados.data_despesa, id);
      avisos = avisosDoLimite(rota, { ...dados, valorCentavos: reaisParaCentavos(dados.valor) }, outras);
    } catch (erro) {
      // The device could not be read: the questions are a help, never a reason not to save.
      console.error('Erro ao ler as despesas do dia:', erro);
      avisos = { acima: null, muitoAcima: false };
    } finally {
      setVerificando(false);
    }
    if (avisos.acima) setConfirmacao({ etapa: 'acima', avisos, gravacao });
    else if (avisos.muitoAcima) setConfirmacao({ etapa: 'valor', avisos, gravacao });
    else await gravar(gravacao);
  }

  /** The questions answered: the expense goes to the queue and to the server, as before. */
  async function gravar({ dados, alteracaoDeCupons }: Gravacao) {
    setSalvando(true);
    try {
      const anterior = despesa ? { valor: despesa.valor, tipo: despesa.tipo, data_despesa: despesa.data_despesa } : null;
      const item =
        despesa && anterior
          ? correcao
            ? await enfileirarCorrecao(usuario.id, dados, { ...anterior, motivo_rejeicao: despesa.motivo_rejeicao }, alteracaoDeCupons)
            : await enfileirarEdicao(usuario.id, dados, anterior, alteracaoDeCupons)
          : await enfileirarCriacao(usuario.id, dados, cupons, bancoLocal, locaisRemovidos);
      // From here the saved version is in the queue: the form now shows what it holds, so saving again replaces it, never adds to it.
      setNovos([]);
      setLocaisRemovidos([]);
      setLocais(await cuponsNaFila(usuario.id, id));
      const resultado = await enviarAgora(item.id);
      if (resultado.estado === 'recusado') {
        // It stays queued, refused, under 'Precisam de atenção' in the sync panel: fix it here or there, or discard it there.
        setErroServidor(resultado.erro || 'Erro ao salvar despesa');
        return;
      }
      await encerrar();
      if (resultado.estado === 'enviado') {
        toast.success(correcao ? 'Despesa corrigida e reenviada: ela está Pendente de nova aprovação.' : edicao ? 'Despesa atualizada com sucesso!' : 'Despesa registrada com sucesso!');
      } else {
        const quando = resultado.semSessao ? 'quando você entrar de novo' : correcao ? 'quando houver sinal' : 'assim que houver conexão';
        toast.info(correcao ? `Correção guardada neste aparelho; será enviada ${quando}. A despesa continua Rejeitada até lá.` : `Despesa guardada neste aparelho. Ela será enviada ${quando}.`);
      }
      aoFechar();
    } catch (erro) {
      setErroServidor(mensagemDeErro(erro, 'Erro ao salvar despesa'));
    } finally {
      setSalvando(false);
    }
  }

  function confirmar() {
    if (!confirmacao) return;
    if (confirmacao.etapa === 'acima' && confirmacao.avisos.muitoAcima) {
      setConfirmacao({ ...confirmacao, etapa: 'valor' });
      return;
    }
    setConfirmacao(null);
    void gravar(confirmacao.gravacao);
  }

  const cidadesDaRota = rota.cidades;
  const podeAdicionar = quantidadeNoFormulario < MAXIMO_CUPONS_POR_DESPESA;

  return (
    <Modal
      aberto
      titulo={correcao ? 'Corrigir e reenviar despesa' : edicao ? 'Editar Despesa' : 'Nova Despesa'}
      aoFechar={cancelar}
      erro={erroServidor}
      rodape={
        <>
          <Botao variante="outline" onClick={cancelar} disabled={salvando}>
            Cancelar
          </Botao>
          <Botao type="submit" form="form-despesa" carregando={salvando} disabled={preparando || lendoNfce || verificando}>
            {salvando ? 'Salvando...' : correcao ? 'Reenviar' : edicao ? 'Atualizar' : 'Registrar'}
          </Botao>
        </>
      }
    >
      <form id="form-despesa" ref={raiz} onSubmit={salvar} noValidate>
        {rascunho && (
          <div className="alerta alerta--info" role="status">
            Recuperamos o formulário que você estava preenchendo.
          </div>
        )}
        {correcao && despesa && (
          <div className="alerta alerta--erro">
            <strong>Rejeitada:</strong> {despesa.motivo_rejeicao || 'sem motivo informado.'}
            <p className="modal-despesa__dinheiro">{TEXTO_DINHEIRO_REJEITADA(formatarReais(despesa.valor))}</p>
          </div>
        )}
        <Campo rotulo="Rota" obrigatorio={edicao} erro={erros.rota}>
          {(p) => (
            <select {...p} className="selecao" value={despesa?.rota_id ?? rota.id} disabled>
              <option value={despesa?.rota_id ?? rota.id}>{despesa?.rota_nome ?? rota.nome}</option>
            </select>
          )}
        </Campo>
        <Campo rotulo="Cidade" obrigatorio erro={erros.cidade}>
          {(p) => <CampoCidade controle={p} cidades={cidadesDaRota} valor={form.cidade_id} aoMudar={(c) => mudar('cidade_id', c)} desabilitado={salvando} />}
        </Campo>
        <div className="linha-campos">
          <Campo rotulo="Data da Despesa" obrigatorio erro={erros.data_despesa}>
            {(p) => <input {...p} className="entrada" type="date" max={hojeNoApp()} value={form.data_despesa} onChange={(e) => mudar('data_despesa', e.target.value)} />}
          </Campo>
          <Campo rotulo="Tipo de Despesa" obrigatorio erro={erros.tipo}>
            {(p) => (
              <select {...p} className="selecao" value={form.tipo} onChange={(e) => mudar('tipo', e.target.value as TipoDespesa | '')}>
                <option value="">Selecione o tipo</option>
                {TIPOS_DESPESA.map((t) => (
                  <option key={t} value={t}>
                    {ROTULO_TIPO_DESPESA[t]}
                  </option>
                ))}
              </select>
            )}
          </Campo>
        </div>
        {form.tipo === 'outro' && (
          <Campo rotulo="Especificar Tipo" obrigatorio erro={erros.tipo_outro}>
            {(p) => <input {...p} className="entrada" placeholder="Ex.: Lavanderia" value={form.tipo_outro} onChange={(e) => mudar('tipo_outro', e.target.value)} />}
          </Campo>
        )}
        <Campo rotulo="Valor (R$)" obrigatorio erro={erros.valor}>
          {(p) => (
            <EntradaDinheiro
              {...p}
              valor={form.valor}
              aoMudar={(texto) => mudar('valor', texto)}
              onBlur={() => {
                const v = lerValorDigitado(form.valor);
                if (v !== null && form.valor.trim() !== '') mudar('valor', formatarReais(v).replace(/^R\$\s/, ''));
              }}
            />
          )}
        </Campo>
        <Campo rotulo="Descrição" erro={erros.descricao}>
          {(p) => <textarea {...p} className="area-texto" rows={3} value={form.descricao} onChange={(e) => mudar('descricao', e.target.value)} />}
        </Campo>
        <Campo
          rotulo="Cupom/Comprovante"
          erro={erros.cupom}
          ajuda="Foto (JPG, PNG, WEBP, HEIC), PDF, DOC ou DOCX. Fotos acima de 1 MB são reduzidas antes do envio."
        >
          {(p) => (
            <div className="cupom-campo">
              {(quantidadeNoFormulario > 0 || locais.length > 0 || (despesa?.cupons?.length ?? 0) > 0 || (despesa?.cupom_url ?? null) !== null) && (
                <ul className="cupom-lista" aria-label="Comprovantes desta despesa">
                  {despesa && !despesa.cupons && despesa.cupom_url !== null && (
                    <li>
                      <CupomAtual despesa={despesa} excluir={excluirCupom} aoExcluir={() => setExcluirCupom(true)} aoDesfazer={() => setExcluirCupom(false)} />
                    </li>
                  )}
                  {(despesa?.cupons ?? []).map((c) => (
                    <li key={`servidor-${c.id}`}>
                      <CupomDoServidor
                        cupom={c}
                        removido={removidos.includes(c.id)}
                        aoRemover={() => setRemovidos((r) => [...r, c.id])}
                        aoDesfazer={() => setRemovidos((r) => r.filter((x) => x !== c.id))}
                      />
                    </li>
                  ))}
                  {locais.map((c) => (
                    <li key={`local-${c.id}`}>
                      <CupomNaFilaDoAparelho
                        cupom={c}
                        removido={locaisRemovidos.includes(c.id)}
                        aoRemover={() => setLocaisRemovidos((r) => [...r, c.id])}
                        aoDesfazer={() => setLocaisRemovidos((r) => r.filter((x) => x !== c.id))}
                      />
                    </li>
                  ))}
                  {novos.map((n, i) => (
                    <li key={`novo-${i}`}>
                      <CupomEscolhido
                        cupom={n.cupom}
                        original={n.original}
                        aoRemover={() => setNovos((lista) => lista.filter((_, j) => j !== i))}
                      />
                    </li>
                  ))}
                </ul>
              )}
              <label className={`botao botao--outline cupom-campo__escolher${podeAdicionar ? '' : ' botao--desabilitado'}`}>
                <Paperclip size={16} aria-hidden="true" />
                {preparando ? 'Preparando o arquivo...' : 'Adicionar comprovante'}
                <input
                  {...p}
                  ref={seletorArquivo}
                  className="sr-only"
                  type="file"
                  accept={CUPOM_ACEITOS}
                  disabled={preparando || salvando || !podeAdicionar}
                  // Android may unload the page while the camera or the chooser is open: keep the form now.
                  onClick={() => void salvarRascunho(usuario.id, rascunhoAtual())}
                  onChange={(e) => void escolherArquivo(e)}
                />
              </label>
              <span className="campo__ajuda" aria-live="polite">
                {podeAdicionar
                  ? `${quantidadeNoFormulario} de ${MAXIMO_CUPONS_POR_DESPESA} comprovantes (ex.: a NFC-e e o comprovante do cartão).`
                  : `Limite de ${MAXIMO_CUPONS_POR_DESPESA} comprovantes atingido: remova algum para adicionar outro.`}
              </span>
            </div>
          )}
        </Campo>
        <CampoNfce
          valor={form.chave_nfce}
          erro={erros.chave_nfce}
          aoMudar={(texto) => mudar('chave_nfce', texto)}
          aoValidar={(erro) => setErros(({ chave_nfce: _, ...resto }) => (erro ? { ...resto, chave_nfce: erro } : resto))}
          leitura={leituraNfce}
          lendo={lendoNfce}
          preencheu={preencheuNfce}
          desabilitado={salvando}
        />
      </form>
      {confirmacao && (
        <Confirmacao
          aberto
          titulo={confirmacao.etapa === 'acima' ? 'Acima do limite diário' : 'Confirme o valor'}
          mensagem={
            confirmacao.etapa === 'acima' && confirmacao.avisos.acima
              ? `${textoAcimaDoLimite(confirmacao.gravacao.dados.data_despesa, confirmacao.avisos.acima)} Deseja salvar mesmo assim?`
              : `${textoConfirmeValor(reaisParaCentavos(confirmacao.gravacao.dados.valor))}. Ele é mais de ${MULTIPLO_MUITO_ACIMA} vezes o limite diário de ${formatarCentavos(limiteDiarioCentavos(rota))}: confira antes de salvar.`
          }
          textoConfirmar={confirmacao.etapa === 'acima' ? 'Salvar mesmo assim' : 'O valor está certo'}
          textoCancelar={confirmacao.etapa === 'acima' ? 'Voltar ao formulário' : 'Corrigir o valor'}
          varianteConfirmar="orange"
          aoConfirmar={confirmar}
          aoCancelar={() => setConfirmacao(null)}
        />
      )}
      {pergunta}
    </Modal>
  );
}

function PreviaImagem({ url, nome }: { url: string; nome: string }) {
  return <img className="cupom-previa__imagem" src={url} alt={`Prévia do comprovante ${nome}`} />;
}

function CupomAtual({ despesa, excluir, aoExcluir, aoDesfazer }: { despesa: DespesaExibida; excluir: boolean; aoExcluir: () => void; aoDesfazer: () => void }) {
  const local = useUrlLocal(despesa.cupomLocal);
  const url = despesa.cupomLocal ? local.url : despesa.cupom_url;
  const tipo = tipoDeVisualizacao(despesa.cupom_mime, despesa.cupom_nome);
  const nome = despesa.cupom_nome ?? 'Comprovante';
  if (excluir) {
    return (
      <div className="cupom-previa cupom-previa--excluido">
        <span>O comprovante será excluído ao salvar.</span>
        <Botao tamanho="sm" variante="outline" icone={<Undo2 size={15} />} onClick={aoDesfazer}>
          Desfazer
        </Botao>
      </div>
    );
  }
  return (
    <div className="cupom-previa">
      {url && tipo === 'imagem' ? (
        <PreviaImagem url={url} nome={nome} />
      ) : url && tipo === 'pdf' ? (
        <a className="cupom-previa__link" href={url} target="_blank" rel="noopener">
          <FileText size={18} aria-hidden="true" /> Ver PDF
        </a>
      ) : (
        <span className="cupom-previa__nome">
          <FileText size={18} aria-hidden="true" /> {nome}
        </span>
      )}
      <Botao tamanho="sm" variante="danger" icone={<Trash2 size={15} />} onClick={aoExcluir} aria-label="Excluir comprovante" className="botao--icone-no-celular">
        Excluir
      </Botao>
    </div>
  );
}

/** A receipt the server has: its thumbnail, name and size, and 'Remover' (undone before saving). */
function CupomDoServidor({ cupom, removido, aoRemover, aoDesfazer }: { cupom: CupomDespesa; removido: boolean; aoRemover: () => void; aoDesfazer: () => void }) {
  const tipo = tipoDeVisualizacao(cupom.mime, cupom.nome);
  if (removido) {
    return (
      <div className="cupom-previa cupom-previa--excluido">
        <span>{cupom.nome} será removido ao salvar.</span>
        <Botao tamanho="sm" variante="outline" icone={<Undo2 size={15} />} onClick={aoDesfazer} aria-label={`Desfazer a remoção de ${cupom.nome}`}>
          Desfazer
        </Botao>
      </div>
    );
  }
  return (
    <div className="cupom-previa">
      {tipo === 'imagem' ? <PreviaImagem url={cupom.url} nome={cupom.nome} /> : <FileText className="cupom-previa__icone" size={28} aria-hidden="true" />}
      <div className="cupom-previa__info">
        <span className="cupom-previa__nome">{cupom.nome}</span>
        <span className="campo__ajuda">{tamanho(cupom.tamanho)}</span>
      </div>
      <Botao tamanho="sm" variante="outline" icone={<Trash2 size={15} />} onClick={aoRemover} aria-label={`Remover ${cupom.nome}`} className="botao--icone-no-celular">
        Remover
      </Botao>
    </div>
  );
}

/**
 * A receipt of this expense still only on the device (its create or change waits in the queue, or
 * was refused): 'Remover' takes it out of the queued item when the form is saved, never before.
 */
function CupomNaFilaDoAparelho({ cupom, removido, aoRemover, aoDesfazer }: { cupom: CupomLocal; removido: boolean; aoRemover: () => void; aoDesfazer: () => void }) {
  const { nome } = cupom;
  const { url } = useUrlLocal(cupom.id);
  const tipo = tipoDeVisualizacao(cupom.tipo, nome);
  if (removido) {
    return (
      <div className="cupom-previa cupom-previa--excluido">
        <span>{nome} será removido ao salvar.</span>
        <Botao tamanho="sm" variante="outline" icone={<Undo2 size={15} />} onClick={aoDesfazer} aria-label={`Desfazer a remoção de ${nome}`}>
          Desfazer
        </Botao>
      </div>
    );
  }
  return (
    <div className="cupom-previa">
      {url && tipo === 'imagem' ? <PreviaImagem url={url} nome={nome} /> : <FileText className="cupom-previa__icone" size={28} aria-hidden="true" />}
      <div className="cupom-previa__info">
        <span className="cupom-previa__nome">{nome}</span>
        <span className="campo__ajuda">
          {cupom.tamanho > 0 && `${tamanho(cupom.tamanho)} · `}Aguardando envio neste aparelho
        </span>
      </div>
      <Botao tamanho="sm" variante="outline" icone={<Trash2 size={15} />} onClick={aoRemover} aria-label={`Remover ${nome}`} className="botao--icone-no-celular">
        Remover
      </Botao>
    </div>
  );
}

function CupomEscolhido({ cupom, original, aoRemover }: { cupom: CupomPreparado; original: number | null; aoRemover: () => void }) {
  const url = useUrlDeBytes(cupom);
  const tipo = tipoDeVisualizacao(cupom.tipo, cupom.nome);
  const reduzido = original !== null && original > cupom.conteudo.byteLength;
  return (
    <div className="cupom-previa">
      {url && tipo === 'imagem' ? <PreviaImagem url={url} nome={cupom.nome} /> : <FileText className="cupom-previa__icone" size={28} aria-hidden="true" />}
      <div className="cupom-previa__info">
        <span className="cupom-previa__nome">{cupom.nome}</span>
        <span className="campo__ajuda">
          {tamanho(cupom.conteudo.byteLength)}
          {reduzido && ` (reduzida de ${tamanho(original)})`}
        </span>
        {url && tipo === 'pdf' && (
          <a className="cupom-previa__link" href={url} target="_blank" rel="noopener">
            <FileText size={16} aria-hidden="true" /> Ver PDF
          </a>
        )}
      </div>
      <Botao tamanho="sm" variante="outline" icone={<Trash2 size={15} />} onClick={aoRemover} aria-label={`Remover ${cupom.nome}`} className="botao--icone-no-celular">
        Remover
      </Botao>
    </div>
  );
}
