/** The product mark (also the favicon and the app icon). */
export function Marca({ tamanho = 40 }: { tamanho?: number }) {
  return (
    <svg width={tamanho} height={tamanho} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#1d4ed8" />
      <path d="M18 42V22h6l8 12 8-12h6v20h-6V32l-8 11-8-11v10z" fill="#fff" />
    </svg>
  );
}
