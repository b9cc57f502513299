/**
 * Amounts written out in pt-BR words ('mil duzentos e oitenta reais e cinquenta centavos'), as a cheque
 * or a receipt writes them: the phone reads an unusual amount back this way before saving it, so a slip
 * of the thumb (1.000.000,00 for 100,00) is seen in words, not only in digits.
 *
 * The rules: 100 is 'cem', 101-199 'cento e ...'; 'e' between hundreds, tens and units; between
 * groups of thousands only before the last group when it is below 100 or whole hundreds ('mil e
 * quinhentos', 'mil duzentos e oitenta'); 1.000 is 'mil' (never 'um mil'); an amount of whole millions
 * takes 'de reais' ('um milhão de reais'); singular 'real'/'centavo' only for 1 (zero is plural).
 */

const UNIDADES = ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove'];
const DEZ_A_DEZENOVE = ['dez', 'onze', 'doze', 'treze', 'quatorze', 'quinze', 'dezesseis', 'dezessete', 'dezoito', 'dezenove'];
const DEZENAS = ['', '', 'vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa'];
const CENTENAS = ['', 'cento', 'duzentos', 'trezentos', 'quatrocentos', 'quinhentos', 'seiscentos', 'setecentos', 'oitocentos', 'novecentos'];

/** The name of each group of three digits after the units: [singular, plural]; 'mil' has no plural. */
const ESCALAS: [string, string][] = [
  ['mil', 'mil'],
  ['milhão', 'milhões'],
  ['bilhão', 'bilhões'],
  ['trilhão', 'trilhões'],
  ['quatrilhão', 'quatrilhões'],
];

/** 1-999 in words. */
function ate999(n: number): string {
  if (n === 100) return 'cem';
  const partes: string[] = [];
  const c = Math.floor(n / 100);
  const resto = n % 100;
  if (c > 0) partes.push(CENTENAS[c]!);
  if (resto >= 20) {
    partes.push(DEZENAS[Math.floor(resto / 10)]!);
    if (resto % 10 > 0) partes.push(UNIDADES[resto % 10]!);
  } else if (resto >= 10) partes.push(DEZ_A_DEZENOVE[resto - 10]!);
  else if (resto > 0) partes.push(UNIDADES[resto]!);
  return partes.join(' e ');
}

/** A whole number (0 up to Number.MAX_SAFE_INTEGER) in words: 1280 -> 'mil duzentos e oitenta'. */
export function numeroPorExtenso(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Número inválido para escrever por extenso: ${n}`);
  if (n === 0) return UNIDADES[0]!;
  // Groups of three digits, the units' first.
  const grupos: number[] = [];
  for (let resto = n; resto > 0; resto = Math.floor(resto / 1000)) grupos.push(resto % 1000);
  const partes: { texto: string; valor: number }[] = [];
  for (let i = grupos.length - 1; i >= 0; i--) {
    const g = grupos[i]!;
    if (g === 0) continue;
    if (i === 0) partes.push({ texto: ate999(g), valor: g });
    else if (i === 1) partes.push({ texto: g === 1 ? 'mil' : `${ate999(g)} mil`, valor: g });
    else {
      const [singular, plural] = ESCALAS[i - 1]!;
      partes.push({ texto: `${ate999(g)} ${g === 1 ? singular : plural}`, valor: g });
    }
  }
  const ultima = partes[partes.length - 1]!;
  if (partes.length === 1) return ultima.texto;
  // 'e' before the last group only when it is below 100 or whole hundreds.
  const comE = ultima.valor < 100 || ultima.valor % 100 === 0;
  const anteriores = partes.slice(0, -1).map((p) => p.texto).join(' ');
  return `${anteriores}${comE ? ' e ' : ' '}${ultima.texto}`;
}

/**
 * An amount in integer centavos written out: 128050 -> 'mil duzentos e oitenta reais e cinquenta
 * centavos', 100000000 -> 'um milhão de reais', 50 -> 'cinquenta centavos', 0 -> 'zero reais'.
 */
export function valorPorExtenso(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) throw new RangeError(`Valor em centavos deve ser inteiro: ${centavos}`);
  if (centavos < 0) return `menos ${valorPorExtenso(-centavos)}`;
  const reais = Math.floor(centavos / 100);
  const resto = centavos % 100;
  const textoCentavos = `${numeroPorExtenso(resto)} ${resto === 1 ? 'centavo' : 'centavos'}`;
  if (reais === 0 && resto > 0) return textoCentavos;
  // Whole millions (or billions...) read 'um milhão de reais', as the noun needs its 'de'.
  const de = reais >= 1_000_000 && reais % 1_000_000 === 0 ? 'de ' : '';
  const textoReais = `${numeroPorExtenso(reais)} ${de}${reais === 1 ? 'real' : 'reais'}`;
  return resto > 0 ? `${textoReais} e ${textoCentavos}` : textoReais;
}
