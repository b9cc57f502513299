/**
 * Crediting an employee's balance: the 'Adicionar Saldo' modal of the Saldo page (route required,
 * auto-chosen when there is exactly one) and, with `rotaObrigatoria={false}`, the admin dashboard's
 * balance modal (route optional, 'Sem rota específica', first active route preselected). Success
 * shows 'Saldo adicionado com sucesso!', clears the form and closes after 1.5 s (spec sections 4 and 5).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { formatarReais, lerValorDigitado } from '../../../shared/money';
import { adicionarSaldoSchema, DESCRICAO_PADRAO_SALDO } from '../../../shared/schemas/saldo';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { errosPorCampo } from '../components/errosDeFormulario';
import { camposMudaram, useFecharFormulario } from '../components/fecharFormulario';
import { Modal } from '../components/Modal';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { useAdicionarSaldo, useFuncionariosComSaldo, useRotasAtivasDoFuncionario } from './consultas';
import { EntradaDinheiro } from '../components/EntradaDinheiro';

export const PAUSA_ANTES_DE_FECHAR_MS = 1500;

export interface MensagensMovimentacao {
  erroSalvar: string;
  erroFuncionarios: string;
  erroRotas: string;
}

/** Spec section 8: the Saldo page's texts; the dashboard passes its own. */
export const MENSAGENS_PAGINA_SALDO: MensagensMovimentacao = {
  erroSalvar: 'Erro ao adicionar saldo',
  erroFuncionarios: 'Erro ao carregar lista de funcionários',
  erroRotas: 'Erro ao buscar rotas do funcionário',
};

export const MENSAGENS_PAINEL: MensagensMovimentacao = {
  erroSalvar: 'Erro ao processar movimentação de saldo',
  erroFuncionarios: 'Erro ao carregar lista de funcionários',
  erroRotas: 'Erro ao buscar rotas do funcionário',
};

interface PropsModal {
  aberto: boolean;
  aoFechar: () => void;
  /** Runs after a success, when the modal closes: refresh the screen behind it. */
  aoConcluir?: () => void;
  /** True on the Saldo page; false on the dashboard ('Sem rota específica'). */
  rotaObrigatoria?: boolean;
  titulo?: string;
  mensagens?: MensagensMovimentacao;
}

interface Formulario {
  funcionario: string;
  valor: string;
  descricao: string;
  /** null until the person picks one: the automatic choice applies. */
  rota: string | null;
}

const VAZIO: Formulario = { funcionario: '', valor: '', descricao: DESCRICAO_PADRAO_SALDO, rota: null };

export function ModalMovimentacaoSaldo({
  aberto,
  aoFechar,
  aoConcluir,
  rotaObrigatoria = true,
  titulo = 'Adicionar Saldo',
  mensagens = rotaObrigatoria ? MENSAGENS_PAGINA_SALDO : MENSAGENS_PAINEL,
}: PropsModal) {
  const [form, setForm] = useState<Formulario>(VAZIO);
  const [erros, setErros] = useState<Record<string, string>>({});
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [sucesso, setSucesso] = useState<string | null>(null);
  const funcionarios = useFuncionariosComSaldo(aberto);
  const funcionarioId = form.funcionario ? Number(form.funcionario) : null;
  const rotas = useRotasAtivasDoFuncionario(aberto ? funcionarioId : null);
  const adicionar = useAdicionarSaldo();
  const temporizador = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();
  const listaRotas = funcionarioId !== null ? (rotas.data ?? []) : [];
  const semRotaAtiva = funcionarioId !== null && rotas.isSuccess && listaRotas.length === 0;
  // Exactly one active route is chosen for the person (Saldo page); the dashboard preselects the first.
  const rotaAutomatica = rotaObrigatoria ? (listaRotas.length === 1 ? listaRotas[0] : undefined) : listaRotas[0];
  const rota = form.rota ?? (rotaAutomatica ? String(rotaAutomatica.id) : '');

  useEffect(() => () => {
    if (temporizador.current) clearTimeout(temporizador.current);
  }, []);

  function mudar<K extends keyof Formulario>(campo: K, valor: Formulario[K]) {
    setForm((f) => ({ ...f, [campo]: valor, ...(campo === 'funcionario' ? { rota: null } : {}) }));
    if (erros[campo]) setErros(({ [campo]: _, ...resto }) => resto);
  }

  function fechar() {
    if (temporizador.current) clearTimeout(temporizador.current);
    setForm(VAZIO);
    setErros({});
    setErroServidor(null);
    setSucesso(null);
    aoFechar();
  }
  // After 'Saldo adicionado' the form is empty again: closing then never asks.
  const { pedirFechar, pergunta } = useFecharFormulario({ alterado: sucesso === null && camposMudaram(VAZIO, form), bloqueado: adicionar.isPending, aoFechar: fechar });

  async function salvar(evento: FormEvent) {
    evento.preventDefault();
    setErroServidor(null);
    const valor = lerValorDigitado(form.valor);
    const pedido = {
      funcionario_id: form.funcionario,
      valor: form.valor.trim() === '' ? undefined : (valor ?? form.valor),
      descricao: form.descricao,
      rota_id: rota || null,
    };
    const r = adicionarSaldoSchema.safeParse(pedido);
    const encontrados = r.success ? {} : errosPorCampo(r.error);
    if (rotaObrigatoria && !rota) encontrados.rota_id = semRotaAtiva ? 'Funcionário não possui rota ativa' : 'Rota é obrigatória.';
    if (Object.keys(encontrados).length > 0) {
      setErros({
        ...(encontrados.funcionario_id ? { funcionario: encontrados.funcionario_id } : {}),
        ...(encontrados.valor ? { valor: encontrados.valor } : {}),
        ...(encontrados.descricao ? { descricao: encontrados.descricao } : {}),
        ...(encontrados.rota_id ? { rota: encontrados.rota_id } : {}),
      });
      apontarCampoRecusado();
      return;
    }
    try {
      await adicionar.mutateAsync({ funcionario_id: Number(form.funcionario), valor: valor!, descricao: form.descricao.trim() || DESCRICAO_PADRAO_SALDO, rota_id: rota ? Number(rota) : null });
      setSucesso('Saldo adicionado com sucesso!');
      setForm(VAZIO);
      temporizador.current = setTimeout(() => {
        fechar();
        aoConcluir?.();
      }, PAUSA_ANTES_DE_FECHAR_MS);
    } catch (erro) {
      setErroServidor(mensagemDeErro(erro, mensagens.erroSalvar));
    }
  }

  const bloqueado = adicionar.isPending || sucesso !== null;
  return (
    <Modal
      aberto={aberto}
      titulo={titulo}
      aoFechar={pedirFechar}
      erro={erroServidor}
      rodape={
        <>
          <Botao variante="outline" onClick={pedirFechar} disabled={adicionar.isPending}>
            Cancelar
          </Botao>
          <Botao type="submit" form="form-saldo" variante="secondary" carregando={adicionar.isPending} disabled={bloqueado || (rotaObrigatoria && !rota)}>
            {adicionar.isPending ? 'Salvando...' : 'Adicionar Saldo'}
          </Botao>
        </>
      }
    >
      <form id="form-saldo" ref={raiz} onSubmit={salvar} noValidate>
        {sucesso && (
          <div className="alerta alerta--sucesso" role="status">
            {sucesso}
          </div>
        )}
        {funcionarios.isError && (
          <div className="alerta alerta--erro" role="alert">
            {mensagens.erroFuncionarios}
          </div>
        )}
        <Campo rotulo="Funcionário" obrigatorio erro={erros.funcionario}>
          {(p) => (
            <select {...p} className="selecao" value={form.funcionario} onChange={(e) => mudar('funcionario', e.target.value)} disabled={bloqueado}>
              <option value="">{funcionarios.isLoading ? 'Carregando...' : 'Selecione um funcionário'}</option>
              {(funcionarios.data ?? []).map((f) => (
                <option key={f.id} value={f.id}>
                  {f.nome} — {formatarReais(f.saldo_atual)}
                </option>
              ))}
            </select>
          )}
        </Campo>
        <Campo rotulo="Valor (R$)" obrigatorio erro={erros.valor} ajuda="Use vírgula para os centavos, por exemplo 150,00.">
          {(p) => (
            <EntradaDinheiro {...p} valor={form.valor} aoMudar={(texto) => mudar('valor', texto)} disabled={bloqueado} />
          )}
        </Campo>
        <Campo rotulo="Descrição" erro={erros.descricao}>
          {(p) => <input {...p} className="entrada" value={form.descricao} onChange={(e) => mudar('descricao', e.target.value)} disabled={bloqueado} />}
        </Campo>
        <Campo
          rotulo="Rota"
          obrigatorio={rotaObrigatoria}
          erro={erros.rota ?? (rotas.isError ? mensagens.erroRotas : semRotaAtiva && rotaObrigatoria ? 'Funcionário não possui rota ativa' : undefined)}
          ajuda={funcionarioId === null ? 'Escolha o funcionário para ver as rotas ativas.' : semRotaAtiva ? 'Funcionário não possui rota ativa' : undefined}
        >
          {(p) => (
            <select {...p} className="selecao" value={rota} onChange={(e) => mudar('rota', e.target.value)} disabled={bloqueado || funcionarioId === null || rotas.isLoading}>
              {rotaObrigatoria ? (
                <option value="">{rotas.isLoading ? 'Carregando...' : semRotaAtiva ? 'Funcionário não possui rota ativa' : 'Selecione a rota'}</option>
              ) : (
                <option value="">Sem rota específica</option>
              )}
              {listaRotas.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.nome}
                </option>
              ))}
            </select>
          )}
        </Campo>
      </form>
      {pergunta}
    </Modal>
  );
}
