/** Small pieces shared by the expense list, the phone cards and the details modal. */
import { AlertTriangle, CloudUpload } from 'lucide-react';
import { reaisParaCentavos } from '../../../shared/money';
import { rotuloAcimaDoLimite } from '../../../shared/politicaDespesas';
import { ROTULO_STATUS_APROVACAO, nomeDoTipo, type Despesa } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { Selo } from '../components/Selo';
import { rotuloCidade } from './CampoCidade';
import { quantidadeDeCupons, type DespesaExibida } from './fila';

export const tipoDaDespesa = (d: Pick<Despesa, 'tipo' | 'tipo_outro'>) => nomeDoTipo(d.tipo, d.tipo_outro);
export const cidadeDaDespesa = (d: Pick<Despesa, 'cidade_nome' | 'cidade_uf'>) => (d.cidade_nome ? rotuloCidade({ nome: d.cidade_nome, uf: d.cidade_uf }) : '');

/**
 * Spec section 4: Aprovada if aprovada, Rejeitada (reason as tooltip) if rejeitada, else Pendente.
 * This is the admin's approval; whether the phone sent it is SeloEnvio.
 */
export function SeloStatus({ despesa }: { despesa: Pick<Despesa, 'aprovada' | 'rejeitada' | 'motivo_rejeicao' | 'status_aprovacao'> }) {
  if (despesa.aprovada) return <Selo cor="verde">{ROTULO_STATUS_APROVACAO.aprovada}</Selo>;
  if (despesa.rejeitada) {
    return (
      <Selo cor="vermelho" title={despesa.motivo_rejeicao ? `Motivo: ${despesa.motivo_rejeicao}` : undefined}>
        {ROTULO_STATUS_APROVACAO.rejeitada}
      </Selo>
    );
  }
  return <Selo cor="amarelo">{ROTULO_STATUS_APROVACAO.pendente}</Selo>;
}

/**
 * The admin's flag on a meal of a day above its route's daily limit, as the server computed it
 * (shared/politicaDespesas.ts): 'Acima do limite diário (R$ 180,00)'.
 */
export function SeloLimite({ despesa }: { despesa: Pick<Despesa, 'acima_do_limite' | 'limite_diario'> }) {
  if (!despesa.acima_do_limite || despesa.limite_diario === undefined) return null;
  return (
    <span className="selo-limite">
      <Selo cor="laranja" title="A alimentação deste dia, nesta rota, passa do limite diário.">
        <AlertTriangle size={12} aria-hidden="true" /> {rotuloAcimaDoLimite(reaisParaCentavos(despesa.limite_diario))}
      </Selo>
    </span>
  );
}

/** 'Aguardando envio' while the change waits on this device; 'Precisa de atenção' when refused. */
export function SeloEnvio({ despesa }: { despesa: DespesaExibida }) {
  if (!despesa.envio) return null;
  const corrigindo = despesa.envio.operacao === 'corrigir';
  if (despesa.envio.estado === 'erro') {
    return (
      <Selo cor="vermelho" title={despesa.envio.erro ?? undefined}>
        <AlertTriangle size={12} aria-hidden="true" /> Precisa de atenção
      </Selo>
    );
  }
  return (
    <Selo cor="azul" title="Guardada neste aparelho; será enviada quando houver conexão.">
      <CloudUpload size={12} aria-hidden="true" /> {corrigindo ? 'Correção aguardando envio' : 'Aguardando envio'}
    </Selo>
  );
}

export const temCupom = (d: DespesaExibida) => d.cupom_url !== null || d.cupomLocal !== null || quantidadeDeCupons(d) > 0;

/** 'Visualizar' or, with several receipts, 'Visualizar (3)'. */
export const textoVerCupons = (d: DespesaExibida) => (quantidadeDeCupons(d) > 1 ? `Visualizar (${quantidadeDeCupons(d)})` : 'Visualizar');

/**
 * The two states side by side, each with its name, so 'Pendente' (the admin has not decided) and
 * 'Aguardando envio' (still only on this phone) never read as the same thing.
 */
export function SelosDespesa({ despesa, soAprovacao = false }: { despesa: DespesaExibida; soAprovacao?: boolean }) {
  return (
    <>
      <span className="selos__grupo">
        {/* The admin's table has approval only (nothing of theirs waits to be sent): no label to tell two states apart. */}
        {!soAprovacao && <span className="selos__rotulo">Aprovação</span>}
        <SeloStatus despesa={despesa} />
      </span>
      {despesa.envio && (
        <span className="selos__grupo">
          <span className="selos__rotulo">Envio</span>
          <SeloEnvio despesa={despesa} />
        </span>
      )}
    </>
  );
}

/** What the employee is told about the money of a rejected expense (the ledger: a rejection moves none). */
export const TEXTO_DINHEIRO_REJEITADA = (valor: string) =>
  `O valor de ${valor} continua descontado do seu saldo. Corrija e reenvie para uma nova avaliação; se mudar o valor, só a diferença é ajustada.`;

/**
 * A rejected expense of the employee's active route can be corrected and sent again, once:
 * while a correction waits on this phone it is not offered again.
 */
export function podeCorrigir(d: DespesaExibida, usuario: Usuario, rotaAtiva: Rota | null | undefined): boolean {
  return (
    usuario.tipo === 'funcionario' &&
    !!rotaAtiva &&
    d.rota_id === rotaAtiva.id &&
    d.status_aprovacao === 'rejeitada' &&
    (d.envio === null || (d.envio.operacao === 'corrigir' && d.envio.estado === 'erro'))
  );
}

/** An employee changes only own, still Pendente expenses of the active route (the server says the same). */
export function podeAlterar(d: DespesaExibida, usuario: Usuario, rotaAtiva: Rota | null | undefined): boolean {
  return (
    usuario.tipo === 'funcionario' &&
    !!rotaAtiva &&
    d.rota_id === rotaAtiva.id &&
    d.rota_status === 'ativa' &&
    d.status_aprovacao === 'pendente' &&
    d.envio?.estado !== 'erro'
  );
}
