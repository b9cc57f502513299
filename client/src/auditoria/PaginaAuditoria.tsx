/**
 * Auditoria (admin only, online only): who did what and when, with what changed, newest
 * first, filtered by admin, action and day. The rows cannot be changed (the database refuses it).
 */
import { Filter } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatarDataHora } from '../../../shared/dates';
import { totalDePaginas } from '../../../shared/limitesPaginacao';
import { ACOES_AUDITORIA, REGISTROS_AUDITORIA_POR_PAGINA, ROTULO_ACAO_AUDITORIA, type RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { contagem } from '../../../shared/texto';
import { Botao } from '../components/Botao';
import { FiltroData, FiltroSelecao } from '../components/CamposDeFiltro';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { CelulaDupla, TabelaDados, type Coluna } from '../components/TabelaDados';
import { fusoDoApp } from '../config/configApp';
import { useAdministradores } from '../usuarios/consultas';
import { FILTROS_AUDITORIA_INICIAIS, useAuditoria, type FiltrosAuditoria } from './consultas';
import { descreverMudancas, linhasDasMudancas } from './mudancas';
import { BotaoExportarCsv } from '../exportacoes/BotaoExportarCsv';

/**
 * What the action was done to, in the server's words ('Despesa de Ana Souza · Alimentação · R$ 48,00 ·
 * 03/12/2026'), linked to the screen that opens it; a record that no longer exists has no link.
 */
function AlvoDoRegistro({ registro: r }: { registro: RegistroAuditoria }) {
  if (!r.alvo_link) return <span className="alvo-auditoria">{quebravel(r.alvo_descricao)}</span>;
  return (
    <Link className="alvo-auditoria" to={r.alvo_link}>
      {quebravel(r.alvo_descricao)}
    </Link>
  );
}

/** The text with a break allowed after '@' and at a dot between letters: an e-mail wraps instead of widening the column. */
function quebravel(texto: string): ReactNode[] {
  return texto.split(/(?<=@)|(?<=\p{L}\.)(?=\p{L})/u).flatMap((parte, i) => (i === 0 ? [parte] : [<wbr key={i} />, parte]));
}

export function PaginaAuditoria() {
  const [filtros, setFiltros] = useState<FiltrosAuditoria>(FILTROS_AUDITORIA_INICIAIS);
  const [aplicados, setAplicados] = useState<FiltrosAuditoria>(FILTROS_AUDITORIA_INICIAIS);
  const [pagina, setPagina] = useState(1);
  const consulta = useAuditoria(aplicados, pagina);
  const conexao = useSemConexao(consulta);
  const { data: admins = [] } = useAdministradores();
  const fuso = fusoDoApp();
  const contexto = { nomes: consulta.data?.nomes, fuso };
  const linhasDe = (r: RegistroAuditoria) => linhasDasMudancas(descreverMudancas(r, contexto));
  const total = consulta.data?.total ?? 0;
  const totalPaginas = totalDePaginas(total, REGISTROS_AUDITORIA_POR_PAGINA);

  const colunas: Coluna<RegistroAuditoria>[] = [
    {
      chave: 'criado_em',
      titulo: 'Quando',
      classe: 'sem-quebra',
      render: (r) => formatarDataHora(r.criado_em, fuso),
      textoBusca: (r) => formatarDataHora(r.criado_em, fuso),
    },
    { chave: 'admin_nome', titulo: 'Administrador' },
    // On the computer the action and what it was about share a cell; the phone's card gives them apart.
    {
      chave: 'acao_alvo',
      titulo: 'Ação',
      so: 'computador',
      classe: 'coluna-acao-auditoria',
      render: (r) => <CelulaDupla principal={<strong>{ROTULO_ACAO_AUDITORIA[r.acao]}</strong>} secundario={<AlvoDoRegistro registro={r} />} />,
      textoBusca: (r) => `${ROTULO_ACAO_AUDITORIA[r.acao]} ${r.alvo_descricao}`,
      csv: (r) => ROTULO_ACAO_AUDITORIA[r.acao],
    },
    { chave: 'acao', titulo: 'Ação', so: 'celular', render: (r) => <strong>{ROTULO_ACAO_AUDITORIA[r.acao]}</strong>, textoBusca: (r) => ROTULO_ACAO_AUDITORIA[r.acao], csv: false },
    { chave: 'alvo', titulo: 'Sobre', so: 'celular', render: (r) => <AlvoDoRegistro registro={r} />, textoBusca: (r) => r.alvo_descricao },
    {
      chave: 'mudancas',
      titulo: 'O que mudou',
      render: (r) => {
        const linhas = linhasDe(r);
        return linhas.length === 0 ? (
          <span className="texto-suave">—</span>
        ) : (
          <ul className="lista-mudancas">
            {linhas.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        );
      },
      textoBusca: (r) => linhasDe(r).join('\n'),
    },
  ];

  function mudar<K extends keyof FiltrosAuditoria>(campo: K, valor: FiltrosAuditoria[K]) {
    setFiltros((f) => ({ ...f, [campo]: valor }));
  }

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Auditoria</h1>
          <p className="pagina__descricao">Quem fez o quê e quando, com o antes e o depois. Os registros não podem ser alterados nem apagados.</p>
        </div>
      </div>

      <form
        className="cartao filtros"
        onSubmit={(e) => {
          e.preventDefault();
          setAplicados(filtros);
          setPagina(1);
        }}
      >
        <FiltroSelecao rotulo="Administrador" valor={filtros.admin_id} aoMudar={(v) => mudar('admin_id', v)} opcoes={admins.map((a) => ({ valor: a.id, rotulo: a.nome }))} />
        <FiltroSelecao
          rotulo="Ação"
          todos="Todas"
          valor={filtros.acao}
          aoMudar={(v) => mudar('acao', v)}
          opcoes={ACOES_AUDITORIA.map((a) => ({ valor: a, rotulo: ROTULO_ACAO_AUDITORIA[a] }))}
        />
        <FiltroData rotulo="Data inicial" valor={filtros.data_inicio} aoMudar={(v) => mudar('data_inicio', v)} />
        <FiltroData rotulo="Data final" valor={filtros.data_fim} aoMudar={(v) => mudar('data_fim', v)} />
        <div className="filtros__acao">
          <Botao type="submit" icone={<Filter size={16} />} carregando={consulta.isFetching}>
            Filtrar
          </Botao>
        </div>
      </form>

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : consulta.isError ? (
        <div className="alerta alerta--erro" role="alert">
          Erro ao carregar a auditoria.
        </div>
      ) : (
        <TabelaDados
          titulo="Registros"
          colunas={colunas}
          linhas={consulta.data?.registros ?? []}
          chaveLinha={(r) => r.id}
          carregando={consulta.isPending}
          placeholderBusca="Buscar nesta página..."
          vazio="Nenhum registro encontrado."
          tituloCartao={(r) => formatarDataHora(r.criado_em, fuso)}
          paginacaoServidor={{ pagina: Math.min(pagina, totalPaginas), totalPaginas, resumo: contagem(total, 'registro', 'registros'), aoMudar: setPagina }}
          exportar={<BotaoExportarCsv caminho="/auditoria/exportar" params={{ ...aplicados }} arquivo="auditoria.csv" desabilitado={consulta.isPending} />}
        />
      )}
    </div>
  );
}
