import { useSyncExternalStore } from 'react';

/** The browser's view of connectivity (navigator.onLine and its events). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (avisar) => {
      window.addEventListener('online', avisar);
      window.addEventListener('offline', avisar);
      return () => {
        window.removeEventListener('online', avisar);
        window.removeEventListener('offline', avisar);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}
