export function Carregando({ texto = 'Carregando...', tela = false }: { texto?: string; tela?: boolean }) {
  return (
    <div className={tela ? 'tela-carregando' : 'tela-carregando tela-carregando--bloco'} role="status" aria-live="polite">
      <div className="girando" aria-hidden="true" />
      <span>{texto}</span>
    </div>
  );
}
