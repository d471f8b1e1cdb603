// Benchmark: serving a published page, against a bare node:http server answering the same bytes.
//
//   subject  — GET / with `Host: <label>.<SITES_DOMAIN>` on a running instance: the site server in front
//              of the application (host → site in memory, manifest lookup, the LRU of bytes, the strict
//              headers, ETag), for a page published through svc.builder.publish at an address claimed first;
//   baseline — a bare `node:http` server in the same process answering the same bytes from memory with
//              only Content-Type and Content-Length.
//
// Client: one child process (http-load-client.ts), the same for both arms, with 10 keep-alive
// connections each carrying one request at a time; it checks every answer (200, the page's length).
// Arms alternate (A B A B …); each arm's rate is the median of its rounds; p50/p99 over sampled requests.
//
//   benchSiteServing(options?) → Promise<SiteServingRow[]>
import { browser, startTestInstance } from '@tributary/test';
import { compareServing, getBody, startBareServer, type ServingRow } from './serving-comparison.js';

export const SITE_SERVING_TARGET = 0.5;
const LABEL = 'benchsite';

export type SiteServingRow = ServingRow;

export interface SiteServingOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

export async function benchSiteServing(options: SiteServingOptions = {}): Promise<SiteServingRow[]> {
  const rounds = options.rounds ?? 5;
  const requests = Math.max(2000, Math.round(20_000 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);

  const instance = await startTestInstance();
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    // Setup (untimed): a person publishes their default site and claims an address for it.
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    // The address first: a publish without one would take one made from the title.
    const claimed = await person.post('/api/builder/address', { label: LABEL });
    if (claimed.status !== 201 && claimed.status !== 200) throw new Error(`claim failed: ${claimed.text}`);
    const published = await person.post('/api/ops/svc.builder.publish', {});
    if (published.status !== 201) throw new Error(`publish failed: ${published.text}`);
    const host = `${LABEL}.${instance.instance.config.SITES_DOMAIN}`;
    const sitePort = Number(new URL(instance.url).port);
    await instance.sites.refresh(null);
    const page = await getBody(sitePort, '/', host);
    if (page.status !== 200) throw new Error(`the published page answers ${page.status}`);

    bare = await startBareServer(page.body, 'text/html; charset=utf-8');
    const row = await compareServing({
      name: 'site page, site server vs bare node:http',
      subject: { port: sitePort, host, path: '/' },
      baseline: { port: bare.port, host: '127.0.0.1', path: '/' },
      requests,
      rounds,
      expectLength: page.body.length,
      target: SITE_SERVING_TARGET,
      what: 'page',
      log,
    });
    return [row];
  } finally {
    await bare?.close();
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/site-serving.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSiteServing({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
