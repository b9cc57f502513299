/**
 * The main layout (spec section 2): fixed 280 px sidebar with the centre's name, a drawer with an
 * overlay below 768 px, the menu by role, 'Olá, {nome}' and the tipo, 'Sair'. Employees see the
 * sync status; admins see plainly when there is no connection (their screens need it).
 */
import { BarChart3, Download, History, KeyRound, LayoutDashboard, LogOut, Map, Menu, Receipt, ShoppingCart, Users, Wallet, WifiOff, X } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { ROTULO_TIPO, type TipoUsuario } from '../../../shared/schemas/tiposUsuario';
import { useAuth } from '../auth/AuthProvider';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { LARGURA_CELULAR, useLarguraMaxima } from '../components/useLarguraMaxima';
import { useOnline } from '../components/useOnline';
import { useConfigApp } from '../config/configApp';
import { carregarSync, useEstadoSync } from '../offline/estado';
import { useInstalacao } from '../pwa/instalacao';
import { useAlturaDoCabecalho } from './alturaDoCabecalho';
import { IndicadorSync } from './IndicadorSync';
import { sobDemanda, avisoNoLugarDaTela } from '../components/sobDemanda';
import { contagem } from '../../../shared/texto';

// Opened from the header indicator: loaded then, not with the first screen.
const PainelSync = sobDemanda(() => import('./PainelSync').then((m) => m.PainelSync), { alternativa: avisoNoLugarDaTela });

interface ItemMenu {
  para: string;
  rotulo: string;
  icone: ReactNode;
  tipos?: readonly TipoUsuario[];
}

export const ITENS_MENU: ItemMenu[] = [
  { para: '/dashboard', rotulo: 'Dashboard', icone: <LayoutDashboard size={19} /> },
  { para: '/rotas', rotulo: 'Rotas', icone: <Map size={19} /> },
  { para: '/usuarios', rotulo: 'Usuários', icone: <Users size={19} />, tipos: ['admin'] },
  { para: '/vendas', rotulo: 'Vendas', icone: <ShoppingCart size={19} /> },
  { para: '/despesas', rotulo: 'Despesas', icone: <Receipt size={19} /> },
  { para: '/saldo', rotulo: 'Saldo', icone: <Wallet size={19} />, tipos: ['admin'] },
  { para: '/relatorios', rotulo: 'Relatórios', icone: <BarChart3 size={19} />, tipos: ['admin'] },
  { para: '/auditoria', rotulo: 'Auditoria', icone: <History size={19} />, tipos: ['admin'] },
  // One's own password: everyone, employees included.
  { para: '/senha', rotulo: 'Minha senha', icone: <KeyRound size={19} /> },
];

export function Layout() {
  const { estado, sair } = useAuth();
  const config = useConfigApp();
  const celular = useLarguraMaxima(LARGURA_CELULAR);
  const medirCabecalho = useAlturaDoCabecalho();
  const online = useOnline();
  const sync = useEstadoSync();
  const local = useLocation();
  const navegar = useNavigate();
  const [menuAberto, setMenuAberto] = useState(false);
  const [painelAberto, setPainelAberto] = useState(false);
  const [confirmandoSaida, setConfirmandoSaida] = useState(false);
  const instalacao = useInstalacao();

  useEffect(() => {
    if (!menuAberto) return;
    const teclado = (e: KeyboardEvent) => e.key === 'Escape' && setMenuAberto(false);
    document.addEventListener('keydown', teclado);
    return () => document.removeEventListener('keydown', teclado);
  }, [menuAberto]);

  if (estado.status !== 'autenticado') return <Carregando tela texto="Carregando..." />;
  const usuario = estado.usuario;
  const itens = ITENS_MENU.filter((i) => !i.tipos || i.tipos.includes(usuario.tipo));
  const naFila = sync.pendentes + sync.comErro;

  async function encerrar() {
    setConfirmandoSaida(false);
    await sair();
    navegar('/login', { replace: true });
  }

  function pedirSaida() {
    // Queued work stays on the device, but the person should know before leaving.
    if (usuario.tipo === 'funcionario' && naFila > 0) setConfirmandoSaida(true);
    else void encerrar();
  }

  return (
    <div className="layout">
      <aside className={`lateral${menuAberto ? ' lateral--aberta' : ''}`} aria-label="Menu principal" aria-hidden={celular && !menuAberto ? true : undefined}>
        <div className="lateral__topo">
          <div>
            <div className="lateral__centro">{config.centro_nome}</div>
            <div className="lateral__sistema">Sistema de Gestão</div>
          </div>
          <button type="button" className="botao-icone lateral__fechar" onClick={() => setMenuAberto(false)} aria-label="Fechar menu" tabIndex={celular && !menuAberto ? -1 : undefined}>
            <X size={22} />
          </button>
        </div>
        <nav>
          <ul className="menu">
            {itens.map((item) => (
              <li key={item.para}>
                <NavLink
                  to={item.para}
                  className={({ isActive }) => `menu__item${isActive ? ' menu__item--ativo' : ''}`}
                  onClick={() => setMenuAberto(false)}
                  tabIndex={celular && !menuAberto ? -1 : undefined}
                >
                  {item.icone}
                  {item.rotulo}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="lateral__rodape">
          {instalacao.podeInstalar && (
            <button type="button" className="menu__item" onClick={() => void instalacao.instalar()} tabIndex={celular && !menuAberto ? -1 : undefined}>
              <Download size={19} />
              Instalar aplicativo
            </button>
          )}
          <button type="button" className="lateral__sair" onClick={pedirSaida} tabIndex={celular && !menuAberto ? -1 : undefined}>
            <LogOut size={19} />
            Sair
          </button>
        </div>
      </aside>
      {menuAberto && celular && <div className="sobreposicao" onClick={() => setMenuAberto(false)} aria-hidden="true" data-testid="sobreposicao" />}

      <div className="principal">
        <header className="cabecalho" ref={medirCabecalho}>
          <button type="button" className="botao-icone cabecalho__menu" onClick={() => setMenuAberto(true)} aria-label="Abrir menu" aria-expanded={menuAberto}>
            <Menu size={22} />
          </button>
          <div className="cabecalho__saudacao">
            <div className="cabecalho__ola">Olá, {usuario.nome}</div>
            <div className="cabecalho__tipo">{ROTULO_TIPO[usuario.tipo]}</div>
          </div>
          {usuario.tipo === 'funcionario' && <IndicadorSync aoAbrir={() => setPainelAberto(true)} />}
        </header>
        <main className={`conteudo${local.pathname.startsWith('/vendas') ? ' conteudo--vendas' : ''}`}>
          {usuario.tipo === 'admin' && !online && (
            <div className="aviso-online" role="status">
              <WifiOff size={18} aria-hidden="true" /> Sem conexão com a internet. As telas de administração precisam de conexão para carregar e salvar dados.
            </div>
          )}
          <Outlet />
        </main>
      </div>

      {usuario.tipo === 'funcionario' && painelAberto && (
        <PainelSync aberto aoFechar={() => setPainelAberto(false)} usuarioId={usuario.id} />
      )}

      <Modal
        aberto={confirmandoSaida}
        titulo="Registros ainda não enviados"
        aoFechar={() => setConfirmandoSaida(false)}
        tamanho="pequeno"
        rodape={
          <>
            <Botao variante="outline" onClick={() => void encerrar()}>
              Sair mesmo assim
            </Botao>
            <Botao
              onClick={() => {
                void carregarSync().then(({ motorSync }) => motorSync.sincronizarAgora({ ignorarEspera: true }));
                setConfirmandoSaida(false);
                setPainelAberto(true);
              }}
            >
              Sincronizar antes
            </Botao>
          </>
        }
      >
        <p style={{ margin: 0 }}>
          {naFila === 1
            ? 'Você tem 1 registro que ainda não chegou ao servidor. Ele continua guardado neste aparelho e será enviado'
            : `Você tem ${contagem(naFila, 'registro', 'registros')} que ainda não chegaram ao servidor. Eles continuam guardados neste aparelho e serão enviados`}{' '}
          quando você entrar de novo, mas o ideal é sincronizar antes de sair.
        </p>
      </Modal>
    </div>
  );
}
