// The server's Content-Security-Policy allows no 'unsafe-eval' (plugins/security.ts). zod probes
// for eval with `new Function('')` the first time it parses an object, and although it catches
// the refusal, Chromium reports it as a policy violation (a failing best-practices audit in
// Lighthouse). Told not to compile its parsers (`jitless`), zod never probes.
//
// Set on the object zod keeps its settings in (`globalThis.__zod_globalConfig`, which zod's
// `config()` writes and every copy of zod reads), not through an import of zod: importing it
// here, first of all, put the whole library (~25 KB gzip) into the chunk every screen loads.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = Object.assign(scope.__zod_globalConfig ?? {}, { jitless: true });
