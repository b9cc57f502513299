/**
 * Login (spec sections 2, 5, 8): validation texts, 'Entrando...', toasts, back to where the user was going.
 * A refused e-mail/password is the spec's toast with the server's one answer (the same for a wrong
 * password, an unknown e-mail and a blocked account, saying how long a block lasts), and that answer
 * is also kept under the form, where it stays to be read after the toast closes.
 * Below the form, writes still on this device can be exported without signing in (PendenciasNoAparelho).
 * After a session the server ended (the admin, a deactivation) the screen opens saying why, with the
 * e-mail typed (auth/sessaoLocal.ts `guardarSaida`).
 */
import { Lock, Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, type Location } from 'react-router-dom';
import { toast } from '../components/avisos';
import { PADRAO_EMAIL } from '../../../shared/padraoEmail';
import { ErroApi, ErroOffline, mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { ErroDoEnvio, useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { Marca } from '../components/Marca';
import { useAuth } from './AuthProvider';
import { lerSaida } from './sessaoLocal';
import { sobDemanda } from '../components/sobDemanda';

// It reads the device's IndexedDB (Dexie): its own chunk, so the login of a new phone draws
// without that library; on a phone with writes kept, the section appears under the form a moment later.
const PendenciasNoAparelho = sobDemanda(() => import('./PendenciasNoAparelho').then((m) => m.PendenciasNoAparelho));

interface ErrosLogin {
  email?: string;
  senha?: string;
}

export function validarLogin(email: string, senha: string): ErrosLogin {
  const erros: ErrosLogin = {};
  if (!email.trim()) erros.email = 'Email é obrigatório';
  else if (!PADRAO_EMAIL.test(email.trim())) erros.email = 'Email inválido';
  if (!senha) erros.senha = 'Senha é obrigatória';
  return erros;
}

function destinoDepoisDoLogin(estado: unknown): string {
  const de = (estado as { de?: Location } | null)?.de;
  if (!de || de.pathname === '/login') return '/dashboard';
  return `${de.pathname}${de.search ?? ''}`;
}

export function PaginaLogin() {
  const { estado, entrar } = useAuth();
  const local = useLocation();
  const navegar = useNavigate();
  const [saida] = useState(lerSaida);
  const [email, setEmail] = useState(saida?.email ?? '');
  const [senha, setSenha] = useState('');
  const [erros, setErros] = useState<ErrosLogin>({});
  const [entrando, setEntrando] = useState(false);
  const [recusa, setRecusa] = useState<string | null>(null);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();

  if (estado.status === 'autenticado' && !entrando) return <Navigate to={destinoDepoisDoLogin(local.state)} replace />;

  async function enviar(evento: FormEvent) {
    evento.preventDefault();
    const encontrados = validarLogin(email, senha);
    setErros(encontrados);
    if (encontrados.email || encontrados.senha) return apontarCampoRecusado();
    setRecusa(null);
    setEntrando(true);
    try {
      await entrar(email.trim(), senha);
      toast.success('Login realizado com sucesso!');
      navegar(destinoDepoisDoLogin(local.state), { replace: true });
    } catch (erro) {
      if (erro instanceof ErroApi) {
        // The spec's catalogue: the server's message, else 'Erro no login', as a toast.
        const mensagem = mensagemDeErro(erro, 'Erro no login');
        toast.error(mensagem);
        if (erro.codigo === 'credenciais_invalidas') setRecusa(mensagem);
      }
      else if (erro instanceof ErroOffline) toast.error('Sem conexão com o servidor. Conecte-se à internet para entrar.');
      else toast.error('Erro ao fazer login. Tente novamente.');
    } finally {
      setEntrando(false);
    }
  }

  return (
    <main className="login">
      <form ref={raiz} className="login__cartao" onSubmit={enviar} noValidate aria-labelledby="titulo-login">
        <div className="login__marca">
          <Marca tamanho={56} />
        </div>
        <h1 id="titulo-login" className="login__titulo">
          Sistema de Gestão
        </h1>
        <p className="login__subtitulo">Entre com seu email e senha para continuar</p>
        {saida?.motivo && !recusa && (
          <p className="alerta alerta--aviso" role="status">
            {saida.motivo}
          </p>
        )}
        <Campo rotulo="Email" erro={erros.email}>
          {(props) => (
            <div className="entrada-com-icone">
              <Mail size={18} aria-hidden="true" />
              <input
                {...props}
                className="entrada"
                type="email"
                autoComplete="username"
                inputMode="email"
                placeholder="seu@email.com"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  if (erros.email) setErros((atual) => ({ ...atual, email: undefined }));
                }}
              />
            </div>
          )}
        </Campo>
        <Campo rotulo="Senha" erro={erros.senha}>
          {(props) => (
            <div className="entrada-com-icone">
              <Lock size={18} aria-hidden="true" />
              <input
                {...props}
                className="entrada"
                type="password"
                autoComplete="current-password"
                // After a session ended the e-mail is typed already: the password is what is left.
                autoFocus={!!saida?.email}
                placeholder="Sua senha"
                value={senha}
                onChange={(e) => {
                  setSenha(e.target.value);
                  if (erros.senha) setErros((atual) => ({ ...atual, senha: undefined }));
                }}
              />
            </div>
          )}
        </Campo>
        {recusa && <ErroDoEnvio>{recusa}</ErroDoEnvio>}
        <Botao type="submit" tamanho="lg" bloco disabled={entrando} style={{ marginTop: '0.5rem' }}>
          {entrando ? 'Entrando...' : 'Entrar'}
        </Botao>
      </form>
      <PendenciasNoAparelho />
    </main>
  );
}
