/**
 * What signed in, in words an admin reads: the browser and the system named from the User-Agent the
 * server kept ('Chrome no Android'). A rough reading on purpose: enough to tell the field phone from
 * the office computer; the full text stays available as the item's title.
 */
const SISTEMAS: [RegExp, string][] = [
  [/Android/i, 'Android'],
  [/iPhone|iPod/i, 'iPhone'],
  [/iPad/i, 'iPad'],
  [/Windows/i, 'Windows'],
  [/CrOS/i, 'Chromebook'],
  [/Mac OS X|Macintosh/i, 'Mac'],
  [/Linux/i, 'Linux'],
];

// Order matters: Edge and Opera also say 'Chrome', Chrome also says 'Safari'.
const NAVEGADORES: [RegExp, string][] = [
  [/SamsungBrowser/i, 'Samsung Internet'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

export function descreverAparelho(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return 'Aparelho desconhecido';
  const sistema = SISTEMAS.find(([padrao]) => padrao.test(ua))?.[1];
  const navegador = NAVEGADORES.find(([padrao]) => padrao.test(ua))?.[1];
  if (navegador && sistema) return `${navegador} no ${sistema}`;
  if (navegador || sistema) return (navegador ?? sistema)!;
  // A script or another client (curl, the executable's own tools): its own first word.
  return ua.split(/[\s/]/)[0] || 'Aparelho desconhecido';
}
