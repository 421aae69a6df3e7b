import { z } from 'zod';

// The server's Content-Security-Policy allows no 'unsafe-eval' (plugins/security.ts). zod probes
// for eval with `new Function('')` the first time it parses an object, and although it catches
// the refusal, Chromium reports it as a policy violation (a failing best-practices audit in
// Lighthouse). Told not to compile its parsers, zod never probes.
z.config({ jitless: true });
