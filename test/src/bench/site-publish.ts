// Benchmark: publishing a site, and how its cost grows with the number of pages.
//
//   10 — POST /api/builder/publish of a 200-page site against the same of a 10-page site, in pages
//        published per second: publish time grows no faster than linearly when the 200-page site
//        publishes at least as many pages per second as the 10-page one (target ≥ 1.0×, the ratio is
//        printed per page). Every publish follows an edit of the footer, which is on every page, so
//        every page's bytes are new and every file is written to the blob store: the worst case.
//   10a — the same publish of a 50-page site (publishes/s; its latency p50/p99 printed) against
//        rendering that draft alone in this process (renderSite + manifest hash, renders/s): how much
//        of a publish is rendering, and how much storing files, the log and HTTP (info).
//
// Each publish is a real request through the session, the pipeline (render, store, append, inline
// projection) and the response; the draft edit before it is untimed. Arms alternate (10 200 50 10 200
// 50 …) within each round; each arm's rate is the median of its rounds.
//
//   benchSitePublish(options?) → Promise<ResultRow[]>
import { draftDocumentSchema, type DraftDocument } from '@tributary/domain';
import { manifestHash, manifestOf, renderSite } from '@tributary/services';
import { browser, startTestInstance } from '@tributary/test';
import { performance } from 'node:perf_hooks';
import { median, type ResultRow } from './bench-kit.js';

export const PUBLISH_SCALING_TARGET = 1.0;
const SIZES = [10, 200, 50] as const;

export interface SitePublishOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A site of `pages` pages, each a heading, a few paragraphs, a link list and a button; `edit` is in the footer. */
function siteDraft(pages: number, edit: string): DraftDocument {
  const paragraph = (i: number) =>
    `Page ${i} of the bench site. *Soups* and **breads** all year, with [the menu](/p${(i % pages) + 1}) ` +
    `and [a friend](https://example.org/${i}). Lorem ipsum dolor sit amet, consectetur adipiscing elit, ` +
    `sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.`;
  return draftDocumentSchema.parse({
    schemaVersion: 1,
    pages: Array.from({ length: pages }, (_, i) => ({
      path: i === 0 ? '/' : `/p${i}`,
      title: i === 0 ? 'Home' : `Page ${i}`,
      description: `The bench site's page ${i}`,
      blocks: [
        { type: 'heading', level: 1, text: `Page ${i}` },
        { type: 'text', markdown: [paragraph(i), paragraph(i + 1), `- one\n- two\n- three`].join('\n\n') },
        {
          type: 'links',
          items: [
            { label: 'Home', url: '/' },
            { label: 'Elsewhere', url: 'https://example.org/' },
          ],
        },
        { type: 'button', label: 'Order', url: '/p1' },
      ],
    })),
    navigation: {
      items: Array.from({ length: Math.min(pages, 8) }, (_, i) => ({
        label: i === 0 ? 'Home' : `Page ${i}`,
        url: i === 0 ? '/' : `/p${i}`,
      })),
    },
    footer: {
      markdown: `© the bench site, edit ${edit}`,
      links: [{ label: 'Mail', url: 'mailto:a@example.org' }],
    },
  });
}

export async function benchSitePublish(options: SitePublishOptions = {}): Promise<ResultRow[]> {
  const rounds = options.rounds ?? 5;
  /** Publishes per arm per round. */
  const perRound = Math.max(2, Math.round(6 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);
  const instance = await startTestInstance();
  try {
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    const sites = new Map<number, { siteId: string; revision: number }>();
    for (const pages of SIZES) {
      const created = await person.post('/api/builder/sites', { title: `Bench ${pages}` });
      if (created.status !== 201) throw new Error(`create_site failed: ${created.text}`);
      sites.set(pages, { siteId: created.json.result.siteId, revision: created.json.result.draftRevision });
    }
    let edits = 0;
    /** Saves an edited draft (untimed), then times one publish of it; returns its milliseconds. */
    const publishOnce = async (pages: number): Promise<number> => {
      const site = sites.get(pages)!;
      const saved = await person.call('PUT', '/api/builder/draft', {
        siteId: site.siteId,
        revision: site.revision,
        document: siteDraft(pages, String(++edits)),
      });
      if (saved.status !== 201) throw new Error(`save_draft failed: ${saved.text}`);
      site.revision = saved.json.result.revision;
      const started = performance.now();
      const published = await person.post('/api/builder/publish', { siteId: site.siteId });
      const ms = performance.now() - started;
      if (published.status !== 200 || published.json.result.published !== true)
        throw new Error(`publish failed: ${published.text}`);
      return ms;
    };

    const times = new Map<number, number[]>(SIZES.map((n) => [n, []]));
    const rates = new Map<number, number[]>(SIZES.map((n) => [n, []]));
    // Warm-up: one publish of each size, untimed.
    for (const pages of SIZES) await publishOnce(pages);
    for (let round = 0; round < rounds; round++) {
      for (const pages of SIZES) {
        let total = 0;
        for (let i = 0; i < perRound; i++) {
          const ms = await publishOnce(pages);
          times.get(pages)!.push(ms);
          total += ms;
        }
        rates.get(pages)!.push((perRound * pages) / (total / 1000));
      }
    }

    // Rendering alone, in this process, of the 50-page draft: the renderer's share of a publish.
    const doc = siteDraft(50, 'render');
    const renderRates: number[] = [];
    const site = { title: 'Bench 50', theme: 'classic' as const, description: '', language: 'en' };
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++)
        manifestHash(manifestOf(renderSite({ document: doc, site, media: new Map(), forms: new Map() })));
      renderRates.push(perRound / ((performance.now() - started) / 1000));
    }

    const ms = (n: number) => n.toFixed(1);
    const latency = (pages: number) => {
      const sorted = [...times.get(pages)!].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    for (const pages of SIZES) {
      const l = latency(pages);
      const perPage = median(times.get(pages)!) / pages;
      log(
        `    ${String(pages).padStart(3)} pages: publish p50 ${ms(l.p50)} ms, p99 ${ms(l.p99)} ms; ` +
          `${perPage.toFixed(2)} ms per page; ${Math.round(median(rates.get(pages)!))} pages/s ` +
          `(rounds ${rates
            .get(pages)!
            .map((r) => Math.round(r))
            .join(' ')})`,
      );
    }
    const perPage10 = median(times.get(10)!) / 10;
    const perPage200 = median(times.get(200)!) / 200;
    log(
      `    time per page, 200 pages ÷ 10 pages: ${(perPage200 / perPage10).toFixed(2)} ` +
        `(≤ 1 is no faster than linear); publish time 200 ÷ 10 pages: ` +
        `${(median(times.get(200)!) / median(times.get(10)!)).toFixed(1)}× for 20× the pages`,
    );
    const l50 = latency(50);
    log(
      `    50-page site: publish p50 ${ms(l50.p50)} ms, p99 ${ms(l50.p99)} ms; rendering it alone ` +
        `${ms(1000 / median(renderRates))} ms`,
    );
    const publishes50 = rates.get(50)!.map((r) => r / 50);
    return [
      {
        name: 'publish per page, 200-page vs 10-page site',
        unit: 'page',
        subject: median(rates.get(200)!),
        baseline: median(rates.get(10)!),
        target: PUBLISH_SCALING_TARGET,
        subjectRates: rates.get(200)!,
        baselineRates: rates.get(10)!,
      },
      {
        name: `publish 50 pages (p50 ${ms(l50.p50)} ms, p99 ${ms(l50.p99)} ms) vs render alone`,
        unit: 'site',
        subject: median(publishes50),
        baseline: median(renderRates),
        subjectRates: publishes50,
        baselineRates: renderRates,
      },
    ];
  } finally {
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/site-publish.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSitePublish({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
