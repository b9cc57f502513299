/**
 * Navigation for code outside the router's tree: the app-wide news watch and its toasts are mounted
 * by the providers, around the router (app/Provedores.tsx), where useNavigate does not reach. The
 * router registers itself here (main.tsx; the tests' render helper does the same).
 */
let navegarNoApp: ((endereco: string) => void) | null = null;

export function definirNavegacao(navegar: ((endereco: string) => void) | null): void {
  navegarNoApp = navegar;
}

/** Opens an address of the app without reloading it (a full load if no router registered yet). */
export function navegarPara(endereco: string): void {
  if (navegarNoApp) navegarNoApp(endereco);
  else window.location.assign(endereco);
}
