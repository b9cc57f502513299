/**
 * In the sync panel when the server refused this app's version (426): what happened, that nothing
 * is lost, and 'Atualizar aplicativo'.
 */
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Botao } from '../components/Botao';
import { motorSync, useEstadoSync } from '../offline';
import { atualizarAplicativo } from '../pwa/atualizacao';
import { versaoApp } from '../versaoApp';
import './atualizacao.css';

export function AvisoVersaoAntiga({ aguardando }: { aguardando: number }) {
  const { atualizacaoNecessaria } = useEstadoSync();
  const [estado, setEstado] = useState<'parado' | 'procurando' | 'atualizando' | 'sem_versao_nova'>('parado');
  if (!atualizacaoNecessaria) return null;

  async function atualizar() {
    setEstado('procurando');
    const r = await atualizarAplicativo();
    setEstado(r);
    // Maybe the server accepts this version again: the next pass asks it.
    if (r === 'sem_versao_nova') void motorSync.sincronizarAgora({ ignorarEspera: true });
  }

  return (
    <section className="aviso-versao" role="alert" aria-label="Atualize o aplicativo">
      <AlertTriangle size={20} aria-hidden="true" className="aviso-versao__icone" />
      <div className="aviso-versao__texto">
        <strong>Atualize o aplicativo</strong>
        <span>
          Esta versão ({versaoApp()}) não é mais aceita pelo servidor.{' '}
          {aguardando > 0
            ? `${aguardando === 1 ? 'O registro continua guardado' : `Os ${aguardando} registros continuam guardados`} neste aparelho e ${aguardando === 1 ? 'será enviado' : 'serão enviados'} depois da atualização.`
            : 'Nada foi perdido.'}
        </span>
        {estado === 'sem_versao_nova' && (
          <span className="aviso-versao__nota">Nenhuma versão nova chegou ainda. Conecte-se à internet e tente de novo em alguns minutos.</span>
        )}
        {estado === 'atualizando' && <span className="aviso-versao__nota">Atualizando...</span>}
      </div>
      <Botao tamanho="sm" onClick={() => void atualizar()} carregando={estado === 'procurando' || estado === 'atualizando'}>
        Atualizar aplicativo
      </Botao>
    </section>
  );
}
