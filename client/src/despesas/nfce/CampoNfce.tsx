/**
 * The NFC-e of the expense form: what the receipt photo's QR said ('NFC-e lida',
 * the issuer's CNPJ and the month) and the chave, typed by hand when the QR is unreadable, checked on
 * leaving the field with the same rule as the server.
 */
import { ScanLine } from 'lucide-react';
import { lerChaveNfce, resumoNfce, validarChaveNfce } from '../../../../shared/nfce';
import { Campo } from '../../components/Campo';
import type { LeituraNfce } from './leitorQr';

export const ROTULO_CHAVE_NFCE = 'Chave da NFC-e (44 dígitos)';

interface PropsCampoNfce {
  valor: string;
  erro: string | undefined;
  aoMudar: (texto: string) => void;
  aoValidar: (erro: string | null) => void;
  /** What the last photo's QR said; null before any photo (or for a file that is not a photo). */
  leitura: LeituraNfce | null;
  lendo: boolean;
  /** The QR filled in the date and the amount (a contingency receipt). */
  preencheu: boolean;
  desabilitado?: boolean;
}

export function CampoNfce({ valor, erro, aoMudar, aoValidar, leitura, lendo, preencheu, desabilitado }: PropsCampoNfce) {
  const digitada = valor.trim() !== '' ? validarChaveNfce(valor) : null;
  const lidaDaFoto = leitura?.estado === 'lida' && digitada?.ok && digitada.valor === leitura.nfce.chave ? leitura.nfce : null;
  return (
    <>
      {lendo && (
        <div className="nfce-leitura" role="status">
          <ScanLine size={16} aria-hidden="true" /> Procurando o QR code da NFC-e na foto...
        </div>
      )}
      {!lendo && lidaDaFoto && (
        <div className="nfce-leitura nfce-leitura--lida" role="status">
          <ScanLine size={16} aria-hidden="true" />
          <div>
            <strong>NFC-e lida</strong>
            <span className="nfce-leitura__resumo">{resumoNfce(lidaDaFoto)}</span>
            {preencheu && <span className="campo__ajuda">Data e valor preenchidos pelo QR code. Confira antes de salvar.</span>}
          </div>
        </div>
      )}
      {!lendo && leitura?.estado === 'invalida' && (
        <div className="alerta alerta--erro" role="alert">
          O QR code da foto é de uma NFC-e, mas {leitura.motivo.charAt(0).toLowerCase() + leitura.motivo.slice(1)}
        </div>
      )}
      {!lendo && leitura?.estado === 'sem-qr' && (
        <div className="nfce-leitura" role="status">
          Não encontramos o QR code da NFC-e na foto. Se o cupom tiver um, digite a chave abaixo.
        </div>
      )}
      <Campo
        rotulo={ROTULO_CHAVE_NFCE}
        erro={erro}
        ajuda={digitada?.ok && !lidaDaFoto ? `NFC-e: ${resumoNfce(lerChaveNfce(digitada.valor))}` : 'Opcional. Fica abaixo do QR code, no rodapé do cupom.'}
      >
        {(p) => (
          <input
            {...p}
            className="entrada entrada--chave-nfce"
            inputMode="text"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            placeholder="0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000"
            value={valor}
            disabled={desabilitado}
            onChange={(e) => aoMudar(e.target.value)}
            onBlur={() => aoValidar(digitada && !digitada.ok ? digitada.motivo : null)}
          />
        )}
      </Campo>
    </>
  );
}
