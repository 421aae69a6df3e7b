/**
 * Where the server's blocking time comes from (`--only=headers`, not in the default run): the
 * real server behind small proxies that each drop some response headers, or refuse the service
 * worker's script so no worker is installed, with Lighthouse on /login and Home through each,
 * the variants taking turns within every round so the machine's load falls on all alike. Run
 * throttled (Lighthouse's simulated slow 4G and 4× slower CPU, as the web section) and not
 * (`provided`: the machine as it is), starting from Lighthouse's about:blank and from a page of
 * another site (as the web section and a player arriving by a link). Each run's long tasks are
 * kept with the script Chromium gave them to, and the trace's renderer count and main-thread
 * CPU time, so the blocking time can be read by its source.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { median, round } from '../lib/stats.ts';
import type { ReadServer } from './read.ts';
import { lighthouseRound, type StartPage } from './web.ts';

/** Response headers the security plugin sets on a document (plugins/security.ts). */
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

interface Variant {
  name: string;
  /** Response headers the proxy leaves out. */
  drop: string[];
  /** The service worker's script answered 404, so no worker is installed. */
  noServiceWorker?: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'as the server sends them', drop: [] },
  { name: 'without Cross-Origin-Opener-Policy', drop: ['cross-origin-opener-policy'] },
  { name: 'without Content-Security-Policy', drop: ['content-security-policy'] },
  { name: 'without Origin-Agent-Cluster', drop: ['origin-agent-cluster'] },
  { name: 'none of the security headers', drop: SECURITY_HEADERS },
  { name: 'as sent, no service worker', drop: [], noServiceWorker: true },
];

interface Row {
  screen: string;
  throttling: 'simulate' | 'provided';
  from: StartPage;
  variants: string[];
}

/** Which variants each page, throttling and starting page runs. */
const PLAN: Row[] = [
  // Lighthouse's own start, where the blocking time was seen.
  {
    screen: '/login',
    throttling: 'simulate',
    from: 'about:blank',
    variants: VARIANTS.map((v) => v.name),
  },
  {
    screen: '/Home',
    throttling: 'simulate',
    from: 'about:blank',
    variants: ['as the server sends them', 'without Cross-Origin-Opener-Policy'],
  },
  {
    screen: '/login',
    throttling: 'provided',
    from: 'about:blank',
    variants: ['as the server sends them', 'without Cross-Origin-Opener-Policy'],
  },
  // A player's arrival from a link on another site, as the web section measures.
  {
    screen: '/login',
    throttling: 'simulate',
    from: 'another site',
    variants: ['as the server sends them', 'without Cross-Origin-Opener-Policy'],
  },
];

async function startProxy(target: string, variant: Variant) {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    if (variant.noServiceWorker && request.url?.split('?')[0] === '/sw.js') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        const headers = { ...answer.headers };
        for (const name of variant.drop) delete headers[name];
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function runHeaderStudy(
  server: ReadServer,
  options: RunOptions,
): Promise<ScenarioResult> {
  const rounds = Number(process.env.BENCH_HEADER_ROUNDS ?? 3);
  const proxies = new Map<string, Awaited<ReturnType<typeof startProxy>>>();
  for (const variant of VARIANTS) proxies.set(variant.name, await startProxy(server.url, variant));
  const figures: Figure[] = [];
  const details: Record<string, unknown>[] = [];
  let failed = 0;
  try {
    for (const { screen, throttling, from, variants } of PLAN) {
      const runs = new Map<string, Array<Awaited<ReturnType<typeof lighthouseRound>>>>();
      const loads: number[] = [];
      for (let r = 1; r <= rounds; r += 1) {
        for (const name of variants) {
          const proxy = proxies.get(name);
          if (!proxy) continue;
          options.log(
            `headers: ${screen} ${throttling} from ${from}, ${name}, round ${r} of ${rounds}`,
          );
          loads.push(round(os.loadavg()[0] ?? 0, 1));
          const report = `headers${screen.replace('/', '-')}-${throttling}-${from === 'about:blank' ? 'blank' : 'site'}-${VARIANTS.findIndex((v) => v.name === name)}-${r}`;
          // A round whose trace came back broken twice (a crowded machine) is left out and
          // counted, rather than ending the study.
          const run = await lighthouseRound(proxy.url, screen, server.token, report, options.log, {
            throttling,
            from,
          }).catch((error: unknown) => {
            options.log(`headers: ${report} failed (${String(error)}); left out`);
            failed += 1;
            return null;
          });
          if (run) runs.set(name, [...(runs.get(name) ?? []), run]);
        }
      }
      for (const name of variants) {
        const list = runs.get(name) ?? [];
        // The long tasks' time by where Chromium put it, summed per run, median over runs.
        const sources = new Set(list.flatMap((run) => run.longTasks.map((task) => task.url)));
        const bySource = Object.fromEntries(
          [...sources].map((source) => [
            source || '(none)',
            Math.round(
              median(
                list.map((run) =>
                  run.longTasks
                    .filter((task) => task.url === source)
                    .reduce((sum, task) => sum + task.duration, 0),
                ),
              ),
            ),
          ]),
        );
        const tbt = list.map((run) => Math.round(run.tbtMs));
        const performance = list.map((run) => run.performance);
        const cpu = list.map((run) => Math.round(run.mainThreadCpuMs));
        const wall = list.map((run) => Math.round(run.mainThreadWallMs));
        const renderers = list.map((run) => run.renderers);
        details.push({
          screen,
          throttling,
          from,
          variant: name,
          tbt,
          performance,
          mainThreadCpuMs: cpu,
          mainThreadWallMs: wall,
          renderers,
          bySource,
        });
        figures.push({
          section: 'headers',
          name: `${screen} ${throttling === 'simulate' ? 'throttled' : 'unthrottled'} from ${from}, ${name}`,
          value: null,
          unit: '',
          display: `perf ${median(performance)}, TBT ${median(tbt)} ms, main thread ${median(cpu)} ms CPU / ${median(wall)} ms wall`,
          note: `TBT by round ${tbt.join(', ')} ms; renderers ${renderers.join(', ')}; load ${Math.min(...loads)}–${Math.max(...loads)}`,
        });
      }
    }
  } finally {
    for (const proxy of proxies.values()) await proxy.close();
  }
  return { figures, details: { rounds, failedRuns: failed, runs: details }, problems: [] };
}
