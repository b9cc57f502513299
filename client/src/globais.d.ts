/** Replaced at build time by the version in package.json (vite.config.ts `define`). */
declare const __VERSAO_APP__: string | undefined;
/** The default APP_TZ's offsets around the build (vite.config.ts `define`, shared/fusos.ts). */
declare const __TABELA_FUSO_PADRAO__: unknown;
