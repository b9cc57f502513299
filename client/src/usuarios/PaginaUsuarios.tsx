/**
 * 'Gerenciamento de Usuários' (admin): tabs Ativos / Inativos / Bloqueados, the table with every
 * column of the spec, create/edit, activate/deactivate with a Sim/Não confirmation (deactivating first
 * says what stays with the person: ConfirmacaoDesativar), unlock (a block
 * also lifts by itself: the tab says when), and 'Sessões': the devices signed in, ending one or all.
 */
import { FileUp, Lock, MonitorSmartphone, Pencil, Power, Unlock, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../components/avisos';
import { formatarDataHora } from '../../../shared/dates';
import { idDoEndereco, PARAMETROS_DAS_TELAS } from '../../../shared/enderecosDasTelas';
import { ROTULO_TIPO, type Usuario } from '../../../shared/schemas/usuarios';
import { mensagemDeErro } from '../api/client';
import { Abas } from '../components/Abas';
import { Botao } from '../components/Botao';
import { Confirmacao } from '../components/Confirmacao';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo } from '../components/Selo';
import { EmailQuebravel, TabelaDados, type Coluna } from '../components/TabelaDados';
import { useParametroDoEndereco } from '../components/useParametroDoEndereco';
import { fusoDoApp } from '../config/configApp';
import { useAlterarStatusUsuario, useDesbloquearUsuario, useUsuarios } from './consultas';
import { ConfirmacaoDesativar } from './ConfirmacaoDesativar';
import { ModalSessoes } from './ModalSessoes';
import { ModalUsuario } from './ModalUsuario';
import { ModalImportarPendencias } from './ModalImportarPendencias';
import { contagem } from '../../../shared/texto';

type AbaUsuarios = 'ativos' | 'inativos' | 'bloqueados';

export function filtrarPorAba(usuarios: Usuario[], aba: AbaUsuarios): Usuario[] {
  if (aba === 'bloqueados') return usuarios.filter((u) => u.bloqueado);
  if (aba === 'inativos') return usuarios.filter((u) => !u.ativo);
  return usuarios.filter((u) => u.ativo && !u.bloqueado);
}

/** The tab that lists a user (an inactive user who is also blocked is listed as inactive first). */
export function abaDoUsuario(u: Usuario): AbaUsuarios {
  if (!u.ativo) return 'inativos';
  return u.bloqueado ? 'bloqueados' : 'ativos';
}

export function textoBloqueio(u: Usuario): string {
  return u.bloqueado ? `Bloqueado (${contagem(u.tentativas_login, 'tentativa', 'tentativas')})` : 'Desbloqueado';
}

/** When a block lifts by itself, in the business time zone: 'Libera sozinho em 25/11/2026 14:35'. */
export function textoFimDoBloqueio(u: Usuario, fuso: string): string | null {
  if (!u.bloqueado || !u.bloqueado_ate) return null;
  const quando = formatarDataHora(u.bloqueado_ate, fuso);
  return quando ? `Libera sozinho em ${quando}` : null;
}

export function PaginaUsuarios() {
  const consulta = useUsuarios();
  const { data: usuarios = [], isLoading } = consulta;
  const conexao = useSemConexao(consulta);
  // A user's address (/usuarios?usuario=<id>, the audit trail's link): their tab, the table searched down to them.
  const endereco = useParametroDoEndereco(PARAMETROS_DAS_TELAS.usuario);
  const idPedido = idDoEndereco(endereco.busca, PARAMETROS_DAS_TELAS.usuario);
  const pedido = idPedido === null ? undefined : usuarios.find((u) => u.id === idPedido);
  const [abaEscolhida, setAba] = useState<AbaUsuarios | null>(null);
  const aba = abaEscolhida ?? (pedido ? abaDoUsuario(pedido) : 'ativos');
  const [editando, setEditando] = useState<Usuario | null | 'novo'>(null);
  const [mudandoStatus, setMudandoStatus] = useState<Usuario | null>(null);
  const [importando, setImportando] = useState(false);
  const alterarStatus = useAlterarStatusUsuario();
  const desbloquear = useDesbloquearUsuario();
  const [vendoSessoes, setVendoSessoes] = useState<Usuario | null>(null);
  const fuso = fusoDoApp();

  const linhas = filtrarPorAba(usuarios, aba);

  const colunas: Coluna<Usuario>[] = [
    // The spec's Nome and Email, each its own column: both fit beside the sidebar at 1280 px (a long
    // e-mail wraps after '@' and '.'). On the phone the name is the card's heading, the e-mail a field.
    { chave: 'nome', titulo: 'Nome', so: 'computador', classe: 'coluna-nome' },
    { chave: 'email', titulo: 'Email', classe: 'coluna-email', render: (u) => <EmailQuebravel email={u.email} /> },
    { chave: 'tipo', titulo: 'Tipo', render: (u) => ROTULO_TIPO[u.tipo], textoBusca: (u) => ROTULO_TIPO[u.tipo] },
    {
      chave: 'status',
      titulo: 'Status',
      render: (u) => <Selo cor={u.ativo ? 'verde' : 'cinza'}>{u.ativo ? 'Ativo' : 'Inativo'}</Selo>,
      textoBusca: (u) => (u.ativo ? 'Ativo' : 'Inativo'),
    },
    {
      chave: 'bloqueio',
      titulo: 'Bloqueio',
      classe: 'coluna-bloqueio',
      render: (u) => {
        const fim = textoFimDoBloqueio(u, fuso);
        return (
          <>
            <Selo cor={u.bloqueado ? 'vermelho' : 'azul'}>
              {u.bloqueado ? <Lock size={12} /> : <Unlock size={12} />}
              {/* The pill may take two lines at 1280 px: 'Bloqueado' over the count, never the count split. */}
              {textoBloqueio(u).replace(/ (?=tentativa)/, '\u00a0')}
            </Selo>
            {fim && (
              <div className="texto-suave" style={{ fontSize: '0.8rem', marginTop: '0.25rem' }}>
                {fim}
              </div>
            )}
          </>
        );
      },
      textoBusca: textoBloqueio,
    },
    {
      chave: 'data_criacao',
      titulo: 'Data de Criação',
      classe: 'coluna-data',
      render: (u) => formatarDataHora(u.data_criacao, fuso).slice(0, 10),
      textoBusca: (u) => formatarDataHora(u.data_criacao, fuso),
    },
  ];

  async function confirmarStatus() {
    if (!mudandoStatus) return;
    const ativar = !mudandoStatus.ativo;
    try {
      await alterarStatus.mutateAsync({ id: mudandoStatus.id, ativar });
      toast.success(ativar ? 'Usuário ativado com sucesso.' : 'Usuário desativado com sucesso.');
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao alterar status'));
    } finally {
      setMudandoStatus(null);
    }
  }

  async function desbloquearUsuario(u: Usuario) {
    try {
      await desbloquear.mutateAsync(u.id);
      toast.success('Usuário desbloqueado com sucesso.');
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao desbloquear usuário'));
    }
  }

  const contar = (a: AbaUsuarios) => filtrarPorAba(usuarios, a).length;

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Gerenciamento de Usuários</h1>
          <p className="pagina__descricao">Crie, edite, ative, desative e desbloqueie os acessos da equipe.</p>
        </div>
        <div className="pagina__acoes">
          <Botao variante="outline" icone={<FileUp size={18} />} onClick={() => setImportando(true)}>
            Importar pendências
          </Botao>
          <Botao icone={<UserPlus size={18} />} onClick={() => setEditando('novo')}>
            Novo Funcionário
          </Botao>
        </div>
      </div>
      <ModalImportarPendencias aberto={importando} aoFechar={() => setImportando(false)} />

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : (
        <>
          {/* On the phone the three tabs share the 390 px width (no sideways scrolling). */}
          <div className="abas-divididas abas-divididas--por-texto">
            <Abas
              rotulo="Situação dos usuários"
              atual={aba}
              aoMudar={setAba}
              abas={[
                { valor: 'ativos', rotulo: `Ativos (${contar('ativos')})` },
                { valor: 'inativos', rotulo: `Inativos (${contar('inativos')})` },
                { valor: 'bloqueados', rotulo: `Bloqueados (${contar('bloqueados')})` },
              ]}
            />
          </div>

          <TabelaDados
            // Mounted again when the asked-for user arrives, so the search starts with them.
            key={`${aba}-${pedido?.id ?? ''}`}
            {...(pedido && aba === abaDoUsuario(pedido) ? { buscaInicial: pedido.email } : {})}
            titulo={aba === 'ativos' ? 'Usuários ativos' : aba === 'inativos' ? 'Usuários inativos' : 'Usuários bloqueados'}
            colunas={colunas}
            classeTabela="tabela-usuarios"
            linhas={linhas}
            chaveLinha={(u) => u.id}
            carregando={isLoading}
            placeholderBusca="Buscar por nome, email ou tipo..."
            vazio={aba === 'ativos' ? 'Nenhum usuário ativo.' : aba === 'inativos' ? 'Nenhum usuário inativo.' : 'Nenhum usuário bloqueado.'}
            tituloCartao={(u) => u.nome}
            arquivoCsv={`usuarios-${aba}`}
            acoes={(u) => (
              <>
                <Botao tamanho="sm" variante="outline" icone={<Pencil size={15} />} onClick={() => setEditando(u)} aria-label={`Editar ${u.nome}`}>
                  Editar
                </Botao>
                <Botao
                  tamanho="sm"
                  variante={u.ativo ? 'danger' : 'secondary'}
                  icone={<Power size={15} />}
                  onClick={() => setMudandoStatus(u)}
                  aria-label={`${u.ativo ? 'Desativar' : 'Ativar'} ${u.nome}`}
                >
                  {u.ativo ? 'Desativar' : 'Ativar'}
                </Botao>
                <Botao tamanho="sm" variante="outline" icone={<MonitorSmartphone size={15} />} onClick={() => setVendoSessoes(u)} aria-label={`Sessões de ${u.nome}`}>
                  Sessões
                </Botao>
                {u.bloqueado && (
                  <Botao tamanho="sm" variante="orange" icone={<Unlock size={15} />} onClick={() => void desbloquearUsuario(u)} aria-label={`Desbloquear ${u.nome}`}>
                    Desbloquear
                  </Botao>
                )}
              </>
            )}
          />
        </>
      )}

      {editando !== null && <ModalUsuario usuario={editando === 'novo' ? null : editando} aoFechar={() => setEditando(null)} />}

      <ConfirmacaoDesativar
        usuario={mudandoStatus?.ativo ? mudandoStatus : null}
        processando={alterarStatus.isPending}
        aoConfirmar={() => void confirmarStatus()}
        aoCancelar={() => setMudandoStatus(null)}
      />
      <Confirmacao
        aberto={mudandoStatus !== null && !mudandoStatus.ativo}
        titulo="Ativar usuário"
        mensagem={`Tem certeza que deseja ativar o usuário ${mudandoStatus?.nome}?`}
        processando={alterarStatus.isPending}
        aoConfirmar={() => void confirmarStatus()}
        aoCancelar={() => setMudandoStatus(null)}
      />

      {vendoSessoes && <ModalSessoes usuario={vendoSessoes} aoFechar={() => setVendoSessoes(null)} />}
    </div>
  );
}
