// The server's Content-Security-Policy allows no 'unsafe-eval' (plugins/security.ts). zod probes
// for eval with `new Function('')` the first time it parses an object, and although it catches
// the refusal, Chromium reports it as a policy violation (a failing best-practices audit in
// Lighthouse). Told not to compile its parsers, zod never probes.
//
// zod keeps its settings in one object on globalThis, shared by every copy of it. Setting it
// there, rather than through zod's config(), keeps zod's code out of the first screen's script:
// whichever loads first, zod or this, both end up with the same object.
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodSettings.__zod_globalConfig ??= {};
zodSettings.__zod_globalConfig.jitless = true;
