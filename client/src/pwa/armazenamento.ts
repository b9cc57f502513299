/** Persistent storage and the space the app uses on the device (shown in the sync panel). */
import { formatarNumero } from '../../../shared/numeros';

export async function pedirArmazenamentoPersistente(): Promise<boolean> {
  try {
    if (!navigator.storage?.persist) return false;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}

export interface UsoArmazenamento {
  usadoBytes: number;
  cotaBytes: number;
  persistente: boolean;
}

export async function lerUsoArmazenamento(): Promise<UsoArmazenamento | null> {
  try {
    if (!navigator.storage?.estimate) return null;
    const { usage = 0, quota = 0 } = await navigator.storage.estimate();
    const persistente = (await navigator.storage.persisted?.()) ?? false;
    return { usadoBytes: usage, cotaBytes: quota, persistente };
  } catch {
    return null;
  }
}

/** 1536 -> '1,5 KB'; 5_300_000 -> '5,1 MB'. */
export function formatarBytes(bytes: number): string {
  const unidades = ['bytes', 'KB', 'MB', 'GB'];
  let valor = bytes;
  let i = 0;
  while (valor >= 1024 && i < unidades.length - 1) {
    valor /= 1024;
    i += 1;
  }
  const casas = i === 0 ? 0 : valor < 10 ? 1 : 0;
  return `${formatarNumero(valor, casas)} ${unidades[i]}`;
}
