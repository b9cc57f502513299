/** Tabs (Ativos / Inativos / Bloqueados, Em aberto / Fechadas, ...). */
export interface Aba<T extends string> {
  valor: T;
  rotulo: string;
}

export function Abas<T extends string>({ abas, atual, aoMudar, rotulo }: { abas: Aba<T>[]; atual: T; aoMudar: (v: T) => void; rotulo: string }) {
  return (
    <div className="abas" role="tablist" aria-label={rotulo}>
      {abas.map((aba) => (
        <button
          key={aba.valor}
          type="button"
          role="tab"
          className="abas__aba"
          aria-selected={aba.valor === atual}
          onClick={() => aoMudar(aba.valor)}
        >
          {aba.rotulo}
        </button>
      ))}
    </div>
  );
}
