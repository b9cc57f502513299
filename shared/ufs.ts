/** The 27 federative units with their IBGE codes: fixed by the constitution, small enough to keep in code (server and client). */
export interface Uf {
  codigo: number;
  uf: string;
  nome: string;
}

export const UFS: readonly Uf[] = [
  { codigo: 11, uf: 'RO', nome: 'Rondônia' },
  { codigo: 12, uf: 'AC', nome: 'Acre' },
  { codigo: 13, uf: 'AM', nome: 'Amazonas' },
  { codigo: 14, uf: 'RR', nome: 'Roraima' },
  { codigo: 15, uf: 'PA', nome: 'Pará' },
  { codigo: 16, uf: 'AP', nome: 'Amapá' },
  { codigo: 17, uf: 'TO', nome: 'Tocantins' },
  { codigo: 21, uf: 'MA', nome: 'Maranhão' },
  { codigo: 22, uf: 'PI', nome: 'Piauí' },
  { codigo: 23, uf: 'CE', nome: 'Ceará' },
  { codigo: 24, uf: 'RN', nome: 'Rio Grande do Norte' },
  { codigo: 25, uf: 'PB', nome: 'Paraíba' },
  { codigo: 26, uf: 'PE', nome: 'Pernambuco' },
  { codigo: 27, uf: 'AL', nome: 'Alagoas' },
  { codigo: 28, uf: 'SE', nome: 'Sergipe' },
  { codigo: 29, uf: 'BA', nome: 'Bahia' },
  { codigo: 31, uf: 'MG', nome: 'Minas Gerais' },
  { codigo: 32, uf: 'ES', nome: 'Espírito Santo' },
  { codigo: 33, uf: 'RJ', nome: 'Rio de Janeiro' },
  { codigo: 35, uf: 'SP', nome: 'São Paulo' },
  { codigo: 41, uf: 'PR', nome: 'Paraná' },
  { codigo: 42, uf: 'SC', nome: 'Santa Catarina' },
  { codigo: 43, uf: 'RS', nome: 'Rio Grande do Sul' },
  { codigo: 50, uf: 'MS', nome: 'Mato Grosso do Sul' },
  { codigo: 51, uf: 'MT', nome: 'Mato Grosso' },
  { codigo: 52, uf: 'GO', nome: 'Goiás' },
  { codigo: 53, uf: 'DF', nome: 'Distrito Federal' },
];

const NOMES_UF = new Map(UFS.map((u) => [u.uf, u.nome]));

/** 'GO' -> 'Goiás'; an unknown code is shown as is. */
export function nomeDaUf(uf: string): string {
  return NOMES_UF.get(uf) ?? uf;
}
