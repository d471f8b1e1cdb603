// Reserved handles: the built-in list (admin, root, support, …) and the ones the operators add are refused
// on every sign-up path — the instance's own sign-up, a delegating sovereign's sign-up, and a peer's
// delegated sign-up at the global instance — with account.handle_reserved, and nothing is written.
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { password, register, signedPost, startNode, type Node } from './federation-helpers.js';

const BUILT_IN = [
  'admin',
  'root',
  'support',
  'operator',
  'tributary',
  'security',
  'postmaster',
  'www',
  'null',
];

describe('reserved handles on every sign-up path', () => {
  let g: Node; // the global instance
  let p: Node; // a person instance delegating sign-up to it

  beforeAll(async () => {
    [g, p] = await Promise.all([
      startNode('global', 'Global', { FEDERATION_SYNC: 'off' }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off', SSO_DELEGATION: 'on' }),
    ]);
    await register(g, p);
    await register(p, g);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy()]);
  });

  const eventCount = async (node: Node) => {
    await node.instance.instance.sequencer.drain();
    const { rows } = await node.instance.instance.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM events',
    );
    return Number(rows[0]!.n);
  };
  const delegated = (handle: string) =>
    signedPost(
      p,
      `${g.url}/api/federation/signup`,
      JSON.stringify({ requestKey: `signup-${randomBytes(16).toString('hex')}`, handle, password }),
    );

  test('given a reserved handle, when anyone signs up with it directly, through a delegating instance or as a peer’s delegated sign-up, then it is 400 account.handle_reserved and nothing is written anywhere', async () => {
    const before = [await eventCount(g), await eventCount(p)];
    for (const handle of BUILT_IN) {
      const direct = await browser(g.url).post('/api/auth/signup', { handle, password });
      assert.equal(direct.status, 400, `${handle}: ${direct.text}`);
      assert.equal(direct.json.code, 'account.handle_reserved', handle);
      const viaSovereign = await browser(p.url).post('/api/auth/signup', { handle, password });
      assert.equal(viaSovereign.status, 400, `${handle}: ${viaSovereign.text}`);
      assert.equal(viaSovereign.json.code, 'account.handle_reserved', handle);
      const asPeer = await delegated(handle);
      assert.equal(asPeer.status, 400, `${handle}: ${asPeer.text}`);
      assert.equal(asPeer.json.code, 'account.handle_reserved', handle);
    }
    assert.deepEqual([await eventCount(g), await eventCount(p)], before, 'nothing was written');
    // An ordinary handle goes through every path.
    assert.equal((await browser(g.url).post('/api/auth/signup', { handle: 'adam', password })).status, 201);
    assert.equal((await browser(p.url).post('/api/auth/signup', { handle: 'pia', password })).status, 201);
    const ok = await delegated('quinn');
    assert.equal(ok.status, 200, ok.text);
  });

  test('given a handle the operators reserved, then sign-up with it is refused on every path, and freeing it again lets it through', async () => {
    const set = await g.operator.post('/api/ops/svc.instance.update_settings', {
      reservedHandles: ['river_council', 'helpdesk'],
    });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(set.json.result.reservedHandles, ['helpdesk', 'river_council']);
    const before = await eventCount(g);
    const direct = await browser(g.url).post('/api/auth/signup', { handle: 'helpdesk', password });
    assert.equal(direct.status, 400, direct.text);
    assert.equal(direct.json.code, 'account.handle_reserved');
    const asPeer = await delegated('river_council');
    assert.equal(asPeer.status, 400, asPeer.text);
    assert.equal(asPeer.json.code, 'account.handle_reserved');
    const viaSovereign = await browser(p.url).post('/api/auth/signup', { handle: 'helpdesk', password });
    assert.equal(viaSovereign.json.code, 'account.handle_reserved', 'the global instance’s list holds');
    assert.equal(await eventCount(g), before, 'nothing was written');
    // Not a handle: refused as input, the list unchanged.
    const bad = await g.operator.post('/api/ops/svc.instance.update_settings', {
      reservedHandles: ['Not A Handle'],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'input.invalid');

    const freed = await g.operator.post('/api/ops/svc.instance.update_settings', { reservedHandles: [] });
    assert.deepEqual(freed.json.result.reservedHandles, []);
    assert.equal(
      (await browser(g.url).post('/api/auth/signup', { handle: 'helpdesk', password })).status,
      201,
    );
  });
});
