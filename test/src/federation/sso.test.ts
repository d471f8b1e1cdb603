// Single sign-on between three real instances on loopback — a global instance, a person instance and a
// group instance, each with its own database, with background push and pull running (docs/sso.md): a
// person whose password the global instance holds signs in on the person instance; lands on the group
// instance from the global one as a read-only remote viewer; replays, other audiences, expired
// assertions and assertions from a peer not allowed to issue them are refused with one generic code and
// write nothing; revoking at home ends the remote viewer on the peer within the stated bound; with the
// global instance down the person instance falls back to its local hash; sign-up is delegated end to end.
import { canonicalJson, generateSigningKey } from '@tributary/infra';
import { browser, eventually, startTestSmtpServer, type TestSmtpServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  register,
  signedPost,
  startNode,
  SYNC_ENV as BASE_SYNC_ENV,
  type Loose,
  type Node,
} from './federation-helpers.js';

const SYNC_ENV = { ...BASE_SYNC_ENV, FEDERATION_QUEUE: 'in-process', RATE_LIMIT_SSO: '10000/min' };
/** The revocation bound this configuration states (docs/sso.md#revocation): a pull interval plus margin. */
const REVOCATION_BOUND_MS = 15_000;

const GLOBAL_PASSWORD = 'global password of ada';
const LOCAL_PASSWORD = 'local password of ada';

/** The encoded assertion's JSON. */
const decode = (encoded: string): Loose =>
  JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Loose;
/** Claims (changed or not) signed with `privateKey` under `keyId`, encoded as they travel. */
function forge(claims: Loose, privateKey: KeyObject, keyId: string, extra: Loose = {}): string {
  const value = sign(null, Buffer.from(canonicalJson(claims), 'utf8'), privateKey).toString('base64url');
  const assertion = {
    claims,
    signature: { algorithm: 'Ed25519', canonicalization: 'JCS-RFC8785', keyId, value },
    ...extra,
  };
  return Buffer.from(JSON.stringify(assertion), 'utf8').toString('base64url');
}

describe('single sign-on across a global, a person and a group instance', () => {
  let g: Node; // the global instance: holds Ada's password
  let p: Node; // a person instance, delegating to the global one
  let r: Node; // a group instance Ada visits
  let adaOnGlobal: string;
  let smtp: TestSmtpServer; // where the global instance's mail goes (the password reset)

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    [g, p, r] = await Promise.all([
      startNode('global', 'Global', { ...SYNC_ENV, SMTP_URL: smtp.url, MAIL_POLL_MS: '100' }),
      startNode('person', 'Ada’s place', {
        ...SYNC_ENV,
        SSO_DELEGATION: 'on',
        SSO_GLOBAL_TIMEOUT_MS: '3000',
      }),
      startNode('group', 'Riverside', SYNC_ENV),
    ]);
    // Ada's account on the person instance, made before it knew the global instance: its local hash is
    // of another password, so which one a sign-in accepted shows who decided.
    const local = await browser(p.url).post('/api/auth/signup', { handle: 'ada', password: LOCAL_PASSWORD });
    assert.equal(local.status, 201, local.text);
    const onGlobal = await browser(g.url).post('/api/auth/signup', {
      handle: 'ada',
      password: GLOBAL_PASSWORD,
      name: 'Ada Lovelace',
    });
    assert.equal(onGlobal.status, 201, onGlobal.text);
    adaOnGlobal = onGlobal.json.agentId;
    for (const host of [g, p, r]) for (const peer of [g, p, r]) if (host !== peer) await register(host, peer);
    // Ada's agent reaches the other two through the feed.
    for (const node of [p, r])
      await eventually(`Ada on ${node.role}`, async () => localAgentOf(node, adaOnGlobal));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy(), r?.instance.destroy()]);
    await smtp?.close();
  });

  async function localAgentOf(node: Node, remoteAgentId: string): Promise<string | undefined> {
    const { rows } = await node.instance.instance.pool.query<{ local_agent_id: string }>(
      'SELECT local_agent_id FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $2',
      [g.id, remoteAgentId],
    );
    return rows[0]?.local_agent_id;
  }

  /**
   * What a refused sign-on must not change: this area's events and the accounts in the log, and the
   * credentials (the sync keeps importing other events meanwhile).
   */
  async function footprint(node: Node) {
    const { rows } = await node.instance.instance.pool.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM events WHERE type LIKE 'sso.%' OR type LIKE 'account.%') AS events,
              (SELECT count(*) FROM assistant_remote_viewer_credentials) AS credentials`,
    );
    return rows[0]!;
  }

  const issue = async (audience: string, password = GLOBAL_PASSWORD) => {
    const res = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'ada',
      password,
      audience,
    });
    assert.equal(res.status, 200, res.text);
    return res.json.result as { assertion: string; landUrl: string; expiresAt: string; audience: string };
  };

  /** GETs a landing URL without following the redirect; answers the Location and the cookie. */
  const land = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('svc_remote_viewer='));
    const text = await res.text();
    return {
      status: res.status,
      location: res.headers.get('location'),
      cookie,
      json: /json/.test(res.headers.get('content-type') ?? '') ? (JSON.parse(text) as Loose) : {},
    };
  };

  const asVisitor = async (node: Node, cookie: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(node.url + path, {
      method,
      headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Loose, headers: res.headers };
  };

  /** Presents an assertion at the group instance and expects the generic refusal, with nothing written. */
  const refusedAtGroup = async (assertion: string, why: string) => {
    const before = await footprint(r);
    const res = await land(`${r.url}/api/federation/sso/land?assertion=${assertion}&next=/x`);
    assert.equal(res.status, 401, `${why}: ${JSON.stringify(res.json)}`);
    assert.equal(res.json.code, 'sso.assertion_rejected', why);
    assert.equal(res.cookie, undefined, `${why}: no cookie`);
    const post = await fetch(`${r.url}/api/federation/remote-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assertion }),
    });
    assert.equal(post.status, 401, why);
    assert.equal(((await post.json()) as Loose).code, 'sso.assertion_rejected', why);
    assert.deepEqual(await footprint(r), before, `${why}: nothing written`);
  };

  test('given Ada’s password held by the global instance, when she signs in on the person instance, then the global instance decides', async () => {
    const withGlobal = await browser(p.url).post('/api/auth/signin', {
      identifier: 'ada',
      password: GLOBAL_PASSWORD,
    });
    assert.equal(withGlobal.status, 200, withGlobal.text);
    // The local hash would say yes, but the global instance said no: a refusal is a refusal.
    const withLocal = await browser(p.url).post('/api/auth/signin', {
      identifier: 'ada',
      password: LOCAL_PASSWORD,
    });
    assert.equal(withLocal.status, 401, withLocal.text);
    assert.equal(withLocal.json.code, 'auth.invalid_credentials');
    // Her older local account is linked to her global agent at that first delegated sign-in; the feed had
    // bound that agent already (to a copy of its own), so the link does not bind it.
    const { rows } = await p.instance.instance.pool.query<Loose>(
      'SELECT remote_agent_id, origin, via FROM rm_sso_account_links WHERE agent_id = $1',
      [withGlobal.json.agentId],
    );
    assert.deepEqual(rows, [{ remote_agent_id: adaOnGlobal, origin: g.id, via: 'sign_in' }]);
  });

  test('given an assertion from the global instance, when Ada lands on the group instance, then she is a remote viewer there: reads, never writes', async () => {
    const { landUrl, audience } = await issue(r.url);
    assert.equal(audience, new URL(r.url).origin);
    const landed = await land(`${landUrl}&next=${encodeURIComponent('/welcome?from=sso')}`);
    assert.equal(landed.status, 303, JSON.stringify(landed.json));
    assert.equal(landed.location, '/welcome?from=sso');
    assert.ok(landed.cookie, 'the remote-viewer cookie is set');
    const adaHere = await localAgentOf(r, adaOnGlobal);

    const settings = await asVisitor(r, landed.cookie, 'GET', '/api/autobot/settings');
    assert.equal(settings.status, 200, JSON.stringify(settings.json));
    assert.equal(settings.json.result.agentId, adaHere);
    const sessions = await asVisitor(r, landed.cookie, 'GET', '/api/federation/sso/sessions');
    assert.equal(sessions.status, 200, JSON.stringify(sessions.json));
    assert.equal(sessions.json.result.visits.length, 1);
    assert.equal(sessions.json.result.visits[0].home, new URL(g.url).origin);
    assert.equal(sessions.json.result.visits[0].endedAt, null);

    const before = await footprint(r);
    const write = await asVisitor(r, landed.cookie, 'POST', '/api/autobot/settings', { vault: false });
    assert.equal(write.status, 403);
    assert.equal(write.json.code, 'assistant.remote_viewer_read_only');
    // Routes that do not take the visitor cookie say so with a code of their own, not "sign in".
    for (const [method, path, body] of [
      ['POST', '/api/ops/svc.agent.create_persona', { name: 'Sneaky' }],
      ['POST', '/api/ops/svc.sso.end_remote_sessions', {}],
      ['POST', '/api/ops/svc.assistant.read_settings', {}],
      ['GET', '/api/builder/sites', undefined],
    ] as const) {
      const res = await asVisitor(r, landed.cookie, method, path, body);
      assert.equal(res.status, 403, `${path}: ${JSON.stringify(res.json)}`);
      assert.equal(res.json.code, 'auth.remote_viewer_not_allowed', path);
    }
    // Without the cookie, the same routes still ask to sign in.
    const bare = await fetch(`${r.url}/api/builder/sites`);
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as Loose).code, 'auth.required');
    assert.deepEqual(await footprint(r), before, 'a remote viewer wrote nothing');
  });

  test('given a session on the global instance, when it is handed to the group instance, then the browser lands there signed on', async () => {
    const ada = browser(g.url);
    assert.equal(
      (await ada.post('/api/auth/signin', { identifier: 'ada', password: GLOBAL_PASSWORD })).status,
      200,
    );
    const res = await fetch(
      `${g.url}/api/federation/sso/session-handoff?to=${encodeURIComponent(r.url)}&next=${encodeURIComponent('/after')}`,
      { headers: { cookie: ada.cookie }, redirect: 'manual' },
    );
    assert.equal(res.status, 303, await res.text());
    const location = res.headers.get('location')!;
    assert.ok(location.startsWith(`${r.url}/api/federation/sso/land?assertion=`), location);
    const landed = await land(location);
    assert.equal(landed.status, 303);
    assert.equal(landed.location, '/after');
    assert.ok(landed.cookie);
    // Without a session there is no hand-off, and never to an instance that is not a peer.
    const anonymous = await fetch(
      `${g.url}/api/federation/sso/session-handoff?to=${encodeURIComponent(r.url)}`,
      {
        redirect: 'manual',
      },
    );
    assert.equal(anonymous.status, 401);
    const stranger = await fetch(`${g.url}/api/federation/sso/session-handoff?to=https://evil.example`, {
      headers: { cookie: ada.cookie },
      redirect: 'manual',
    });
    assert.equal(stranger.status, 400);
    assert.equal(((await stranger.json()) as Loose).code, 'sso.unknown_audience');
  });

  test('given used, misaddressed, expired and wrongly issued assertions, then each is refused with the one generic code and nothing is written', async () => {
    // Replay: the second landing with the same assertion, also after the group instance restarts.
    const { assertion } = await issue(r.url);
    const first = await land(`${r.url}/api/federation/sso/land?assertion=${assertion}`);
    assert.equal(first.status, 303);
    await refusedAtGroup(assertion, 'replayed');
    r.instance = await r.instance.restart();
    await refusedAtGroup(assertion, 'replayed after a restart');

    // Another audience: an assertion for the person instance presented at the group instance.
    await refusedAtGroup((await issue(p.url)).assertion, 'another audience');
    // No assertion is issued for an instance that is not a registered peer.
    const unknown = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'ada',
      password: GLOBAL_PASSWORD,
      audience: 'https://stranger.example',
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.code, 'sso.unknown_audience');
    // A wrong password gets no assertion.
    const wrong = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'ada',
      password: 'not her password at all',
      audience: r.url,
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.code, 'auth.invalid_credentials');

    const fresh = decode((await issue(r.url)).assertion);
    const claims = fresh.claims as Loose;
    const now = Math.floor(Date.now() / 1000);
    // Expired, though well signed by the global instance.
    await refusedAtGroup(
      forge(
        { ...claims, iat: now - 400, exp: now - 200, nonce: randomBytes(16).toString('base64url') },
        g.privateKey,
        g.keyId,
      ),
      'expired',
    );
    // Lives longer than the maximum.
    await refusedAtGroup(
      forge(
        { ...claims, exp: claims.iat + 3600, nonce: randomBytes(16).toString('base64url') },
        g.privateKey,
        g.keyId,
      ),
      'too long',
    );
    // Signed by the person instance, a registered peer, for a person whose home is the global instance.
    await refusedAtGroup(
      forge(
        {
          ...claims,
          iss: { instanceId: p.id, baseUrl: p.url },
          nonce: randomBytes(16).toString('base64url'),
        },
        p.privateKey,
        p.keyId,
      ),
      'a peer not allowed to issue for this person',
    );
    // The global instance's claims under a key that is not its own.
    const stranger = generateSigningKey().privateKey;
    await refusedAtGroup(
      forge({ ...claims, nonce: randomBytes(16).toString('base64url') }, stranger, g.keyId),
      'bad signature',
    );
  });

  test('given malformed, oversized, extra or missing claims, an off-site next and credentials in a query string, then each is refused with a code and nothing is written', async () => {
    const claims = decode((await issue(r.url)).assertion).claims as Loose;
    const nonce = () => randomBytes(16).toString('base64url');
    await refusedAtGroup('not-an-assertion', 'malformed');
    await refusedAtGroup(Buffer.from('{"claims":', 'utf8').toString('base64url'), 'not JSON');
    await refusedAtGroup('A'.repeat(5000), 'oversized');
    await refusedAtGroup(
      forge({ ...claims, nonce: nonce(), admin: true }, g.privateKey, g.keyId),
      'an extra claim',
    );
    const { handle: _h, ...missing } = claims;
    await refusedAtGroup(forge({ ...missing, nonce: nonce() }, g.privateKey, g.keyId), 'a missing claim');
    await refusedAtGroup(
      forge({ ...claims, nonce: 'short' }, g.privateKey, g.keyId),
      'a nonce under 128 bits',
    );
    await refusedAtGroup(
      forge({ ...claims, nonce: nonce() }, g.privateKey, g.keyId, { extra: 1 }),
      'an extra member',
    );
    const missingLand = await land(`${r.url}/api/federation/sso/land`);
    assert.equal(missingLand.json.code, 'sso.assertion_rejected');

    // `next` goes only to a path on this origin; anything else lands on `/`.
    for (const next of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      'x',
    ]) {
      const landed = await land(`${(await issue(r.url)).landUrl}&next=${encodeURIComponent(next)}`);
      assert.equal(landed.status, 303, next);
      assert.equal(landed.location, '/', next);
    }

    // remote-auth takes the assertion from a JSON body only: in the query string it mints nothing.
    const { assertion } = await issue(r.url);
    const before = await footprint(r);
    const inQuery = await fetch(`${r.url}/api/federation/remote-auth?assertion=${assertion}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(inQuery.status, 400);
    assert.equal(((await inQuery.json()) as Loose).code, 'sso.credential_in_query');
    const notJson = await fetch(`${r.url}/api/federation/remote-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `assertion=${assertion}`,
    });
    assert.equal(notJson.status, 415);
    const passwordInQuery = await fetch(`${g.url}/api/federation/sso/issue?password=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'ada', password: GLOBAL_PASSWORD, audience: r.url }),
    });
    assert.equal(passwordInQuery.status, 400);
    assert.equal(((await passwordInQuery.json()) as Loose).code, 'sso.credential_in_query');
    assert.deepEqual(await footprint(r), before, 'nothing minted');
    // The same assertion in a body is accepted once.
    const ok = await fetch(`${r.url}/api/federation/remote-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assertion }),
    });
    assert.equal(ok.status, 200, await ok.text());
    assert.ok(ok.headers.getSetCookie().some((c) => c.startsWith('svc_remote_viewer=')));
  });

  test('given peer-only routes, then unsigned, wrongly signed, session and token requests are refused with codes; password guesses are throttled', async () => {
    const url = `${g.url}/api/federation/remote-password/verify`;
    const body = JSON.stringify({ identifier: 'ada', password: GLOBAL_PASSWORD });
    const before = await footprint(g);
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(unsigned.status, 401);
    assert.equal(((await unsigned.json()) as Loose).code, 'federation.signature_required');
    const forger = { keyId: p.keyId, privateKey: generateSigningKey().privateKey };
    const forged = await signedPost(forger, url, body);
    assert.equal(forged.status, 401);
    assert.equal(forged.json.code, 'federation.bad_signature');
    const ada = browser(g.url);
    assert.equal(
      (await ada.post('/api/auth/signin', { identifier: 'ada', password: GLOBAL_PASSWORD })).status,
      200,
    );
    const wrongCredentials: Record<string, string>[] = [
      { cookie: ada.cookie },
      { authorization: 'Bearer some.mcp.token' },
    ];
    for (const headers of wrongCredentials) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as Loose).code, 'sso.peer_request_required');
    }
    for (const path of ['/api/federation/signup', '/api/federation/site-accounts']) {
      const res = await fetch(g.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(res.status, 401, path);
      assert.equal(((await res.json()) as Loose).code, 'federation.signature_required', path);
    }

    // Signed by a peer: yes, or one generic no (an unknown account too), and no profile data.
    const yes = await signedPost(p, url, body);
    assert.equal(yes.status, 200, yes.text);
    assert.deepEqual(yes.json, { result: { ok: true } });
    const unknownAccount = await signedPost(
      p,
      url,
      JSON.stringify({ identifier: 'nobody_here', password: 'whatever it is' }),
    );
    assert.equal(unknownAccount.status, 401);
    assert.equal(unknownAccount.json.code, 'sso.password_rejected');
    assert.deepEqual(
      Object.keys(unknownAccount.json).filter(
        (k) => !['type', 'title', 'status', 'code', 'instance', 'requestId'].includes(k),
      ),
      [],
    );

    // A burst of guesses at one account: 429 with Retry-After, then even the right password waits.
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const guess = await signedPost(
        p,
        url,
        JSON.stringify({ identifier: 'ada', password: `guess number ${i}` }),
      );
      codes.push(guess.json.code);
      if (guess.status === 429) {
        assert.ok(Number(guess.headers.get('retry-after')) > 0);
        break;
      }
      assert.equal(guess.status, 401);
    }
    assert.equal(codes.at(-1), 'auth.throttled', codes.join(','));
    const throttled = await signedPost(p, url, body);
    assert.equal(throttled.status, 429);
    // The budget is Ada's everywhere: sign-in and sso/issue wait too.
    const issueNow = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'ada',
      password: GLOBAL_PASSWORD,
      audience: r.url,
    });
    assert.equal(issueNow.status, 429, issueNow.text);
    assert.deepEqual(await footprint(g), before, 'nothing written by checks and refusals');
    // The window passes (SIGN_IN_WINDOW_SECONDS): the tests after this one sign Ada in again.
    await g.instance.instance.pool.query(`DELETE FROM auth_throttle WHERE key LIKE 'password%'`);
  });

  test('given delegated sign-up, then the account is made on the global instance first, its agent arrives through the feed, and repeats are idempotent', async () => {
    const bea = browser(p.url);
    const made = await bea.post('/api/auth/signup', {
      handle: 'bea',
      password: 'bea has a password',
      name: 'Bea',
    });
    assert.equal(made.status, 201, made.text);
    // The global instance holds the account and its password.
    const onGlobal = await browser(g.url).post('/api/auth/signin', {
      identifier: 'bea',
      password: 'bea has a password',
    });
    assert.equal(onGlobal.status, 200, onGlobal.text);
    // Her global agent reaches the person instance through the feed like any other.
    await eventually('Bea’s shadow on the person instance', () => localAgentOf(p, onGlobal.json.agentId));

    // One agent for Bea here (docs/sso.md#one-agent): her account is linked to her global agent, which is
    // bound to the account's own agent, so what the feed brings of her is attributed to that one agent.
    const beaOnGlobal = onGlobal.json.agentId as string;
    const beaHere = made.json.agentId as string;
    const pool = p.instance.instance.pool;
    assert.equal(await localAgentOf(p, beaOnGlobal), beaHere);
    const imported = await eventually('Bea’s global agent.created imported here', async () => {
      const { rows } = await pool.query<{ actor_id: string }>(
        `SELECT actor_id FROM events WHERE origin = $1 AND type = 'agent.created'
           AND envelope::jsonb -> 'data' ->> 'agentId' = $2`,
        [g.id, beaOnGlobal],
      );
      return rows[0];
    });
    assert.equal(imported.actor_id, beaHere);
    const agents = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM rm_agents WHERE name = 'Bea'
          OR agent_id IN (SELECT local_agent_id FROM rm_remote_agents WHERE remote_agent_id = $1)`,
      [beaOnGlobal],
    );
    assert.equal(Number(agents.rows[0]!.n), 1, 'exactly one agent for Bea on the person instance');
    const link = await pool.query<Loose>(
      'SELECT agent_id, remote_agent_id, via FROM rm_sso_account_links WHERE account_id = $1',
      [made.json.accountId],
    );
    assert.deepEqual(link.rows, [{ agent_id: beaHere, remote_agent_id: beaOnGlobal, via: 'sign_up' }]);

    // Signing in here checks her password by the link: remote-password/verify for her global agent (a
    // wrong one counts under that route's keys there), with no assertion issued for it.
    const here = await browser(p.url).post('/api/auth/signin', {
      identifier: 'bea',
      password: 'bea has a password',
    });
    assert.equal(here.status, 200, here.text);
    assert.equal(here.json.agentId, beaHere);
    const wrongHere = await browser(p.url).post('/api/auth/signin', {
      identifier: 'bea',
      password: 'not what bea chose',
    });
    assert.equal(wrongHere.status, 401);
    assert.equal(wrongHere.json.code, 'auth.invalid_credentials');
    const counted = await g.instance.instance.pool.query(`SELECT 1 FROM auth_throttle WHERE key = $1`, [
      `password-account:${onGlobal.json.accountId}`,
    ]);
    assert.equal(counted.rowCount, 1, 'the wrong password was checked by remote-password/verify');
    const assertions = await g.instance.instance.pool.query(
      'SELECT 1 FROM rm_sso_issued WHERE agent_id = $1',
      [beaOnGlobal],
    );
    assert.equal(assertions.rowCount, 0);

    // Her home is recorded at the global instance: a hand-off that names no instance goes there, and she
    // lands on her own agent.
    const beaAtGlobal = browser(g.url);
    assert.equal(
      (await beaAtGlobal.post('/api/auth/signin', { identifier: 'bea', password: 'bea has a password' }))
        .status,
      200,
    );
    const handoff = await fetch(`${g.url}/api/federation/sso/session-handoff?next=/home`, {
      headers: { cookie: beaAtGlobal.cookie },
      redirect: 'manual',
    });
    assert.equal(handoff.status, 303, await handoff.text());
    const location = handoff.headers.get('location')!;
    assert.ok(location.startsWith(`${p.url}/api/federation/sso/land?assertion=`), location);
    const claims = decode(new URL(location).searchParams.get('assertion')!).claims as Loose;
    assert.equal(claims.home, new URL(p.url).origin);
    assert.equal(claims.aud, new URL(p.url).origin);
    const atHome = await land(location);
    assert.equal(atHome.status, 303, JSON.stringify(atHome.json));
    assert.equal(atHome.location, '/home');
    const visitorSettings = await asVisitor(p, atHome.cookie!, 'GET', '/api/autobot/settings');
    assert.equal(visitorSettings.status, 200, JSON.stringify(visitorSettings.json));
    assert.equal(visitorSettings.json.result.agentId, beaHere);
    // Ada signed up on the global instance itself: no home is recorded, so the hand-off needs `to`.
    const adaAtGlobal = browser(g.url);
    assert.equal(
      (await adaAtGlobal.post('/api/auth/signin', { identifier: 'ada', password: GLOBAL_PASSWORD })).status,
      200,
    );
    const noHome = await fetch(`${g.url}/api/federation/sso/session-handoff`, {
      headers: { cookie: adaAtGlobal.cookie },
      redirect: 'manual',
    });
    assert.equal(noHome.status, 400);
    assert.equal(((await noHome.json()) as Loose).code, 'sso.no_home_instance');

    // A handle the global instance already holds is taken here too, and nothing is written here.
    const before = await footprint(p);
    const taken = await browser(p.url).post('/api/auth/signup', {
      handle: 'op_global',
      password: 'a long password',
    });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json.code, 'agent.handle_taken');
    assert.deepEqual(await footprint(p), before);

    // The peer route itself: idempotent by request key.
    const key = randomBytes(12).toString('base64url');
    const request = { requestKey: key, handle: 'cleo', password: 'cleo has a password' };
    const once = await signedPost(p, `${g.url}/api/federation/signup`, JSON.stringify(request));
    assert.equal(once.status, 200, once.text);
    assert.equal(once.json.result.created, true);
    const again = await signedPost(p, `${g.url}/api/federation/signup`, JSON.stringify(request));
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.result, { ...once.json.result, created: false });
    const other = await signedPost(
      p,
      `${g.url}/api/federation/signup`,
      JSON.stringify({ ...request, handle: 'cleo2' }),
    );
    assert.equal(other.status, 409);
    assert.equal(other.json.code, 'sso.request_key_reused');

    // Site accounts: found by email, or made without a usable password; the same key answers the same.
    const site = {
      requestKey: randomBytes(12).toString('base64url'),
      email: 'Visitor@Example.org',
      name: 'Visitor',
    };
    const v1 = await signedPost(p, `${g.url}/api/federation/site-accounts`, JSON.stringify(site));
    assert.equal(v1.status, 200, v1.text);
    assert.equal(v1.json.result.created, true);
    const v2 = await signedPost(
      p,
      `${g.url}/api/federation/site-accounts`,
      JSON.stringify({
        ...site,
        requestKey: randomBytes(12).toString('base64url'),
        email: 'visitor@example.org',
      }),
    );
    assert.equal(v2.json.result.accountId, v1.json.result.accountId);
    assert.equal(v2.json.result.created, false);
    // Only the global instance keeps delegated accounts.
    const notGlobal = await signedPost(
      g,
      `${r.url}/api/federation/signup`,
      JSON.stringify({ ...request, requestKey: 'another-key-1' }),
    );
    assert.equal(notGlobal.status, 403);
    assert.equal(notGlobal.json.code, 'federation.global_only');
  });

  test('given a revocation at home, when the sync carries it, then the remote viewer is refused on the peer within the stated bound', async () => {
    const { landUrl } = await issue(r.url);
    const stale = await issue(r.url); // issued before the revocation, used after it
    const landed = await land(landUrl);
    assert.ok(landed.cookie);
    assert.equal((await asVisitor(r, landed.cookie, 'GET', '/api/autobot/settings')).status, 200);

    const ada = browser(g.url);
    assert.equal(
      (await ada.post('/api/auth/signin', { identifier: 'ada', password: GLOBAL_PASSWORD })).status,
      200,
    );
    const listed = await ada.post('/api/ops/svc.sso.list_remote_sessions', {});
    assert.equal(listed.status, 200, listed.text);
    assert.ok((listed.json.result.issued as Loose[]).some((i) => i.audience === new URL(r.url).origin));
    const started = Date.now();
    const revoked = await ada.post('/api/ops/svc.sso.end_remote_sessions', {});
    assert.equal(revoked.status, 201, revoked.text);
    const version = revoked.json.result.credentialVersion as number;
    assert.ok(version >= 1);

    await eventually(
      'the remote viewer refused on the group instance',
      async () => (await asVisitor(r, landed.cookie!, 'GET', '/api/autobot/settings')).status === 401,
      REVOCATION_BOUND_MS,
    );
    const took = Date.now() - started;
    assert.ok(took <= REVOCATION_BOUND_MS, `within the bound: ${took} ms`);
    process.stdout.write(`revocation reached the peer in ${took} ms (bound ${REVOCATION_BOUND_MS} ms)\n`);
    const after = await asVisitor(r, landed.cookie, 'GET', '/api/autobot/settings');
    assert.equal(after.json.code, 'auth.required');
    const sessions = await asVisitor(r, landed.cookie, 'GET', '/api/federation/sso/sessions');
    assert.equal(sessions.status, 401);

    // An assertion issued before the revocation is refused; one issued after it is accepted.
    await refusedAtGroup(stale.assertion, 'issued before the revocation');
    const fresh = await land((await issue(r.url)).landUrl);
    assert.equal(fresh.status, 303, JSON.stringify(fresh.json));
    assert.equal(decode((await issue(r.url)).assertion).claims.cv, version);
  });

  test('given a password reset at home, when the sync carries it, then the person’s remote viewer is refused on the peer within the stated bound', async () => {
    const made = await browser(g.url).post('/api/auth/signup', {
      email: 'eve@example.org',
      handle: 'eve',
      password: 'eve has a password',
      name: 'Eve',
    });
    assert.equal(made.status, 201, made.text);
    const eveOnGlobal = made.json.agentId as string;
    await eventually('Eve on the group instance', () => localAgentOf(r, eveOnGlobal));
    const issued = await browser(g.url).post('/api/federation/sso/issue', {
      identifier: 'eve',
      password: 'eve has a password',
      audience: r.url,
    });
    assert.equal(issued.status, 200, issued.text);
    const landed = await land(issued.json.result.landUrl as string);
    assert.ok(landed.cookie);
    assert.equal((await asVisitor(r, landed.cookie, 'GET', '/api/autobot/settings')).status, 200);

    const asked = await browser(g.url).post('/api/auth/password-reset', { email: 'eve@example.org' });
    assert.equal(asked.status, 202, asked.text);
    await smtp.waitFor((m) => m.some((x) => x.to.includes('eve@example.org')));
    const mail = smtp.messages.find((x) => x.to.includes('eve@example.org'))!;
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(token, mail.parsed.text);
    const started = Date.now();
    const reset = await browser(g.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'eve has a new password',
    });
    assert.equal(reset.status, 200, reset.text);
    // The new password and the revocation of her sign-on authority are one commit.
    const { rows } = await g.instance.instance.pool.query<{ type: string; tx_id: string }>(
      `SELECT type, tx_id::text FROM events WHERE actor_id = $1
         AND type IN ('account.password_changed', 'sso.authority_revoked')`,
      [eveOnGlobal],
    );
    assert.deepEqual(rows.map((x) => x.type).sort(), ['account.password_changed', 'sso.authority_revoked']);
    assert.equal(new Set(rows.map((x) => x.tx_id)).size, 1, 'one commit');

    await eventually(
      'Eve’s remote viewer refused on the group instance',
      async () => (await asVisitor(r, landed.cookie!, 'GET', '/api/autobot/settings')).status === 401,
      REVOCATION_BOUND_MS,
    );
    const took = Date.now() - started;
    assert.ok(took <= REVOCATION_BOUND_MS, `within the bound: ${took} ms`);
    process.stdout.write(
      `a password reset reached the peer in ${took} ms (bound ${REVOCATION_BOUND_MS} ms)\n`,
    );
  });

  test('given the global instance down, then the person instance falls back to its local hash, a wrong password is still wrong, and sign-up answers 503', async () => {
    await g.instance.stop();
    try {
      const local = await browser(p.url).post('/api/auth/signin', {
        identifier: 'ada',
        password: LOCAL_PASSWORD,
      });
      assert.equal(local.status, 200, local.text);
      const wrong = await browser(p.url).post('/api/auth/signin', {
        identifier: 'ada',
        password: 'a wrong password',
      });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.json.code, 'auth.invalid_credentials');
      // The global password is not what the local hash holds.
      const globalOne = await browser(p.url).post('/api/auth/signin', {
        identifier: 'ada',
        password: GLOBAL_PASSWORD,
      });
      assert.equal(globalOne.status, 401);
      const before = await footprint(p);
      const signUp = await browser(p.url).post('/api/auth/signup', {
        handle: 'dora',
        password: 'dora has a password',
      });
      assert.equal(signUp.status, 503, signUp.text);
      assert.equal(signUp.json.code, 'sso.global_unreachable');
      assert.ok(Number(signUp.headers.get('retry-after')) > 0);
      assert.deepEqual(await footprint(p), before, 'nothing created while the global instance is away');
    } finally {
      g.instance = await g.instance.startAgain();
    }
  });
});
