/**
 * 'Minha senha': the signed-in user changes their own password. The current one is
 * required; the new one follows the spec's rule (at least 6 characters) and is typed twice.
 * The server ends the user's other sessions; this device stays signed in. Needs a connection:
 * offline, it says so instead of queueing (a password must not wait on a phone).
 */
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SENHA_MINIMA } from '../../../shared/schemas/campos';
import { ErroApi, ErroOffline, api, mensagemDeErro } from '../api/client';
import { toast } from '../components/avisos';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { ErroDoEnvio, useApontarCampoRecusado } from '../components/RecusaDoFormulario';

interface Campos {
  atual: string;
  nova: string;
  confirmacao: string;
}
type Erros = Partial<Record<keyof Campos, string>>;

export function validarTrocaDeSenha({ atual, nova, confirmacao }: Campos): Erros {
  const erros: Erros = {};
  if (!atual) erros.atual = 'Informe a senha atual';
  if (!nova) erros.nova = 'Informe a nova senha';
  else if (nova.length < SENHA_MINIMA) erros.nova = `A nova senha deve ter pelo menos ${SENHA_MINIMA} caracteres`;
  else if (nova === atual) erros.nova = 'A nova senha deve ser diferente da atual';
  if (!erros.nova && confirmacao !== nova) erros.confirmacao = 'As senhas não conferem';
  return erros;
}

const VAZIO: Campos = { atual: '', nova: '', confirmacao: '' };

export function PaginaMinhaSenha() {
  const [campos, setCampos] = useState<Campos>(VAZIO);
  const [erros, setErros] = useState<Erros>({});
  const [recusa, setRecusa] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();

  function mudar(campo: keyof Campos, valor: string) {
    setCampos((atual) => ({ ...atual, [campo]: valor }));
    if (erros[campo]) setErros((atual) => ({ ...atual, [campo]: undefined }));
  }

  async function enviar(evento: FormEvent) {
    evento.preventDefault();
    const encontrados = validarTrocaDeSenha(campos);
    setErros(encontrados);
    setRecusa(null);
    if (Object.values(encontrados).some(Boolean)) return apontarCampoRecusado();
    setEnviando(true);
    try {
      await api.put('/auth/senha', { senhaAtual: campos.atual, novaSenha: campos.nova });
      toast.success('Senha alterada com sucesso.');
      setCampos(VAZIO);
    } catch (erro) {
      if (erro instanceof ErroOffline) setRecusa('Sem conexão com o servidor. Conecte-se à internet para trocar a senha.');
      else if (erro instanceof ErroApi) setRecusa(mensagemDeErro(erro, 'Não foi possível trocar a senha.'));
      else setRecusa('Não foi possível trocar a senha. Tente novamente.');
    } finally {
      setEnviando(false);
    }
  }

  const senha = (campo: keyof Campos, autoComplete: string) => (props: object) => (
    <input {...props} className="entrada" type="password" autoComplete={autoComplete} value={campos[campo]} onChange={(e) => mudar(campo, e.target.value)} />
  );

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Minha senha</h1>
          <p className="pagina__descricao">Troque a senha que você usa para entrar. Os outros aparelhos em que você entrou vão pedir login de novo.</p>
        </div>
      </div>
      <form ref={raiz} className="cartao" onSubmit={enviar} noValidate aria-label="Trocar senha" style={{ maxWidth: '28rem', padding: '1.25rem' }}>
        <Campo rotulo="Senha atual" erro={erros.atual} obrigatorio>
          {senha('atual', 'current-password')}
        </Campo>
        <Campo rotulo="Nova senha" erro={erros.nova} ajuda={`Pelo menos ${SENHA_MINIMA} caracteres.`} obrigatorio>
          {senha('nova', 'new-password')}
        </Campo>
        <Campo rotulo="Confirmar nova senha" erro={erros.confirmacao} obrigatorio>
          {senha('confirmacao', 'new-password')}
        </Campo>
        {recusa && <ErroDoEnvio>{recusa}</ErroDoEnvio>}
        <Botao type="submit" icone={<KeyRound size={18} />} disabled={enviando} style={{ marginTop: '0.5rem' }}>
          {enviando ? 'Salvando...' : 'Trocar senha'}
        </Botao>
      </form>
    </div>
  );
}
