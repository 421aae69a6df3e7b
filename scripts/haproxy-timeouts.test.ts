import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../src/server/test/app.ts';
import { testDatabasePerFile } from '../src/server/test/database.ts';

// Who closes an idle keep-alive connection must be the side that says so first: a client that
// writes a request on a connection its peer is closing gets no answer, and the balancer counts
// no error. deploy/haproxy.cfg is the config of compose.yaml and of npm run cluster.
const config = readFileSync(
  fileURLToPath(new URL('../deploy/haproxy.cfg', import.meta.url)),
  'utf8',
);
const database = testDatabasePerFile();

/** A `timeout <name> <n>s` of the defaults section, in milliseconds. */
function timeoutMs(name: string): number {
  const match = new RegExp(`^\\s*timeout ${name} (\\d+)(ms|s|m)\\s*$`, 'm').exec(config);
  if (!match) throw new Error(`deploy/haproxy.cfg has no "timeout ${name}"`);
  const unit = { ms: 1, s: 1_000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
  return Number(match[1]) * unit;
}

describe('keep-alive timeouts between clients, HAProxy and the instances', () => {
  it("tells clients an idle timeout shorter than HAProxy's own, not the instances'", () => {
    const hint = /^\s*http-response set-header Keep-Alive "timeout=(\d+)"\s*$/m.exec(config);
    expect(hint, 'HAProxy passes the instances’ Keep-Alive hint on').not.toBeNull();
    const hintMs = Number(hint?.[1]) * 1_000;
    // At least a second's margin for a client whose event loop lags under load.
    expect(hintMs).toBeLessThanOrEqual(timeoutMs('http-keep-alive') - 1_000);
    expect(hintMs).toBeGreaterThan(0);
  });

  it('keeps idle connections from HAProxy open longer than HAProxy waits on them', async () => {
    const app = await buildTestApp(database());
    // HAProxy reuses its idle connections to the instances; an instance closing one first
    // would lose the request HAProxy writes on it at that moment.
    expect(app.server.keepAliveTimeout).toBeGreaterThan(timeoutMs('server'));
    expect(app.server.keepAliveTimeout).toBeGreaterThan(timeoutMs('http-keep-alive'));
  });
});
