import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTANCES_MARKER, localHaproxyConfig } from './cluster-config.ts';

const template = readFileSync(
  fileURLToPath(new URL('../deploy/haproxy.cfg', import.meta.url)),
  'utf8',
);

describe('the local HAProxy config of npm run cluster', () => {
  const config = localHaproxyConfig(template, {
    balancerPort: 18080,
    statsPort: 18404,
    instancePorts: [13001, 13002, 13003, 13004],
  });

  it('keeps every setting of deploy/haproxy.cfg above the instances', () => {
    const shared = template.slice(0, template.indexOf(INSTANCES_MARKER));
    const lines = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#') && !line.startsWith('bind '));
    expect(lines(config).slice(0, lines(shared).length)).toEqual(lines(shared));
    expect(config).toContain('balance roundrobin');
    expect(config).toContain('http-check send meth GET uri /api/health/ready');
    expect(config).toContain('http-request set-header X-Forwarded-For %[src]');
  });

  it('listens on loopback at the given ports', () => {
    expect(config).toMatch(/^\s+bind 127\.0\.0\.1:18080$/m);
    expect(config).toMatch(/^\s+bind 127\.0\.0\.1:18404$/m);
    expect(config).not.toMatch(/bind :/);
  });

  it('has one checked server per local process and nothing of Docker', () => {
    expect(config.match(/^\s+server .*$/gm)?.map((line) => line.trim())).toEqual([
      'server app1 127.0.0.1:13001 check',
      'server app2 127.0.0.1:13002 check',
      'server app3 127.0.0.1:13003 check',
      'server app4 127.0.0.1:13004 check',
    ]);
    expect(config).not.toContain('resolvers');
    expect(config).not.toContain('app1:3000');
  });

  it('refuses a template it no longer understands, rather than guess', () => {
    expect(() =>
      localHaproxyConfig(template.replace(INSTANCES_MARKER, '# servers'), {
        balancerPort: 1,
        statsPort: 2,
        instancePorts: [3],
      }),
    ).toThrow(/marker/);
    expect(() =>
      localHaproxyConfig(template.replace('bind :8080', 'bind *:80'), {
        balancerPort: 1,
        statsPort: 2,
        instancePorts: [3],
      }),
    ).toThrow(/bind :8080/);
  });
});
