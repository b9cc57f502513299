/**
 * zod, as the shared schemas and the client import it. zod compiles object parsers with
 * `new Function` when it may, and probes for that when the first object schema is built. The app's
 * Content-Security-Policy has no 'unsafe-eval' (server/src/app.ts), so in the browser the probe is
 * refused and reported as a CSP violation, even though zod then falls back. There it runs
 * `jitless`, which skips the probe; the server (no CSP) keeps the compiled parsers.
 * Every module that builds schemas imports `z` from here, so this runs before the first one is built.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
