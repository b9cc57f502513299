/**
 * The user types and their labels, with no zod: the app shell (menu, route guard) needs them on
 * the first screen, which loads no schema library. usuarios.ts re-exports them.
 */
export const TIPOS_USUARIO = ['admin', 'funcionario'] as const;
export type TipoUsuario = (typeof TIPOS_USUARIO)[number];

/** How a tipo is shown to people. */
export const ROTULO_TIPO: Record<TipoUsuario, string> = {
  admin: 'Administrador',
  funcionario: 'Funcionário',
};
