/**
 * The login screen's rescue: writes still on this device, per person, each with 'Exportar
 * pendências', with no session (it is the employee's own phone; the queue is in its IndexedDB
 * anyway). A deactivated employee is logged out and cannot sign in again: without this, their
 * work would be stuck on the phone. The file names the person from the profile the device kept at
 * their last sign-in (offline/perfis.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { sobDemanda } from '../components/sobDemanda';
import { bancoLocal } from '../offline/db';
import { pendenciasDoAparelho } from '../offline/perfis';

// Kept off the first visit's download: the export (the file format and its schemas, zod) loads only
// on a phone that holds another person's writes; the login of every other phone does without it.
const ExportarPendencias = sobDemanda(() => import('../layout/ExportarPendencias').then((m) => m.ExportarPendencias));

/** '12 registros não enviados' / '1 registro não enviado'. */
export function registrosNaoEnviados(n: number): string {
  return n === 1 ? '1 registro não enviado' : `${n} registros não enviados`;
}

const EXPLICACAO =
  'Eles vão para o servidor quando essa conta entrar de novo. Se não for possível entrar (conta desativada, por exemplo), salve-os num arquivo e envie ao escritório, que os importa.';

export function PendenciasNoAparelho() {
  const lista = useLiveQuery(() => pendenciasDoAparelho(bancoLocal), []);
  if (!lista || lista.length === 0) return null;
  return (
    <section className="login__cartao login__pendencias" aria-label="Registros guardados neste aparelho">
      {lista.map(({ usuarioId, quantidade, perfil }) =>
        perfil ? (
          <ExportarPendencias
            key={usuarioId}
            dono={perfil}
            quantidade={quantidade}
            rotulo={`Pendências de ${perfil.nome}`}
            titulo={`Este aparelho guarda ${registrosNaoEnviados(quantidade)} de ${perfil.nome}.`}
            texto={EXPLICACAO}
          />
        ) : (
          // Someone who has not signed in here since the device keeps names: the file could not say whose work it is.
          <section key={usuarioId} className="exportar-pendencias" aria-label={`Pendências do usuário nº ${usuarioId}`}>
            <h3>Este aparelho guarda {registrosNaoEnviados(quantidade)} de outro usuário (nº {usuarioId}).</h3>
            <p className="campo__ajuda">Entre com essa conta para enviá-los ou exportá-los.</p>
          </section>
        ),
      )}
    </section>
  );
}
