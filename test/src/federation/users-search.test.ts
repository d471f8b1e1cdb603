// The user search for peer apps between real instances on loopback: G holds the accounts, P (a
// registered peer) searches with signed GET requests. Only local persons' public profiles, capped and
// paged; a person who opted out of discovery (svc.account.set_discoverable) never appears; unsigned
// requests, bad queries and bursts are refused with stable codes.
import { contentDigest, signatureHeaders, SIGNATURE_ALGORITHM } from '@tributary/adapters';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { password, register, startNode, type Loose, type Node } from './federation-helpers.js';

describe('user search for peer apps (GET /api/federation/users/search)', () => {
  let g: Node;
  let p: Node;
  const people: Record<string, ReturnType<typeof browser>> = {};

  const search = async (query: string, from: Pick<Node, 'keyId' | 'privateKey'> = p) => {
    const url = `${g.url}/api/federation/users/search?${query}`;
    const headers = signatureHeaders(
      { method: 'GET', targetUri: url, contentDigest: contentDigest('') },
      {
        created: Math.floor(Date.now() / 1000),
        nonce: randomBytes(16).toString('base64url'),
        keyid: from.keyId,
        alg: SIGNATURE_ALGORITHM,
      },
      (base) => sign(null, base, from.privateKey),
    );
    const res = await fetch(url, { headers });
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text) as Loose, text, headers: res.headers };
  };

  beforeAll(async () => {
    [g, p] = await Promise.all([
      startNode('global', 'Global', { FEDERATION_SYNC: 'off' }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off' }),
    ]);
    await register(g, p);
    for (const [handle, name] of [
      ['ada', 'Ada Lovelace'],
      ['adam', 'Adam Smith'],
      ['grace', 'Grace Hopper'],
      ['alan', 'Alan Turing'],
    ] as const) {
      const b = browser(g.url);
      const r = await b.post('/api/auth/signup', { handle, password, name, email: `${handle}@example.org` });
      assert.equal(r.status, 201, r.text);
      people[handle] = b;
    }
    // A persona of Ada's is a public agent, not a user.
    const persona = await people.ada!.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada bot',
      handle: 'adabot',
    });
    assert.equal(persona.status, 201, persona.text);
    const bio = await people.ada!.post('/api/ops/svc.profile.update', { bio: 'Analyst' });
    assert.equal(bio.status, 201, bio.text);
  });
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy()]);
  });

  test('given a signed search, then local persons match by handle prefix or name, with their public fields only', async () => {
    const r = await search('q=ad');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (r.json.results as Loose[]).map((x) => x.handle).sort(),
      ['ada', 'adam'],
      'no persona, no operator',
    );
    const ada = (r.json.results as Loose[]).find((x) => x.handle === 'ada')!;
    assert.deepEqual(Object.keys(ada).sort(), ['agentId', 'avatarUrl', 'bio', 'handle', 'name']);
    assert.equal(ada.bio, 'Analyst');
    assert.equal(r.json.next, null);
    assert.ok(!r.text.includes('@example.org'), 'never an email');
    const byName = await search('q=HOPP');
    assert.deepEqual(
      (byName.json.results as Loose[]).map((x) => x.handle),
      ['grace'],
    );
    const wildcard = await search(`q=${encodeURIComponent('%_')}`);
    assert.deepEqual(wildcard.json.results, [], 'LIKE characters are matched literally');
  });

  test('given a small page, then results come in pages by cursor, each capped', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r = await search(`q=a&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.results.length <= 1);
      seen.push(...(r.json.results as Loose[]).map((x) => x.handle as string));
      cursor = r.json.next;
      if (!cursor) break;
    }
    // Every person with an account whose handle or name holds an a: the operator too.
    assert.deepEqual(seen.sort(), ['ada', 'adam', 'alan', 'grace', 'op_global']);
    const tooMany = await search('q=a&limit=51');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.code, 'users_search.bad_query');
  });

  test('given a person who opts out of discovery, then they never appear; opting in again brings them back', async () => {
    const out = await people.adam!.post('/api/ops/svc.account.set_discoverable', { discoverable: false });
    assert.equal(out.status, 201, out.text);
    assert.deepEqual(out.json.result, { discoverable: false });
    assert.deepEqual(
      (out.json.events as Loose[]).map((e) => e.type),
      ['account.discovery_set'],
    );
    for (const q of ['q=ad', 'q=adam', 'q=smith', 'q=a&limit=50'])
      assert.ok(!((await search(q)).json.results as Loose[]).some((x) => x.handle === 'adam'), q);
    const back = await people.adam!.post('/api/ops/svc.account.set_discoverable', { discoverable: true });
    assert.equal(back.status, 201, back.text);
    assert.ok(((await search('q=adam')).json.results as Loose[]).some((x) => x.handle === 'adam'));
  });

  test('given unsigned, session, badly signed or bad requests, then stable codes', async () => {
    const unsigned = await fetch(`${g.url}/api/federation/users/search?q=ada`);
    assert.equal(unsigned.status, 401);
    assert.equal(((await unsigned.json()) as Loose).code, 'federation.signature_required');
    const session = await people.ada!.get('/api/federation/users/search?q=ada');
    assert.equal(session.status, 401);
    const stranger = await search('q=ada', {
      keyId: `${p.keyId.slice(0, -2)}${p.keyId.endsWith('AA') ? 'BB' : 'AA'}`,
      privateKey: p.privateKey,
    });
    assert.equal(stranger.status, 401);
    assert.equal(stranger.json.code, 'federation.unknown_peer');
    for (const q of ['q=', `q=${'x'.repeat(101)}`, 'q=ada&cursor=nope', 'q=ada&sort=name', 'limit=5'])
      assert.equal((await search(q)).json.code, 'users_search.bad_query', q);
  });

  test('given a burst of searches from one peer, then 429 users_search.rate_limited with Retry-After', async () => {
    let refused: Awaited<ReturnType<typeof search>> | null = null;
    for (let i = 0; i < 70 && !refused; i++) {
      const r = await search('q=grace');
      if (r.status === 429) refused = r;
      else assert.equal(r.status, 200, r.text);
    }
    assert.ok(refused, 'the burst was never refused');
    assert.equal(refused.json.code, 'users_search.rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);

    // The count is the instance's, in PostgreSQL, not the process's: another process (here the instance
    // restarted, with none of the old one's memory) refuses the peer too while the window lasts.
    const { rows } = await g.instance.instance.pool.query<{ window_start: Date; count: number }>(
      'SELECT window_start, count FROM rate_window_counts WHERE key = $1',
      [`users-search:${p.id}`],
    );
    assert.ok(rows[0] && rows[0].count > 60, JSON.stringify(rows));
    const windowEnds = rows[0].window_start.getTime() + 60_000;
    g.instance = await g.instance.restart();
    const after = await search('q=grace');
    if (Date.now() < windowEnds - 1000) {
      assert.equal(after.status, 429, after.text);
      assert.equal(after.json.code, 'users_search.rate_limited');
    } else assert.equal(after.status, 200, `the window had passed: ${after.text}`);
  });
});
