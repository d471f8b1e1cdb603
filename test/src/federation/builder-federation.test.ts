// A peer's published site is the peer's, not ours: its federable site events (site.published,
// site.rolled_back, site.suspended) are imported into the log like any other, and never folded into
// this instance's builder read models, so they never show up as local sites.
import { commitEvents, defaultSiteId } from '@tributary/services';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  clientOf,
  ownEvents,
  password,
  register,
  startNode,
  type Loose,
  type Node,
} from './federation-helpers.js';

const ids = { sha256: (s: string) => createHash('sha256').update(s).digest('hex') };

describe('builder events across peers', () => {
  let a: Node; // publishes a site
  let b: Node; // imports A's events
  beforeAll(async () => {
    [a, b] = await Promise.all([startNode('group', 'Riverside'), startNode('global', 'Global')]);
    await register(b, a);
    await register(a, b);
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  const builderRows = async (node: Node) => {
    const { rows } = await node.instance.instance.pool.query(
      `SELECT (SELECT count(*) FROM rm_builder_sites) AS sites, (SELECT count(*) FROM rm_builder_drafts) AS drafts,
              (SELECT count(*) FROM rm_builder_versions) AS versions`,
    );
    return rows[0] as Record<string, string>;
  };

  test('given a site published and suspended on A, when B imports A’s feed, then the events are in B’s log and B has no builder site', async () => {
    const ada = browser(a.url);
    const signed = await ada.post('/api/auth/signup', { handle: 'ada', password });
    assert.equal(signed.status, 201, signed.text);
    const agentId = signed.json.agentId as string;
    // The first site is the default one, under the id derived from its owner.
    assert.equal((await ada.post('/api/builder/sites', { title: 'ada' })).status, 201);
    const siteId = defaultSiteId(ids, agentId);
    const stream = `site-${siteId}`;
    const manifest = [{ path: '/', sha256: 'a'.repeat(64), contentType: 'text/html', length: 3 }];
    const publication = {
      siteId,
      ownerAgentId: agentId,
      versionId: 'v1',
      manifestHash: 'b'.repeat(64),
      manifest,
    };
    await commitEvents(
      a.instance.instance.services,
      [stream],
      () => [
        {
          stream,
          type: 'site.version_created',
          data: { versionId: 'v1', draftRevision: 1, manifestHash: 'b'.repeat(64), manifest },
        },
        { stream, type: 'site.published', data: { ...publication, title: 'ada' } },
        { stream, type: 'site.suspended', data: { siteId, reason: 'test' } },
      ],
      agentId,
    );

    const texts = await ownEvents(a, (e: Loose) => String(e.type).startsWith('site.'));
    assert.deepEqual(
      texts.map((t) => JSON.parse(t).type),
      ['site.published', 'site.suspended'],
      'only the public, federable site events are on the feed (not the site, its draft or its versions)',
    );
    const before = await builderRows(b);
    const summary = await clientOf(a).importEvents(b.url, await ownEvents(a));
    assert.equal(summary.rejected, 0, JSON.stringify(summary.results.filter((r) => r.status === 'rejected')));
    const { rows } = await b.instance.instance.pool.query(
      `SELECT type, stream FROM events WHERE origin = $1 AND type LIKE 'site.%' ORDER BY position`,
      [a.id],
    );
    assert.deepEqual(
      rows.map((r) => r.type),
      ['site.published', 'site.suspended'],
    );
    assert.ok(
      rows.every((r) => r.stream === `${a.id}/${stream}`),
      'under the origin’s namespaced stream',
    );
    assert.deepEqual(await builderRows(b), before);
    assert.deepEqual(before, { sites: '0', drafts: '0', versions: '0' });
    // A has its own site, published and suspended.
    const own = await a.instance.instance.pool.query(
      'SELECT published_version_id, suspended_reason FROM rm_builder_sites WHERE site_id = $1',
      [siteId],
    );
    assert.deepEqual(own.rows, [{ published_version_id: 'v1', suspended_reason: 'test' }]);
  });
});
