/** Hands a file to the browser's download (an exported report, a table as CSV). */
export function baixarArquivo(arquivo: Blob, nome: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(arquivo);
  link.download = nome;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
