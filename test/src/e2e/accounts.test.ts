// Accounts, sessions, personas and the error edges, through the real HTTP surface of a running instance.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';

describe('accounts over HTTP', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Riverside Allotments', SIGN_IN_MAX_FAILURES: '3' },
    });
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a fresh instance, when the first person signs up, then they are signed in and become its operator', async () => {
    const ada = browser(instance.url);
    const r = await ada.post('/api/auth/signup', {
      email: 'Ada@Example.org',
      handle: 'ada',
      password,
      name: 'Ada',
    });
    assert.equal(r.status, 201);
    assert.ok(r.json.agentId);
    assert.equal(r.json.session, undefined, 'the session secret travels only in the cookie');
    const cookie = r.headers.getSetCookie()[0]!;
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    const me = await ada.get('/api/auth/me');
    assert.equal(me.status, 200);
    assert.equal(me.json.email, 'ada@example.org');
    assert.equal(me.json.isOperator, true);
    assert.equal(me.json.agent.kind, 'person');

    const ben = browser(instance.url);
    assert.equal((await ben.post('/api/auth/signup', { handle: 'ben', password })).status, 201);
    assert.equal((await ben.get('/api/auth/me')).json.isOperator, false);
  });

  test('given a taken email or handle, when someone signs up with it, then 409 with a code and nothing is written', async () => {
    // The previous test's sign-ups must be sequenced before the head is taken (the sequencer may be
    // mid-pass, or another transaction in the cluster may hold the horizon back for a moment).
    await instance.instance.sequencer.drain();
    const before = await instance.instance.services.store.readAll({ since: 0, limit: 1 });
    const r1 = await browser(instance.url).post('/api/auth/signup', { email: 'ada@example.org', password });
    assert.equal(r1.status, 409);
    assert.equal(r1.json.code, 'account.email_taken');
    assert.match(r1.headers.get('content-type')!, /application\/problem\+json/);
    const r2 = await browser(instance.url).post('/api/auth/signup', { handle: 'ada', password });
    assert.equal(r2.status, 409);
    assert.equal(r2.json.code, 'agent.handle_taken');
    await instance.instance.sequencer.drain();
    const afterwards = await instance.instance.services.store.readAll({ since: 0, limit: 1 });
    assert.equal(afterwards.head, before.head);
  });

  test('given bad sign-up input, then 400 input.invalid naming the fields', async () => {
    const r = await browser(instance.url).post('/api/auth/signup', {
      email: 'not-an-email',
      password: 'short',
      extra: 1,
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'input.invalid');
    const paths = (r.json.issues as { path: string }[]).map((i) => i.path);
    assert.ok(paths.includes('email') && paths.includes('password'));
    const neither = await browser(instance.url).post('/api/auth/signup', { password });
    assert.equal(neither.json.code, 'account.identifier_required');
  });

  test('given an account, when signing in with the right or wrong password, then a session or 401; repeated failures are throttled with Retry-After', async () => {
    const good = browser(instance.url);
    const ok = await good.post('/api/auth/signin', { identifier: 'ADA@example.org', password });
    assert.equal(ok.status, 200);
    assert.equal((await good.get('/api/auth/me')).json.handle, 'ada');

    const unknown = await browser(instance.url).post('/api/auth/signin', { identifier: 'nobody', password });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.json.code, 'auth.invalid_credentials');

    const attacker = browser(instance.url);
    for (let i = 0; i < 3; i++) {
      const r = await attacker.post('/api/auth/signin', { identifier: 'ben', password: 'wrong password!!' });
      assert.equal(r.json.code, 'auth.invalid_credentials');
    }
    const blocked = await attacker.post('/api/auth/signin', { identifier: 'ben', password });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.json.code, 'auth.throttled');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
  });

  test('given a session, when signing out, then the cookie stops working', async () => {
    const c = browser(instance.url);
    await c.post('/api/auth/signin', { identifier: 'ada', password });
    const stolen = c.cookie;
    assert.equal((await c.post('/api/auth/signout')).status, 204);
    const replay = await fetch(instance.url + '/api/auth/me', { headers: { cookie: stolen } });
    assert.equal(replay.status, 401);
  });

  test('given a person, when they create a persona and act for it, then only they control it (404 for others)', async () => {
    const ada = browser(instance.url);
    await ada.post('/api/auth/signin', { identifier: 'ada', password });
    const created = await ada.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada the cook',
      handle: 'ada_cooks',
    });
    assert.equal(created.status, 201);
    const persona = created.json.result;
    assert.equal(persona.kind, 'persona');
    assert.deepEqual(
      created.json.events.map((e: { type: string }) => e.type),
      ['handle.claimed', 'agent.created'],
    );
    const list = await ada.post('/api/ops/svc.agent.list_personas', {});
    assert.deepEqual(
      list.json.result.personas.map((p: { agentId: string }) => p.agentId),
      [persona.agentId],
    );
    const updated = await ada.post('/api/ops/svc.profile.update', {
      targetAgentId: persona.agentId,
      bio: 'Soups.',
    });
    assert.equal(updated.json.result.bio, 'Soups.');

    const ben = browser(instance.url);
    await ben.post('/api/auth/signin', { identifier: 'ben', password }).catch(() => undefined);
    // ben may still be throttled from the previous test; sign up a fresh person instead.
    const cy = browser(instance.url);
    await cy.post('/api/auth/signup', { handle: 'cyd', password });
    const theirs = await cy.post('/api/ops/svc.profile.read', { targetAgentId: persona.agentId });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.json.code, 'agent.not_found');
    const missing = await cy.post('/api/ops/svc.profile.read', {
      targetAgentId: '00000000-0000-4000-8000-000000000000',
    });
    assert.deepEqual(missing.json.code, theirs.json.code, 'someone else’s agent and no agent look the same');
    const persona2 = await cy.post('/api/ops/svc.agent.create_persona', {
      name: 'Cy',
      targetAgentId: persona.agentId,
    });
    assert.equal(persona2.status, 404);
  });

  test('given the operator, then the instance agent and its personas are theirs to act for', async () => {
    const ada = browser(instance.url);
    await ada.post('/api/auth/signin', { identifier: 'ada', password });
    const ctx = await ada.post('/api/ops/svc.instance.context', {});
    assert.equal(ctx.json.result.instance.role, 'group');
    const primary = ctx.json.result.instance.primaryAgentId;
    const asGroup = await ada.post('/api/ops/svc.profile.update', {
      targetAgentId: primary,
      bio: 'Plots by the river.',
    });
    assert.equal(asGroup.status, 201);
    assert.equal(asGroup.json.result.name, 'Riverside Allotments');
    const cy = browser(instance.url);
    await cy.post('/api/auth/signin', { identifier: 'cyd', password });
    assert.equal((await cy.post('/api/ops/svc.profile.read', { targetAgentId: primary })).status, 404);
    assert.equal(
      (await cy.post('/api/ops/svc.admin.grant_controller', { account: 'cyd' })).json.code,
      'auth.controller_only',
    );
  });

  test('given bad requests, then problem+json with stable codes', async () => {
    const c = browser(instance.url);
    const unknownRoute = await c.get('/api/nope');
    assert.equal(unknownRoute.status, 404);
    assert.equal(unknownRoute.json.code, 'route.not_found');
    const malformed = await c.call('POST', '/api/auth/signin', '{"identifier":', {});
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.code, 'request.malformed_json');
    const huge = await c.post('/api/auth/signin', { identifier: 'x', password: 'y'.repeat(2 * 1024 * 1024) });
    assert.equal(huge.status, 413);
    assert.equal(huge.json.code, 'request.too_large');
    const form = await fetch(instance.url + '/api/auth/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'identifier=ada&password=x',
    });
    assert.equal(form.status, 415);
    const crossOrigin = await c.post(
      '/api/auth/signin',
      { identifier: 'ada', password },
      { origin: 'https://evil.example' },
    );
    assert.equal(crossOrigin.status, 403);
    assert.equal(crossOrigin.json.code, 'request.cross_origin');
    const anonymous = await c.post('/api/ops/svc.profile.read', {});
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'auth.required');
    const unknownOp = await c.post('/api/ops/svc.nope', {});
    assert.equal(unknownOp.json.code, 'operation.not_found');
  });

  test('given the feed, then only federable public events appear, in sequence order, with head and hasMore; bad queries are 400', async () => {
    await instance.instance.sequencer.drain();
    const c = browser(instance.url);
    const page = await c.get('/api/federation/events?since=0&limit=2');
    assert.equal(page.status, 200);
    assert.equal(page.json.events.length, 2);
    assert.equal(page.json.hasMore, true);
    const all = await c.get('/api/federation/events?since=0&limit=500');
    const types = new Set(all.json.events.map((e: { event: { type: string } }) => e.event.type));
    assert.ok(types.has('instance.initialized') && types.has('agent.created'));
    for (const t of ['account.registered', 'session.started', 'email.claimed'])
      assert.ok(!types.has(t), `${t} is private`);
    const seqs = all.json.events.map((e: { sequence: number }) => e.sequence);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a: number, b: number) => a - b),
    );
    for (const q of ['since=-1', 'since=abc', 'limit=0', 'limit=501', 'since=1.5']) {
      const r = await c.get(`/api/federation/events?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.code, 'feed.bad_query', q);
    }
    const past = await c.get(`/api/federation/events?since=${all.json.head + 1000}`);
    assert.equal(past.status, 400);
    assert.equal(past.json.code, 'feed.since_after_head');
  });

  test('given a person, when they read their own events, then they see their signed history, private events included but no password hash', async () => {
    const ada = browser(instance.url);
    await ada.post('/api/auth/signin', { identifier: 'ada', password });
    const mine = await ada.post('/api/ops/svc.log.read_mine', {});
    assert.equal(mine.status, 200);
    const types = mine.json.result.events.map((e: { event: { type: string } }) => e.event.type);
    for (const t of ['account.registered', 'agent.created', 'session.started', 'handle.claimed'])
      assert.ok(types.includes(t), t);
    const registered = mine.json.result.events.find(
      (e: { event: { type: string } }) => e.event.type === 'account.registered',
    );
    assert.equal(registered.event.data.passwordHash, '[redacted]');
    assert.match(registered.event.sig, /^[A-Za-z0-9_-]{86}$/);
    const cyd = browser(instance.url);
    await cyd.post('/api/auth/signin', { identifier: 'cyd', password });
    const theirs = await cyd.post('/api/ops/svc.log.read_mine', {});
    assert.ok(
      !theirs.json.result.events.some(
        (e: { event: { data: { handle?: string } } }) => e.event.data.handle === 'ada',
      ),
      'nobody sees another person’s events here',
    );
  });

  test('given everything above, when the instance restarts, then accounts, sessions and the key are kept', async () => {
    const ada = browser(instance.url);
    await ada.post('/api/auth/signin', { identifier: 'ada', password });
    const instanceId = instance.instance.instanceId;
    instance = await instance.restart();
    assert.equal(instance.instance.instanceId, instanceId);
    const me = await fetch(instance.url + '/api/auth/me', { headers: { cookie: ada.cookie } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { handle: string }).handle, 'ada');
  });
});
