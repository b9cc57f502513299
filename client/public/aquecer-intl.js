/*
 * Issue 19: the warm-up of Intl. A page's first Intl object starts ICU (its data, its caches), ~25-40 ms
 * on a desktop and 100-190 ms with the CPU 4x slower, measured on the main thread in the middle of the
 * app's start. ICU is shared by every thread of the page: this file, loaded by index.html before the
 * app, starts itself again as a worker, which uses the app's kinds of formats (pt-BR money and numbers,
 * pt-BR name order, dates in the business time zone) on another core and ends. The app's own first
 * formats then cost ~1 ms (measured: docs/decisions.md, "Intl aquecido num worker").
 *
 * Only a warm-up: if workers are blocked or missing, or the app formats first, nothing changes but
 * the time. The formats in shared/ are built on first use (shared/aoPrimeiroUso.ts), so none is
 * built while the app's modules load. Plain script (no bundler, no imports): it must run before the
 * app's bundle.
 */
(function () {
  'use strict';
  if (typeof document !== 'undefined') {
    var eu = document.currentScript;
    if (typeof Worker === 'undefined' || !eu) return;
    try {
      new Worker(eu.src, { name: 'aquecer-intl' });
    } catch {
      // Refused (policy, no support): the app's first format starts ICU itself.
    }
    return;
  }
  try {
    var agora = new Date();
    var fuso = 'America/Sao_Paulo'; // APP_TZ's default (shared/dates.ts); another zone adds only its own rules.
    new Intl.DateTimeFormat('en-CA', { timeZone: fuso, year: 'numeric', month: '2-digit', day: '2-digit' }).format(agora);
    new Intl.DateTimeFormat('pt-BR', { timeZone: fuso, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(agora);
    new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(1.5);
    new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 }).format(1500);
    new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true }).compare('Íris', 'Maria');
  } catch {
    // A format this browser lacks: the app meets the same when it formats, and says so there.
  } finally {
    self.close();
  }
})();
