// sso/issue's request budget between real instances on loopback (docs/sso.md#limits): a delegating
// sovereign's signed sign-ins all come from its one address, so they are counted per peer and per
// person's identifier — one person's burst does not lock out the sovereign's other users — while unsigned
// callers keep their per-address budget, which the signed requests do not spend.
import { generateSigningKey } from '@tributary/infra';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';

import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, signedPost, startNode, type Node } from './federation-helpers.js';

const BUDGET = 3;

describe('sso/issue budgets: per peer and identifier when signed, per address otherwise', () => {
  let g: Node;
  let p: Node;

  beforeAll(async () => {
    [g, p] = await Promise.all([
      startNode('global', 'Global', { FEDERATION_SYNC: 'off', RATE_LIMIT_SSO: `${BUDGET}/min` }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off' }),
    ]);
    await register(g, p);
    await register(p, g);
    for (const handle of ['ada', 'bea']) {
      const made = await browser(g.url).post('/api/auth/signup', { handle, password: `${handle} password` });
      assert.equal(made.status, 201, made.text);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy()]);
  });

  const issue = (identifier: string) =>
    JSON.stringify({ identifier, password: `${identifier} password`, audience: p.url });

  test('given a signed burst for one person, then that person waits and the peer’s other people and unsigned callers do not', async () => {
    const url = `${g.url}/api/federation/sso/issue`;
    for (let i = 0; i < BUDGET; i++) {
      const ok = await signedPost(p, url, issue('ada'));
      assert.equal(ok.status, 200, ok.text);
    }
    const over = await signedPost(p, url, issue('ada'));
    assert.equal(over.status, 429, over.text);
    assert.equal(over.json.code, 'request.rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    // Another person signing in through the same sovereign has a budget of their own.
    const bea = await signedPost(p, url, issue('bea'));
    assert.equal(bea.status, 200, bea.text);
    // An unsigned caller from the same address was not charged for the peer's requests.
    for (let i = 0; i < BUDGET; i++) {
      const direct = await browser(g.url).post('/api/federation/sso/issue', JSON.parse(issue('bea')));
      assert.equal(direct.status, 200, direct.text);
    }
    const directOver = await browser(g.url).post('/api/federation/sso/issue', JSON.parse(issue('bea')));
    assert.equal(directOver.status, 429);
    assert.equal(directOver.json.code, 'request.rate_limited');
    // A request that carries a signature must verify: a forged one is refused before any password check.
    const forger = { keyId: p.keyId, privateKey: generateSigningKey().privateKey };
    const forged = await signedPost(forger, url, issue('bea'));
    assert.equal(forged.status, 401);
    assert.equal(forged.json.code, 'federation.bad_signature');
  });
});
