/**
 * Session state (spec section 4): carregando -> anonimo | autenticado.
 * Offline-first: a session stored on the device is trusted at once, so an employee on the road
 * opens the app without signal; the server check runs behind it and only a 401 ends the session.
 * A signed-in employee also leaves their profile on the device (offline/perfis.ts), so the login
 * screen can still export their queued writes after the session ends.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { LoginResposta, Usuario } from '../../../shared/schemas/usuarios';
import { api, ErroApi } from '../api/client';
import { aoSessaoExpirar, esquecerSaida, guardarSaida, lerToken, lerUsuarioSalvo, limparSessao, salvarSessao } from './sessaoLocal';

export type EstadoAuth =
  | { status: 'carregando'; usuario: null }
  | { status: 'anonimo'; usuario: null }
  | { status: 'autenticado'; usuario: Usuario };

export interface ContextoAuth {
  estado: EstadoAuth;
  usuario: Usuario | null;
  entrar(email: string, senha: string): Promise<Usuario>;
  sair(): Promise<void>;
}

const Contexto = createContext<ContextoAuth | null>(null);

/** `/auth/me` answers `{ usuario }`; older servers answered the user itself (spec section 7). */
function usuarioDaResposta(resposta: { usuario?: Usuario } | Usuario): Usuario {
  return 'usuario' in resposta && resposta.usuario ? resposta.usuario : (resposta as Usuario);
}

function estadoInicial(): EstadoAuth {
  const salvo = lerUsuarioSalvo();
  return salvo ? { status: 'autenticado', usuario: salvo } : { status: 'carregando', usuario: null };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [estado, setEstado] = useState<EstadoAuth>(estadoInicial);
  const queryClient = useQueryClient();

  const encerrarLocalmente = useCallback(() => {
    limparSessao();
    queryClient.clear();
    setEstado({ status: 'anonimo', usuario: null });
  }, [queryClient]);

  useEffect(() => aoSessaoExpirar(encerrarLocalmente), [encerrarLocalmente]);

  // An employee's, at sign-in and at each session restore (the stored session at start too: a
  // deactivated employee's first /auth/me is the 401 that ends it). Only employees queue writes.
  const perfil = estado.usuario?.tipo === 'funcionario' ? estado.usuario : null;
  useEffect(() => {
    if (!perfil) return;
    // In the offline chunk: the login screen's code does not carry IndexedDB.
    Promise.all([import('../offline/db'), import('../offline/perfis')])
      .then(([{ bancoLocal }, { guardarPerfil }]) => guardarPerfil(bancoLocal, perfil))
      .catch((erro: unknown) => console.error('Erro ao guardar o perfil no aparelho:', erro));
  }, [perfil]);

  // Startup check against the server.
  useEffect(() => {
    let cancelado = false;
    api
      .get<{ usuario: Usuario } | Usuario>('/auth/me', { ignorarSessaoExpirada: true })
      .then((resposta) => {
        if (cancelado) return;
        const usuario = usuarioDaResposta(resposta);
        salvarSessao(lerToken(), usuario);
        setEstado({ status: 'autenticado', usuario });
      })
      .catch((erro: unknown) => {
        if (cancelado) return;
        const recusado = erro instanceof ErroApi && (erro.status === 401 || erro.status === 403);
        if (!recusado) {
          // No signal or a server hiccup: keep the stored session; without one, only the login can follow.
          setEstado((atual) => (atual.status === 'carregando' ? { status: 'anonimo', usuario: null } : atual));
          return;
        }
        api.post('/auth/logout', undefined, { ignorarSessaoExpirada: true }).catch(() => undefined);
        // The login screen says why (ended by the admin, deactivated) with the e-mail already typed.
        if (lerUsuarioSalvo()) guardarSaida((erro as ErroApi).message);
        encerrarLocalmente();
      });
    return () => {
      cancelado = true;
    };
  }, [encerrarLocalmente]);

  const entrar = useCallback(async (email: string, senha: string) => {
    const r = await api.post<LoginResposta>('/auth/login', { email, senha }, { ignorarSessaoExpirada: true });
    salvarSessao(r.token, r.usuario);
    esquecerSaida();
    setEstado({ status: 'autenticado', usuario: r.usuario });
    return r.usuario;
  }, []);

  const sair = useCallback(async () => {
    try {
      await api.post('/auth/logout', undefined, { ignorarSessaoExpirada: true });
    } catch (erro) {
      console.error('Erro no logout:', erro);
    }
    esquecerSaida();
    encerrarLocalmente();
  }, [encerrarLocalmente]);

  const valor = useMemo<ContextoAuth>(() => ({ estado, usuario: estado.usuario, entrar, sair }), [estado, entrar, sair]);
  return <Contexto.Provider value={valor}>{children}</Contexto.Provider>;
}

export function useAuth(): ContextoAuth {
  const contexto = useContext(Contexto);
  if (!contexto) throw new Error('useAuth deve ser usado dentro de um AuthProvider');
  return contexto;
}
