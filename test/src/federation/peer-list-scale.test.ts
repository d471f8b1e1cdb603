// The operator's peer list and federation status with many peers (#43 item 3, docs/api.md#peers): pages
// in registration order with an opaque cursor and a capped limit, counts by state, bad paging refused
// with its own code and changing nothing, the summary for anyone else with no peer in it, the real CLI's
// `federation status` paging; and the query plans that keep a thousand peers cheap: the peer lookup of
// every signed request by key id, and a page of the list, are index lookups.
import { runCli } from '@tributary/test';
import { PEER_BY_KEY_ID_SQL, peerPageSql } from '@tributary/projections';
import { publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import { browser, chromiumAvailable } from '@tributary/test';
import { checkPage, launchBrowser, newWatchedPage, signInInBrowser } from '../e2e/web-kit.js';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { password, startNode, type Loose, type Node } from './federation-helpers.js';

const N = 60;

describe('the operator’s peer list with many peers', () => {
  let g: Node;
  const ids: string[] = []; // in registration order

  beforeAll(async () => {
    g = await startNode('global', 'Scale G');
    // Registered as an operator does, through the API, one after another (registration order is the order).
    for (let i = 0; i < N; i++) {
      const id = randomUUID();
      const r = await g.operator.post('/api/federation/peers', {
        peerId: id,
        baseUrl: `http://127.0.0.1:9/p/${i}`,
        role: 'person',
        publicKey: publicKeyBase64url(generateSigningKey().publicKey),
        name: `Peer ${i}`,
      });
      assert.equal(r.status, 201, r.text);
      ids.push(id);
    }
    for (const id of [ids[3]!, ids[40]!]) {
      const r = await g.operator.call('PATCH', '/api/federation/peers', {
        peerId: id,
        blocked: true,
        reason: 'test',
      });
      assert.equal(r.status, 200, r.text);
    }
  });
  afterAll(async () => {
    await g?.instance.destroy();
  });

  test('given 60 peers, when the operator reads them 25 a page, then each comes once in registration order, with the counts by state on every page', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const r = await g.operator.get(`/api/federation/peers?limit=25${after ? `&after=${after}` : ''}`);
      assert.equal(r.status, 200, r.text);
      const result = r.json.result as Loose;
      assert.ok(result.peers.length <= 25);
      seen.push(...(result.peers as Loose[]).map((p) => p.peerId as string));
      assert.deepEqual(result.summary, {
        total: N,
        reachable: 0,
        failing: 0,
        unknown: N - 2,
        blocked: 2,
        lag: { pushBehind: 0, pushMaxBehind: 0, pullBehind: 0, pullMaxBehind: 0 },
      });
      after = result.next as string | null;
      pages++;
    } while (after);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids);
  });

  test('given a state, then only the peers in it are listed, and a default page is 50', async () => {
    const blocked = await g.operator.get('/api/federation/peers?state=blocked');
    assert.equal(blocked.status, 200, blocked.text);
    assert.deepEqual(
      (blocked.json.result.peers as Loose[]).map((p) => [p.peerId, p.state, p.blocked]),
      [
        [ids[3], 'blocked', true],
        [ids[40], 'blocked', true],
      ],
    );
    assert.equal(blocked.json.result.next, null);
    const first = await g.operator.get('/api/federation/peers');
    assert.equal(first.json.result.peers.length, 50);
    assert.equal(typeof first.json.result.next, 'string');
  });

  test('given a limit above 200, a limit that is not a whole number, or a cursor no page gave, then problem+json with its code, on the REST route, the operation and the status alike', async () => {
    const forged = Buffer.from(`peers1:not a time|${ids[0]}`).toString('base64url');
    const cases: [string, string][] = [
      ['/api/federation/peers?limit=201', 'federation.bad_page_limit'],
      ['/api/federation/peers?limit=0', 'federation.bad_page_limit'],
      ['/api/federation/peers?limit=2.5', 'federation.bad_page_limit'],
      ['/api/federation/peers?limit=ten', 'federation.bad_page_limit'],
      ['/api/federation/peers?after=%25%25', 'federation.bad_cursor'],
      [`/api/federation/peers?after=${forged}`, 'federation.bad_cursor'],
      ['/api/federation/peers?state=asleep', 'input.invalid'],
      ['/api/federation/status?limit=500', 'federation.bad_page_limit'],
      ['/api/federation/status?after=xyz', 'federation.bad_cursor'],
    ];
    for (const [path, code] of cases) {
      const r = await g.operator.get(path);
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/, path);
      assert.equal(r.json.code, code, path);
    }
    const op = await g.operator.post('/api/ops/svc.federation.list_peers', { limit: 1000 });
    assert.equal(op.status, 400, op.text);
    assert.equal(op.json.code, 'federation.bad_page_limit');
  });

  test('given the status, then the operator gets a page of cursors with the counts and the lag; another person and anyone get the counts only', async () => {
    const mine = await g.operator.get('/api/federation/status?limit=10');
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.json.cursors.length, 10);
    assert.deepEqual(
      (mine.json.cursors as Loose[]).map((p) => p.peerId),
      ids.slice(0, 10),
    );
    assert.equal(typeof mine.json.next, 'string');
    assert.deepEqual(mine.json.peers, { total: N, blocked: 2, reachable: 0, failing: 0, unknown: N - 2 });
    assert.ok(mine.json.lag);

    const other = browser(g.url);
    const signup = await other.post('/api/auth/signup', { handle: 'not_the_op', password, name: 'Someone' });
    assert.equal(signup.status, 201, signup.text);
    const theirs = await other.get('/api/federation/status?limit=10');
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.json.cursors, undefined);
    assert.equal(theirs.json.peers.total, N);
    const list = await other.get('/api/federation/peers');
    assert.equal(list.status, 403, list.text);
    const anyone = await fetch(`${g.url}/api/federation/status?limit=999`);
    assert.equal(anyone.status, 200, 'the query is not read for anyone but the operator');
    const body = (await anyone.json()) as Loose;
    assert.equal(body.cursors, undefined);
    assert.equal(body.peers.total, N);
  });

  test('given federation status (the real CLI), then it prints the counts and a page, and the flags page on', async () => {
    const first = await runCli(g.instance, ['federation', 'status', '--limit', '5']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^peers: 60 \(0 reachable, 0 failing, 58 not contacted yet, 2 blocked\)$/m);
    assert.match(first.stdout, /^lag: push 0 behind/m);
    for (const id of ids.slice(0, 5)) assert.match(first.stdout, new RegExp(`^${id}  person`, 'm'));
    assert.doesNotMatch(first.stdout, new RegExp(ids[5]!));
    const more = /^more peers: tributary federation status --after (\S+) --limit 5$/m.exec(first.stdout);
    assert.ok(more, first.stdout);

    const second = await runCli(g.instance, ['federation', 'status', '--limit', '5', '--after', more[1]!]);
    assert.equal(second.code, 0, second.stderr);
    for (const id of ids.slice(5, 10)) assert.match(second.stdout, new RegExp(`^${id}  person`, 'm'));
    assert.doesNotMatch(second.stdout, new RegExp(ids[4]!));

    const blocked = await runCli(g.instance, ['federation', 'status', '--state', 'blocked', '--json']);
    assert.equal(blocked.code, 0, blocked.stderr);
    const json = JSON.parse(blocked.stdout) as Loose;
    assert.deepEqual(
      (json.peers as Loose[]).map((p) => p.peerId),
      [ids[3], ids[40]],
    );
    assert.equal(json.summary.total, N);

    const tooMany = await runCli(g.instance, ['federation', 'status', '--limit', '500']);
    assert.notEqual(tooMany.code, 0);
    assert.match(tooMany.stderr + tooMany.stdout, /federation\.bad_page_limit/);
  });

  test.skipIf(!chromiumAvailable())(
    'given the operator page in a real browser, then it shows the counts, 50 peers and a link to the rest; a state link lists that state; a cursor no page gave is named and the first page shown',
    async () => {
      const browser = await launchBrowser();
      try {
        const w = await newWatchedPage(browser);
        const { page } = w;
        await signInInBrowser(page, g.url, 'op_global', password);
        await page.goto(`${g.url}/operator`);
        const peersCard = page.locator('#peers');
        await peersCard.getByText('60 peers:').waitFor();
        const rows = peersCard.locator('table tbody tr');
        assert.equal(await rows.count(), 50);
        await checkPage(w, 'operator-peers-paged');
        await peersCard.getByRole('link', { name: 'Next 50 peers' }).click();
        await page.waitForURL(/after=/);
        assert.equal(await rows.count(), 10);
        assert.match((await rows.first().textContent()) ?? '', /Peer 50\b/);
        await peersCard.getByRole('link', { name: 'First page' }).waitFor();
        await peersCard.getByRole('link', { name: '2 blocked' }).click();
        await page.waitForURL(/state=blocked/);
        assert.equal(await rows.count(), 2);
        await page.goto(`${g.url}/operator?after=not-a-cursor`);
        await page.locator('[data-error-code="federation.bad_cursor"]').waitFor();
        assert.equal(await rows.count(), 50);
      } finally {
        await browser.close();
      }
    },
  );

  test('given a thousand peers, then the peer lookup by key id and a page after a cursor are index scans, not scans of the peers', async () => {
    // The plan, not the timing: 1,000 peers' rows as the peers projection writes them, then ANALYZE.
    const db = new pg.Client({ connectionString: g.instance.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO rm_peers (peer_id, agent_id, name, base_url, role, secret_hash, registered_at, updated_at)
         SELECT 'bulk-' || i, 'agent-' || i, 'Bulk ' || i, 'http://127.0.0.1:9/b/' || i, 'person', 'x',
                now() + i * interval '1 ms', now()
           FROM generate_series(1, 1000) AS i`,
      );
      await db.query(
        `INSERT INTO rm_peer_keys (peer_id, key_id, public_key, valid_from)
         SELECT 'bulk-' || i, 'ed25519:bulk' || i, 'k' || i, now() FROM generate_series(1, 1000) AS i`,
      );
      await db.query('ANALYZE rm_peers; ANALYZE rm_peer_keys');
      const plan = async (text: string, params: unknown[]) =>
        (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const byKey = await plan(PEER_BY_KEY_ID_SQL, ['ed25519:bulk500']);
      assert.match(byKey, /Index Scan using rm_peer_keys_key on rm_peer_keys/, byKey);
      assert.doesNotMatch(byKey, /Seq Scan on rm_peer_keys/, byKey);
      assert.doesNotMatch(byKey, /Seq Scan on rm_peers\b/, byKey);
      const { rows } = await db.query<{ registered_at: Date }>(
        `SELECT registered_at FROM rm_peers WHERE peer_id = 'bulk-500'`,
      );
      const page = peerPageSql({
        limit: 51,
        after: { registeredAt: rows[0]!.registered_at.toISOString(), peerId: 'bulk-500' },
      });
      const paged = await plan(page.text, page.params);
      assert.match(paged, /Index Scan using rm_peers_registered on rm_peers/, paged);
      assert.doesNotMatch(paged, /Seq Scan on rm_peers\b/, paged);
      // And the summary still counts every peer, in one query.
      const r = await g.operator.get('/api/federation/peers?limit=1');
      assert.equal(r.json.result.summary.total, N + 1000);
    } finally {
      await db.end();
    }
  });
});
