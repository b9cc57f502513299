/**
 * Create / edit a user ('Novo Funcionário' / 'Editar Usuário', spec section 5): name, e-mail and
 * type required; a password of 6+ characters on create; on edit a new password is optional.
 */
import { useState, type FormEvent } from 'react';
import { toast } from '../components/avisos';
import { SENHA_MINIMA } from '../../../shared/schemas/campos';
import { usuarioCriarSchema, usuarioEditarSchema, type TipoUsuario, type Usuario } from '../../../shared/schemas/usuarios';
import { mensagemDeErro } from '../api/client';
import { Botao } from '../components/Botao';
import { Campo } from '../components/Campo';
import { errosPorCampo } from '../components/errosDeFormulario';
import { camposMudaram, useFecharFormulario } from '../components/fecharFormulario';
import { Modal } from '../components/Modal';
import { useApontarCampoRecusado } from '../components/RecusaDoFormulario';
import { useCriarUsuario, useEditarUsuario } from './consultas';

interface Formulario {
  nome: string;
  email: string;
  senha: string;
  tipo: TipoUsuario;
  ativo: boolean;
}

export function ModalUsuario({ usuario, aoFechar }: { usuario: Usuario | null; aoFechar: () => void }) {
  const edicao = usuario !== null;
  const [aoAbrir] = useState<Formulario>(() => ({
    nome: usuario?.nome ?? '',
    email: usuario?.email ?? '',
    senha: '',
    tipo: usuario?.tipo ?? 'funcionario',
    ativo: usuario?.ativo ?? true,
  }));
  const [form, setForm] = useState<Formulario>(aoAbrir);
  const [erros, setErros] = useState<Record<string, string>>({});
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const criar = useCriarUsuario();
  const editar = useEditarUsuario();
  const salvando = criar.isPending || editar.isPending;
  const { raiz, apontarCampoRecusado } = useApontarCampoRecusado();
  const { pedirFechar, pergunta } = useFecharFormulario({ alterado: camposMudaram(aoAbrir, form), bloqueado: salvando, aoFechar });

  function recusar(encontrados: Record<string, string>) {
    setErros(encontrados);
    apontarCampoRecusado();
  }

  function mudar<K extends keyof Formulario>(campo: K, valor: Formulario[K]) {
    setForm((f) => ({ ...f, [campo]: valor }));
    if (erros[campo]) setErros(({ [campo]: _, ...resto }) => resto);
  }

  async function salvar(evento: FormEvent) {
    evento.preventDefault();
    setErroServidor(null);
    try {
      if (!edicao) {
        const r = usuarioCriarSchema.safeParse(form);
        if (!r.success) return recusar(errosPorCampo(r.error));
        await criar.mutateAsync({ nome: form.nome, email: form.email, senha: form.senha, tipo: form.tipo });
        toast.success('Usuário criado com sucesso!');
      } else {
        const dados = { nome: form.nome, email: form.email, tipo: form.tipo, ativo: form.ativo };
        const r = usuarioEditarSchema.safeParse(dados);
        const encontrados = r.success ? {} : errosPorCampo(r.error);
        if (form.senha && form.senha.length < SENHA_MINIMA) encontrados.senha = `Senha deve ter pelo menos ${SENHA_MINIMA} caracteres.`;
        if (Object.keys(encontrados).length > 0) return recusar(encontrados);
        await editar.mutateAsync({ id: usuario.id, dados, ...(form.senha ? { novaSenha: form.senha } : {}) });
        toast.success('Usuário atualizado com sucesso!');
      }
      aoFechar();
    } catch (erro) {
      setErroServidor(mensagemDeErro(erro, 'Erro ao salvar usuário'));
    }
  }

  return (
    <Modal
      aberto
      titulo={edicao ? 'Editar Usuário' : 'Novo Funcionário'}
      aoFechar={pedirFechar}
      erro={erroServidor}
      rodape={
        <>
          <Botao variante="outline" onClick={pedirFechar} disabled={salvando}>
            Cancelar
          </Botao>
          <Botao type="submit" form="form-usuario" carregando={salvando}>
            {salvando ? 'Salvando...' : edicao ? 'Atualizar' : 'Criar'}
          </Botao>
        </>
      }
    >
      <form id="form-usuario" ref={raiz} onSubmit={salvar} noValidate>
        <Campo rotulo="Nome" obrigatorio erro={erros.nome}>
          {(p) => <input {...p} className="entrada" autoComplete="off" value={form.nome} onChange={(e) => mudar('nome', e.target.value)} />}
        </Campo>
        <Campo rotulo="Email" obrigatorio erro={erros.email}>
          {(p) => <input {...p} className="entrada" type="email" autoComplete="off" value={form.email} onChange={(e) => mudar('email', e.target.value)} />}
        </Campo>
        <Campo
          rotulo={edicao ? 'Nova senha' : 'Senha'}
          obrigatorio={!edicao}
          erro={erros.senha}
          ajuda={edicao ? 'Deixe em branco para manter a senha atual.' : `Mínimo de ${SENHA_MINIMA} caracteres.`}
        >
          {(p) => (
            <input {...p} className="entrada" type="password" autoComplete="new-password" value={form.senha} onChange={(e) => mudar('senha', e.target.value)} />
          )}
        </Campo>
        <div className="linha-campos">
          <Campo rotulo="Tipo" obrigatorio erro={erros.tipo}>
            {(p) => (
              <select {...p} className="selecao" value={form.tipo} onChange={(e) => mudar('tipo', e.target.value as TipoUsuario)}>
                <option value="funcionario">Funcionário</option>
                <option value="admin">Administrador</option>
              </select>
            )}
          </Campo>
          {edicao && (
            <Campo rotulo="Status" erro={erros.ativo}>
              {(p) => (
                <select {...p} className="selecao" value={form.ativo ? 'ativo' : 'inativo'} onChange={(e) => mudar('ativo', e.target.value === 'ativo')}>
                  <option value="ativo">Ativo</option>
                  <option value="inativo">Inativo</option>
                </select>
              )}
            </Campo>
          )}
        </div>
      </form>
      {pergunta}
    </Modal>
  );
}
