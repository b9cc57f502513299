/** Replaced at build time by the version in package.json (vite.config.ts `define`). */
declare const __VERSAO_APP__: string | undefined;
