// The site server follows the log across processes: a publication or suspension written by one instance
// process is in another's in-memory index at once (LISTEN/NOTIFY), after its LISTEN connection is cut
// (it listens again and reloads), and through the change-count poll alone.
import { createPgSiteServingSource } from '@tributary/infra';
import { commitEvents, type Services } from '@tributary/services';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInstance, type TestInstance } from '../harness/instance.js';

const manifest = [
  { path: '/index.html', sha256: 'a'.repeat(64), contentType: 'text/html; charset=utf-8', length: 10 },
];

async function owner(services: Services): Promise<string> {
  return (await services.instance.read.get())!.primaryAgentId;
}

/** A site with one published version, written as the builder's operations write it. */
async function publishSite(services: Services): Promise<{ siteId: string; versionId: string }> {
  const siteId = randomUUID();
  const versionId = randomUUID();
  const ownerAgentId = await owner(services);
  const stream = `site-${siteId}`;
  await commitEvents(
    services,
    [stream],
    () => [
      { stream, type: 'site.created', data: { siteId, ownerAgentId, title: 'T', isDefault: false } },
      {
        stream,
        type: 'site.version_created',
        data: { versionId, draftRevision: 1, manifestHash: 'b'.repeat(64), manifest },
      },
      {
        stream,
        type: 'site.published',
        data: { siteId, ownerAgentId, versionId, manifestHash: 'b'.repeat(64), manifest, title: 'T' },
      },
    ],
    ownerAgentId,
  );
  return { siteId, versionId };
}

async function suspend(services: Services, siteId: string, reason: string): Promise<void> {
  const stream = `site-${siteId}`;
  await commitEvents(
    services,
    [stream],
    () => [{ stream, type: 'site.suspended', data: { siteId, reason } }],
    await owner(services),
  );
}

async function eventually<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

let a: TestInstance;
let b: TestInstance;

beforeAll(async () => {
  // No poll to speak of: what B learns, it learns by LISTEN.
  a = await startTestInstance({ env: { SITES_CHANGE_POLL_SECONDS: '3600' } });
  b = await startTestInstance({
    env: { SITES_CHANGE_POLL_SECONDS: '3600' },
    reuse: { databaseUrl: a.databaseUrl, dataDir: a.dataDir, drop: async () => undefined },
  });
});

afterAll(async () => {
  await b?.stop();
  await a?.destroy();
});

describe('following changes across processes', () => {
  it('sees a publication and a suspension written by another process within moments', async () => {
    const { siteId, versionId } = await publishSite(a.instance.services);
    expect(
      await eventually(
        () => b.sites.lookup(siteId),
        (v) => v !== undefined,
        2000,
      ),
    ).toEqual({
      versionId,
      suspendedReason: null,
      files: 1,
    });
    await suspend(a.instance.services, siteId, 'spam');
    expect(
      (
        await eventually(
          () => b.sites.lookup(siteId),
          (v) => v?.suspendedReason === 'spam',
          2000,
        )
      )?.suspendedReason,
    ).toBe('spam');
    // The writer itself hears it the same way.
    // (by its own NOTIFY, so it may come a moment after B's)
    expect(
      (
        await eventually(
          () => a.sites.lookup(siteId),
          (v) => v?.suspendedReason === 'spam',
          2000,
        )
      )?.suspendedReason,
    ).toBe('spam');
  });

  it('listens again after its LISTEN connection is cut, and catches up on what it missed', async () => {
    const admin = new pg.Client({ connectionString: a.databaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN tributary_site_serving%'`,
      );
      expect(rows[0]!.n).toBe(2);
    } finally {
      await admin.end();
    }
    // Written while nobody listens: seen once they listen again (they reload everything then).
    const { siteId, versionId } = await publishSite(a.instance.services);
    expect(
      (
        await eventually(
          () => b.sites.lookup(siteId),
          (v) => v !== undefined,
          10_000,
        )
      )?.versionId,
    ).toBe(versionId);
    // And notifications flow again afterwards.
    await suspend(a.instance.services, siteId, 'again');
    expect(
      (
        await eventually(
          () => b.sites.lookup(siteId),
          (v) => v?.suspendedReason === 'again',
          2000,
        )
      )?.suspendedReason,
    ).toBe('again');
  });

  it('hears a change through the count poll alone when it cannot listen', async () => {
    const pool = new pg.Pool({ connectionString: a.databaseUrl, max: 3, application_name: 'poll-only' });
    const heard: (string | null)[] = [];
    const source = createPgSiteServingSource(pool, pino({ level: 'silent' }), {
      pollMs: 100,
      reconnectMs: 60_000,
    });
    const stop = await source.subscribe!((id) => heard.push(id));
    try {
      const admin = await pool.connect();
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE application_name = 'poll-only' AND query LIKE 'LISTEN tributary_site_serving%'`,
      );
      admin.release();
      expect(rows[0]!.n).toBe(1);
      const { siteId } = await publishSite(a.instance.services);
      expect(
        await eventually(
          () => heard,
          (h) => h.includes(siteId),
          3000,
        ),
      ).toContain(siteId);
    } finally {
      await stop();
      await pool.end();
    }
  });
});
