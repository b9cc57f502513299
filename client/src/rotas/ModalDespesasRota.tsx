/**
 * The route's expenses (admin, spec section 2): Data, Funcionário, Cidade, Tipo, Valor, Status,
 * Descrição, Cupom Fiscal ('Ver Cupom'), read from GET /despesas?rota_id=&limit=100&page=1.
 */
import { ExternalLink } from 'lucide-react';
import { formatarData } from '../../../shared/dates';
import { formatarCentavos, formatarReais, reaisParaCentavos } from '../../../shared/money';
import { ROTULO_TIPO_DESPESA, type TipoDespesa } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { Selo } from '../components/Selo';
import { TabelaDados, type Coluna } from '../components/TabelaDados';
import { SeloLimite } from '../despesas/apresentacao';
import { useDespesasDaRota, type DespesaDaRota } from './consultas';

export function tipoDaDespesa(d: Pick<DespesaDaRota, 'tipo' | 'tipo_outro'>): string {
  if (d.tipo === 'outro' && d.tipo_outro) return d.tipo_outro;
  return ROTULO_TIPO_DESPESA[d.tipo as TipoDespesa] ?? d.tipo;
}

const STATUS: Record<DespesaDaRota['status_aprovacao'], { rotulo: string; cor: 'verde' | 'vermelho' | 'amarelo' }> = {
  aprovada: { rotulo: 'Aprovada', cor: 'verde' },
  rejeitada: { rotulo: 'Rejeitada', cor: 'vermelho' },
  pendente: { rotulo: 'Pendente', cor: 'amarelo' },
};

const statusDa = (d: DespesaDaRota) => STATUS[d.status_aprovacao] ?? STATUS.pendente;

const colunas: Coluna<DespesaDaRota>[] = [
  { chave: 'data_despesa', titulo: 'Data', render: (d) => formatarData(d.data_despesa), textoBusca: (d) => formatarData(d.data_despesa) },
  { chave: 'funcionario_nome', titulo: 'Funcionário' },
  { chave: 'cidade', titulo: 'Cidade', render: (d) => `${d.cidade_nome} (${d.cidade_uf})`, textoBusca: (d) => `${d.cidade_nome} ${d.cidade_uf}` },
  { chave: 'tipo', titulo: 'Tipo', render: tipoDaDespesa, textoBusca: tipoDaDespesa },
  { chave: 'valor', titulo: 'Valor', numerica: true, render: (d) => formatarReais(d.valor), textoBusca: (d) => formatarReais(d.valor) },
  {
    chave: 'status',
    titulo: 'Status',
    render: (d) => (
      <div className="selos">
        <Selo cor={statusDa(d).cor} title={d.status_aprovacao === 'rejeitada' && d.motivo_rejeicao ? `Motivo: ${d.motivo_rejeicao}` : undefined}>
          {statusDa(d).rotulo}
        </Selo>
        <SeloLimite despesa={d} />
      </div>
    ),
    textoBusca: (d) => statusDa(d).rotulo,
    // On screen the reason is the badge's tooltip; in the spreadsheet it goes beside the status.
    csv: (d) =>
      (d.status_aprovacao === 'rejeitada' && d.motivo_rejeicao ? `${statusDa(d).rotulo}: ${d.motivo_rejeicao}` : statusDa(d).rotulo) +
      (d.acima_do_limite ? ' (acima do limite diário)' : ''),
  },
  { chave: 'descricao', titulo: 'Descrição', render: (d) => d.descricao || '—' },
  {
    chave: 'cupom',
    titulo: 'Cupom Fiscal',
    render: (d) =>
      d.cupom_url ? (
        <a href={d.cupom_url} target="_blank" rel="noopener noreferrer" className="link-cupom">
          Ver Cupom <ExternalLink size={13} aria-hidden="true" />
        </a>
      ) : (
        <span className="campo__ajuda">Sem cupom</span>
      ),
    textoBusca: () => '',
    csv: (d) => (d.cupom_url ? 'Sim' : 'Não'),
  },
];

export function ModalDespesasRota({ rota, aoFechar }: { rota: Rota; aoFechar: () => void }) {
  const { data: despesas = [], isLoading } = useDespesasDaRota(rota.id);
  // Summed in centavos: never a float sum of money.
  const total = despesas.reduce((soma, d) => soma + reaisParaCentavos(Number(d.valor) || 0), 0);
  return (
    <Modal
      aberto
      tamanho="grande"
      titulo="Despesas da Rota"
      aoFechar={aoFechar}
      rodape={
        <Botao variante="outline" onClick={aoFechar}>
          Fechar
        </Botao>
      }
    >
      <p className="despesas-rota__resumo">
        <strong>{rota.nome}</strong>
        {!isLoading && despesas.length > 0 && (
          <>
            {' '}
            · {despesas.length} {despesas.length === 1 ? 'despesa' : 'despesas'} · Total <strong>{formatarCentavos(total)}</strong>
          </>
        )}
      </p>
      {isLoading ? (
        <Carregando texto="Carregando despesas..." />
      ) : despesas.length === 0 ? (
        <p className="cartao vazio-rotas">Nenhuma despesa registrada nesta rota.</p>
      ) : (
        <TabelaDados
          colunas={colunas}
          linhas={despesas}
          chaveLinha={(d) => d.id}
          placeholderBusca="Buscar despesa..."
          arquivoCsv="despesas-da-rota"
          tituloCartao={(d) => `${formatarData(d.data_despesa)} · ${tipoDaDespesa(d)}`}
        />
      )}
    </Modal>
  );
}
