// One password budget per account and per identifier at the global instance, whichever route checked the
// password (sign-in, sso/issue, remote-password/verify), and remote-password/verify answering a peer only
// for accounts it has a standing with: homed at it (its delegated sign-up) or linked to it (an assertion
// was issued for it). Any other account is answered exactly as a wrong password is (docs/sso.md).
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { footprint, register, signedPost, startNode, type Node } from './federation-helpers.js';

const MAX_FAILURES = 3;
const pw = (handle: string) => `${handle} has a password`;
const WRONG = 'not the password at all';

describe('one password budget and a peer’s standing at the global instance', () => {
  let g: Node; // the global instance: holds every password
  let p: Node; // a person instance delegating to it: bea's home; cal was linked to it
  let r: Node; // a group instance registered at the global one, with no standing for anyone
  let beaOnGlobal: string;

  beforeAll(async () => {
    [g, p, r] = await Promise.all([
      startNode('global', 'Global', {
        FEDERATION_SYNC: 'off',
        SIGN_IN_MAX_FAILURES: String(MAX_FAILURES),
        RATE_LIMIT_SSO: '10000/min',
      }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off', SSO_DELEGATION: 'on' }),
      startNode('group', 'Riverside', { FEDERATION_SYNC: 'off' }),
    ]);
    await register(g, p);
    await register(p, g);
    await register(g, r);
    // bea signs up on the person instance: made at the global instance, homed at the person instance.
    const bea = await browser(p.url).post('/api/auth/signup', { handle: 'bea', password: pw('bea') });
    assert.equal(bea.status, 201, bea.text);
    const { rows } = await p.instance.instance.pool.query<{ remote_agent_id: string }>(
      'SELECT remote_agent_id FROM rm_sso_account_links WHERE account_id = $1',
      [bea.json.accountId],
    );
    beaOnGlobal = rows[0]!.remote_agent_id;
    // cal and dan sign up on the global instance; an assertion for the person instance is issued for cal.
    for (const handle of ['cal', 'dan']) {
      const made = await browser(g.url).post('/api/auth/signup', { handle, password: pw(handle) });
      assert.equal(made.status, 201, made.text);
    }
    const issued = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'cal',
      password: pw('cal'),
      audience: p.url,
    });
    assert.equal(issued.status, 200, issued.text);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy(), r?.instance.destroy()]);
  });

  const verify = (asker: Node, identifier: string, password: string) =>
    signedPost(
      asker,
      `${g.url}/api/federation/remote-password/verify`,
      JSON.stringify({ identifier, password }),
    );

  test('given a peer without a standing for an account, when it verifies the right password, then it gets the same 401 as a wrong password and nothing is written', async () => {
    await g.instance.instance.sequencer.drain();
    const before = await footprint(g);
    // The home and the linked peer are answered.
    for (const identifier of ['bea', beaOnGlobal]) {
      const yes = await verify(p, identifier, pw('bea'));
      assert.equal(yes.status, 200, `${identifier}: ${yes.text}`);
      assert.deepEqual(yes.json, { result: { ok: true } });
    }
    const linked = await verify(p, 'cal', pw('cal'));
    assert.equal(linked.status, 200, linked.text);
    // Anyone else is one generic no: a peer with no standing, the right password, an unknown account.
    const refusals = [
      await verify(r, 'bea', pw('bea')),
      await verify(r, beaOnGlobal, pw('bea')),
      await verify(r, 'cal', pw('cal')),
      await verify(p, 'dan', pw('dan')),
      await verify(r, 'dan', pw('dan')),
      await verify(p, 'nobody_here', pw('dan')),
      await verify(p, 'bea', WRONG),
    ];
    for (const [i, no] of refusals.entries()) {
      assert.equal(no.status, 401, `refusal ${i}: ${no.text}`);
      assert.equal(no.json.code, 'sso.password_rejected', `refusal ${i}`);
      assert.deepEqual(Object.keys(no.json).sort(), Object.keys(refusals[0]!.json).sort());
    }
    await g.instance.instance.sequencer.drain();
    assert.deepEqual(await footprint(g), before, 'nothing was written');
    // A refused peer's guesses do not spend the account's budget: its owner still signs in. The right
    // password restores the budgets the refusals spent.
    const owner = await browser(g.url).post('/api/auth/signin', { identifier: 'dan', password: pw('dan') });
    assert.equal(owner.status, 200, owner.text);
    for (const handle of ['bea', 'cal']) assert.equal((await verify(p, handle, pw(handle))).status, 200);
  });

  test('given wrong passwords at sign-in, when the home peer verifies the right password or sso/issue is asked, then both are 429 auth.throttled', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      const wrong = await browser(g.url).post('/api/auth/signin', { identifier: 'bea', password: WRONG });
      assert.equal(wrong.status, 401, wrong.text);
      assert.equal(wrong.json.code, 'auth.invalid_credentials');
    }
    const verified = await verify(p, 'bea', pw('bea'));
    assert.equal(verified.status, 429, verified.text);
    assert.equal(verified.json.code, 'auth.throttled');
    // Named by its agent id, the same account: the same budget.
    const byAgent = await verify(p, beaOnGlobal, pw('bea'));
    assert.equal(byAgent.status, 429, byAgent.text);
    assert.equal(byAgent.json.code, 'auth.throttled');
    const issued = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'bea',
      password: pw('bea'),
      audience: p.url,
    });
    assert.equal(issued.status, 429, issued.text);
    assert.equal(issued.json.code, 'auth.throttled');
    assert.ok(Number(issued.headers.get('retry-after')) > 0);
  });

  test('given wrong passwords through remote-password/verify, when the owner signs in with the right password, then it is 429 auth.throttled and no session starts', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      const wrong = await verify(p, 'cal', WRONG);
      assert.equal(wrong.status, 401, wrong.text);
      assert.equal(wrong.json.code, 'sso.password_rejected');
    }
    await g.instance.instance.sequencer.drain();
    const before = await footprint(g);
    const signIn = await browser(g.url).post('/api/auth/signin', { identifier: 'cal', password: pw('cal') });
    assert.equal(signIn.status, 429, signIn.text);
    assert.equal(signIn.json.code, 'auth.throttled');
    assert.deepEqual(signIn.headers.getSetCookie(), [], 'no session cookie');
    await g.instance.instance.sequencer.drain();
    assert.deepEqual(await footprint(g), before, 'nothing was written');
  });
});
