/**
 * The e-mail shape every form and the server accept, the rule of HTML's <input type="email">
 * (accepts 'admin@localhost', the default first admin). Its own module without zod, so the login
 * screen checks it without loading the schema library (the first screen of a new phone).
 */
export const PADRAO_EMAIL = /^[^\s@]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
