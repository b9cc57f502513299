/**
 * The deactivation's Sim/Não, with what stays with the person read from the server first
 * (GET /usuarios/:id/desativacao): the active route, the balance, and what the phones last reported
 * as unsent, each with what happens to it. Nothing to report keeps the plain question. If the summary
 * cannot be read, the admin is told and may still deactivate.
 */
import { formatarReais } from '../../../shared/money';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { Confirmacao } from '../components/Confirmacao';
import { classeDoSaldo } from '../components/saldo';
import { fusoDoApp } from '../config/configApp';
import { useResumoDesativacao } from './consultas';
import { haAlgoARelatar, linhaDoCelular, resumoDosCelulares } from './desativacao';
import './desativacao.css';

interface Props {
  usuario: Usuario | null;
  processando: boolean;
  aoConfirmar: () => void;
  aoCancelar: () => void;
}

export function ConfirmacaoDesativar({ usuario, processando, aoConfirmar, aoCancelar }: Props) {
  const resumo = useResumoDesativacao(usuario?.id ?? null);
  const dados = resumo.data;
  const fuso = fusoDoApp();
  // Ages as of the reading (read fresh each time the confirmation opens).
  const agora = resumo.dataUpdatedAt;
  const nome = usuario?.nome ?? '';

  return (
    <Confirmacao
      aberto={usuario !== null}
      titulo="Desativar usuário"
      mensagem={`Tem certeza que deseja desativar o usuário ${nome}?`}
      varianteConfirmar="danger"
      processando={processando}
      podeConfirmar={!resumo.isPending}
      aoConfirmar={aoConfirmar}
      aoCancelar={aoCancelar}
    >
      {resumo.isPending && (
        <p className="desativacao__aviso texto-suave" role="status">
          Verificando rota, saldo e registros não enviados...
        </p>
      )}
      {resumo.isError && (
        <p className="desativacao__aviso alerta alerta--aviso" role="alert">
          Não foi possível verificar a rota, o saldo e os registros não enviados de {nome}. Você pode desativar assim mesmo e conferir depois em Rotas e Saldo.
        </p>
      )}
      {dados && haAlgoARelatar(dados) && (
        <>
          <ul className="desativacao__fatos" aria-label={`O que fica com ${nome}`}>
            {dados.rota_ativa && (
              <li>
                <strong>Rota ativa:</strong> {dados.rota_ativa.nome}. Continua ativa até um administrador finalizá-la ou cancelá-la.
              </li>
            )}
            {dados.saldo_atual !== 0 && (
              <li>
                <strong>Saldo:</strong> <span className={classeDoSaldo(dados.saldo_atual)}>{formatarReais(dados.saldo_atual)}</span>. Continua na tela Saldo, marcado como
                Inativo, enquanto não for zerado.
              </li>
            )}
            {dados.celulares.length > 0 && (
              <li>
                <strong>Registros não enviados:</strong> {resumoDosCelulares(dados.celulares, agora, fuso)}
                {dados.celulares.length > 1 && (
                  <ul className="desativacao__celulares">
                    {dados.celulares.map((c) => (
                      <li key={c.dispositivo_id}>{linhaDoCelular(c, agora, fuso)}</li>
                    ))}
                  </ul>
                )}{' '}
                Nada se perde: na tela de login do celular, &apos;Exportar pendências&apos; gera um arquivo que você importa aqui em &apos;Importar pendências&apos;.
              </li>
            )}
          </ul>
          <p className="desativacao__sessao">A sessão de {nome} termina na hora; ninguém entra mais com essa conta.</p>
        </>
      )}
    </Confirmacao>
  );
}
