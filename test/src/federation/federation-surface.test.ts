// The rest of the federation surface, through real HTTP against two instances on
// loopback: peer mutations (applied through the pipeline as the peer's agent, every refusal writing
// nothing), the public query, the entity-status probe, discover, the signed manifest and the discovery
// documents.
import * as ed from '@noble/ed25519';
import { canonicalJson, generateSigningKey } from '@tributary/infra';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { contentDigest, signatureHeaders, SIGNATURE_ALGORITHM } from '@tributary/adapters';
import { password, register, signedPost, startNode, type Loose, type Node } from './federation-helpers.js';

ed.hashes.sha512 = (m: Uint8Array) => new Uint8Array(createHash('sha512').update(m).digest());
const strict = { zip215: false };

describe('the rest of the federation surface', () => {
  let a: Node; // a peer of b, with a Matrix homeserver configured
  let b: Node; // the instance under test
  let c: Node; // not a peer of b
  let aOnB: Loose; // a as b registered it (its agentId is the agent a acts as on b)
  let emailAgentId: string;

  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      startNode('group', 'Origin', { MATRIX_HOMESERVER_URL: 'https://matrix.example.org/' }),
      startNode('global', 'Receiver'),
      startNode('locale', 'Stranger'),
    ]);
    aOnB = await register(b, a);
    const r = await browser(b.url).post('/api/auth/signup', {
      email: 'Someone@Example.org',
      password,
      name: 'Someone',
    });
    assert.equal(r.status, 201, r.text);
    emailAgentId = r.json.agentId;
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy(), c?.instance.destroy()]);
  });

  /** What a refused request must leave alone on b. */
  const footprint = async () => {
    const { rows } = await b.instance.instance.pool.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM rm_peer_mutations) AS mutations,
              (SELECT json_agg(row_to_json(x) ORDER BY agent_id) FROM (SELECT agent_id, name, bio, avatar_url FROM rm_agents) x)::text AS agents`,
    );
    return rows[0]!;
  };
  const nothingWritten = async (run: () => Promise<void>) => {
    const before = await footprint();
    await run();
    assert.deepEqual(await footprint(), before, 'nothing was written');
  };

  /** A mutation envelope signed by `signer` (a's key unless said otherwise). */
  const mutation = (o: Loose = {}, signer: Node = a) => {
    const unsigned = {
      v: 1,
      id: randomUUID(),
      origin: a.id,
      keyId: signer.keyId,
      operation: 'svc.profile.update',
      input: { bio: 'hello from a' },
      issuedAt: new Date().toISOString(),
      nonce: randomBytes(16).toString('base64url'),
      ...o,
    };
    const sig = sign(null, Buffer.from(canonicalJson(unsigned), 'utf8'), signer.privateKey).toString(
      'base64url',
    );
    return { envelope: { ...unsigned, sig }, text: JSON.stringify({ ...unsigned, sig }) };
  };
  const mutate = (text: string, from: Node = a) =>
    signedPost(from, `${b.url}/api/federation/mutations`, text);

  describe('POST /api/federation/mutations', () => {
    test('given a signed profile update from a peer, then it applies as the peer’s agent with a signed event in the log', async () => {
      const m = mutation({ input: { bio: 'We federate', name: 'Origin Group' } });
      const r = await mutate(m.text);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.mutationId, m.envelope.id);
      assert.equal(r.json.result.agentId, aOnB.agentId);
      assert.equal(r.json.result.bio, 'We federate');
      const types = (r.json.events as Loose[]).map((e) => e.type).sort();
      assert.deepEqual(types, ['agent.profile_updated', 'peer.mutation_applied']);
      // The public registry shows the new profile.
      const reg = await fetch(`${b.url}/api/federation/registry/${aOnB.agentId}`);
      const agent = ((await reg.json()) as Loose).agent;
      assert.equal(agent.bio, 'We federate');
      assert.equal(agent.name, 'Origin Group');
      // The event is b's, signed by b, acted by the peer's agent: verify it with noble.
      await b.instance.instance.sequencer.drain();
      const q = await fetch(`${b.url}/api/federation/query?resource=events&stream=agent-${aOnB.agentId}`);
      const page = (await q.json()) as Loose;
      assert.equal(page.items.length, 1);
      const event = page.items[0].event as Loose;
      assert.equal(event.type, 'agent.profile_updated');
      assert.equal(event.actorId, aOnB.agentId);
      assert.equal(event.origin, b.id);
      const { sig, ...unsigned } = event;
      assert.ok(
        ed.verify(
          Buffer.from(sig, 'base64url'),
          Buffer.from(canonicalJson(unsigned)),
          Buffer.from(b.publicKey, 'base64url'),
          strict,
        ),
      );
      // The receipt keeps the envelope verbatim.
      const { rows } = await b.instance.instance.pool.query<{ envelope: string }>(
        `SELECT envelope FROM events WHERE type = 'peer.mutation_applied'`,
      );
      assert.equal(JSON.parse(JSON.parse(rows[0]!.envelope).data.envelope).id, m.envelope.id);
    });

    test('given a’s own outbound client, when it sends a profile update and a probe to b, then both are answered', async () => {
      const client = a.instance.instance.services.federationSurface!.client!;
      const applied = await client.mutate(b.url, {
        operation: 'svc.profile.update',
        input: { avatarUrl: 'https://origin.example/logo.png' },
      });
      assert.equal((applied.result as Loose).agentId, aOnB.agentId);
      assert.equal((applied.result as Loose).avatarUrl, 'https://origin.example/logo.png');
      const probe = await client.entityStatus(b.url, [{ kind: 'agent', id: b.operatorAgentId }]);
      assert.deepEqual(probe.results, [{ kind: 'agent', id: b.operatorAgentId, status: 'live' }]);
      // A refusal comes back with b's code.
      await assert.rejects(
        client.mutate(b.url, { operation: 'svc.federation.register_peer', input: {} }),
        (e: Loose) => e.code === 'federation.operation_not_allowed' && e.kind === 'forbidden',
      );
    });

    test('given the same mutation again (a new request signature), then 409 federation.replayed_mutation', async () => {
      const m = mutation({ input: { bio: 'once' } });
      assert.equal((await mutate(m.text)).status, 200);
      await nothingWritten(async () => {
        const r = await mutate(m.text);
        assert.equal(r.status, 409, r.text);
        assert.equal(r.json.code, 'federation.replayed_mutation');
        // Re-encoded (other key order, whitespace): the same mutation.
        const reordered = JSON.stringify(Object.fromEntries(Object.entries(m.envelope).reverse()), null, 2);
        const r2 = await mutate(reordered);
        assert.equal(r2.json.code, 'federation.replayed_mutation');
      });
    });

    test('given a new id with a nonce already used, then 409 federation.replayed_nonce', async () => {
      const first = mutation({ input: { bio: 'nonce one' } });
      assert.equal((await mutate(first.text)).status, 200);
      await nothingWritten(async () => {
        const r = await mutate(mutation({ nonce: first.envelope.nonce, input: { bio: 'nonce two' } }).text);
        assert.equal(r.status, 409, r.text);
        assert.equal(r.json.code, 'federation.replayed_nonce');
      });
    });

    test('given copies of one mutation, or two with one nonce, racing each other, then exactly one applies', async () => {
      const same = mutation({ input: { bio: 'raced' } });
      const copies = await Promise.all([mutate(same.text), mutate(same.text), mutate(same.text)]);
      assert.deepEqual(copies.map((r) => r.status).sort(), [200, 409, 409]);
      for (const r of copies.filter((x) => x.status === 409))
        assert.ok(['federation.replayed_mutation', 'log.stream_conflict'].includes(r.json.code), r.text);
      // Same nonce, new ids, changing nothing (so only their receipts would be written).
      const nonce = randomBytes(16).toString('base64url');
      const twins = await Promise.all(
        [1, 2, 3].map(() => mutate(mutation({ nonce, input: { bio: 'raced' } }).text)),
      );
      assert.deepEqual(twins.map((r) => r.status).sort(), [200, 409, 409]);
      for (const r of twins.filter((x) => x.status === 409))
        assert.equal(r.json.code, 'federation.replayed_nonce');
      const { rows } = await b.instance.instance.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM rm_peer_mutations WHERE nonce = $1 OR mutation_id = $2`,
        [nonce, same.envelope.id],
      );
      assert.equal(rows[0]!.n, '2');
    });

    test('given an operation outside the allowlist, then 403 federation.operation_not_allowed', async () => {
      await nothingWritten(async () => {
        for (const operation of ['svc.federation.update_peer', 'svc.persona.create', 'svc.nope']) {
          const r = await mutate(mutation({ operation, input: { peerId: a.id, blocked: false } }).text);
          assert.equal(r.status, 403, r.text);
          assert.equal(r.json.code, 'federation.operation_not_allowed');
        }
      });
    });

    test('given an envelope whose origin is another instance, then 403 federation.origin_mismatch', async () => {
      await nothingWritten(async () => {
        for (const origin of [b.id, c.id]) {
          const r = await mutate(mutation({ origin }).text);
          assert.equal(r.status, 403, r.text);
          assert.equal(r.json.code, 'federation.origin_mismatch');
        }
      });
    });

    test('given an envelope signed by another key (the request signed by a), then 401', async () => {
      await nothingWritten(async () => {
        // c's key, claiming a's key id: the signature does not verify.
        const forged = mutation({ keyId: a.keyId }, c);
        const r = await mutate(forged.text);
        assert.equal(r.status, 401, r.text);
        assert.equal(r.json.code, 'federation.bad_mutation_signature');
        // c's own key id: not a key of a.
        const r2 = await mutate(mutation({}, c).text);
        assert.equal(r2.json.code, 'federation.unknown_key');
      });
    });

    test('given one changed byte after signing, then 401 federation.bad_mutation_signature', async () => {
      await nothingWritten(async () => {
        const m = mutation({ input: { bio: 'honest' } });
        const r = await mutate(m.text.replace('honest', 'hon3st'));
        assert.equal(r.status, 401, r.text);
        assert.equal(r.json.code, 'federation.bad_mutation_signature');
      });
    });

    test('given a stale or future issuedAt, then 401 federation.stale_mutation', async () => {
      await nothingWritten(async () => {
        for (const shift of [-301_000, 301_000]) {
          const r = await mutate(mutation({ issuedAt: new Date(Date.now() + shift).toISOString() }).text);
          assert.equal(r.status, 401, r.text);
          assert.equal(r.json.code, 'federation.stale_mutation');
        }
      });
    });

    test('given duplicate keys, a bad shape or a bad input, then 400 with its code', async () => {
      await nothingWritten(async () => {
        const m = mutation();
        const dup = m.text.replace('{', `{"operation":"svc.profile.update",`);
        assert.equal((await mutate(dup)).json.code, 'envelope.duplicate_key');
        const extra = mutation({ actorId: b.operatorAgentId });
        assert.equal((await mutate(extra.text)).json.code, 'federation.bad_mutation');
        assert.equal((await mutate('not json')).json.code, 'envelope.malformed_json');
        const empty = await mutate(mutation({ input: {} }).text);
        assert.equal(empty.status, 400);
        assert.equal(empty.json.code, 'input.invalid');
      });
    });

    test('given a targetAgentId the peer does not control, then 404 agent.not_found', async () => {
      await nothingWritten(async () => {
        const r = await mutate(mutation({ input: { targetAgentId: b.operatorAgentId, bio: 'pwned' } }).text);
        assert.equal(r.status, 404, r.text);
        assert.equal(r.json.code, 'agent.not_found');
      });
    });

    test('given a body over 64 KiB, then 413 request.too_large', async () => {
      await nothingWritten(async () => {
        const r = await mutate(mutation({ input: { bio: 'x'.repeat(70_000) } }).text);
        assert.equal(r.status, 413, r.text);
        assert.equal(r.json.code, 'request.too_large');
      });
    });

    test('given a blocked peer, then 403 federation.peer_blocked and nothing applies', async () => {
      const blocked = await b.operator.call('PATCH', '/api/federation/peers', {
        peerId: a.id,
        blocked: true,
        reason: 'test',
      });
      assert.equal(blocked.status, 200, blocked.text);
      await nothingWritten(async () => {
        const r = await mutate(mutation({ input: { bio: 'while blocked' } }).text);
        assert.equal(r.status, 403, r.text);
        assert.equal(r.json.code, 'federation.peer_blocked');
      });
      const unblocked = await b.operator.call('PATCH', '/api/federation/peers', {
        peerId: a.id,
        blocked: false,
      });
      assert.equal(unblocked.status, 200, unblocked.text);
    });

    test('given no request signature, or an unknown peer, then 401 before anything is read', async () => {
      await nothingWritten(async () => {
        const r = await fetch(`${b.url}/api/federation/mutations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: mutation().text,
        });
        assert.equal(r.status, 401);
        assert.equal(((await r.json()) as Loose).code, 'federation.signature_required');
        const r2 = await mutate(mutation({ origin: c.id }, c).text, c);
        assert.equal(r2.json.code, 'federation.unknown_peer');
      });
    });
  });

  describe('GET /api/federation/query', () => {
    test('given agents, when paged one at a time, then the cursor walks them all once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `${b.url}/api/federation/query?resource=agents&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
        const page = (await (await fetch(url)).json()) as Loose;
        assert.ok(page.items.length <= 1);
        seen.push(...page.items.map((x: Loose) => x.agentId));
        cursor = page.next;
      } while (cursor);
      const all = (await (
        await fetch(`${b.url}/api/federation/query?resource=agents&limit=100`)
      ).json()) as Loose;
      assert.deepEqual(
        seen,
        all.items.map((x: Loose) => x.agentId),
      );
      assert.ok(seen.includes(emailAgentId) && seen.includes(aOnB.agentId));
    });

    test('given events by type, then only our own public events of that type, in order', async () => {
      await b.instance.instance.sequencer.drain();
      const r = await fetch(
        `${b.url}/api/federation/query?resource=events&type=agent.created,instance.initialized`,
      );
      const page = (await r.json()) as Loose;
      assert.ok(page.items.length >= 2);
      const seqs = page.items.map((i: Loose) => i.sequence);
      assert.deepEqual(
        seqs,
        [...seqs].sort((x: number, y: number) => x - y),
      );
      for (const { event } of page.items) {
        assert.ok(['agent.created', 'instance.initialized'].includes(event.type));
        assert.equal(event.origin, b.id);
      }
    });

    test('given bad parameters, then 400 with a code each', async () => {
      const code = async (qs: string) => {
        const r = await fetch(`${b.url}/api/federation/query?${qs}`);
        assert.equal(r.status, 400, qs);
        return ((await r.json()) as Loose).code;
      };
      assert.equal(await code('resource=agents&evil=1'), 'query.unknown_parameter');
      assert.equal(await code('resource=agents&type=agent.created'), 'query.unknown_parameter');
      assert.equal(await code('resource=agents&limit=101'), 'query.bad_query');
      assert.equal(await code('resource=agents&limit=0'), 'query.bad_query');
      assert.equal(await code('resource=sessions'), 'query.bad_query');
      assert.equal(await code('resource=agents&limit=1&limit=2'), 'query.bad_query');
      assert.equal(await code('resource=events&type=session.started'), 'query.bad_type');
      assert.equal(
        await code(`resource=events&cursor=${Buffer.from('a:x').toString('base64url')}`),
        'query.bad_cursor',
      );
    });
  });

  describe('POST /api/federation/entity-status', () => {
    const probe = (body: unknown, from: Node = a) =>
      signedPost(from, `${b.url}/api/federation/entity-status`, JSON.stringify(body));

    test('given agents and events, then live, missing or not_authoritative each', async () => {
      await b.instance.instance.sequencer.drain();
      const publicEvent = (
        (await (
          await fetch(`${b.url}/api/federation/query?resource=events&type=agent.created&limit=1`)
        ).json()) as Loose
      ).items[0].event.id as string;
      const { rows } = await b.instance.instance.pool.query<{ id: string }>(
        `SELECT id FROM events WHERE type = 'session.started' LIMIT 1`,
      );
      const missing = randomUUID();
      const r = await probe({
        entities: [
          { kind: 'agent', id: emailAgentId },
          { kind: 'agent', id: aOnB.agentId },
          { kind: 'agent', id: missing },
          { kind: 'event', id: publicEvent },
          { kind: 'event', id: rows[0]!.id },
        ],
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json.results, [
        { kind: 'agent', id: emailAgentId, status: 'live' },
        { kind: 'agent', id: aOnB.agentId, status: 'not_authoritative', origin: a.id },
        { kind: 'agent', id: missing, status: 'missing' },
        { kind: 'event', id: publicEvent, status: 'live' },
        // A private event is as unknown to a peer as one that does not exist.
        { kind: 'event', id: rows[0]!.id, status: 'missing' },
      ]);
    });

    test('given a persona its owner deleted, then deleted, and it leaves the registry and discovery', async () => {
      const owner = browser(b.url);
      assert.equal(
        (await owner.post('/api/auth/signin', { identifier: 'someone@example.org', password })).status,
        200,
      );
      const made = await owner.post('/api/ops/svc.agent.create_persona', {
        name: 'Gone soon',
        handle: 'gone_soon',
      });
      assert.equal(made.status, 201, made.text);
      const personaId: string = made.json.result.agentId;
      const live = await probe({ entities: [{ kind: 'agent', id: personaId }] });
      assert.deepEqual(live.json.results, [{ kind: 'agent', id: personaId, status: 'live' }]);

      const gone = await owner.post('/api/ops/svc.agent.delete_persona', {
        targetAgentId: personaId,
        password,
      });
      assert.equal(gone.status, 201, gone.text);
      const r = await probe({ entities: [{ kind: 'agent', id: personaId }] });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json.results, [{ kind: 'agent', id: personaId, status: 'deleted' }]);
      assert.equal((await fetch(`${b.url}/api/federation/registry/${personaId}`)).status, 404);
      const found = (await (await fetch(`${b.url}/api/federation/discover?q=%40gone_soon`)).json()) as Loose;
      assert.equal(found.found, false);
    });

    test('given too many, a bad shape, or no signature, then refused with a code', async () => {
      await nothingWritten(async () => {
        const many = Array.from({ length: 101 }, () => ({ kind: 'agent', id: randomUUID() }));
        const r = await probe({ entities: many });
        assert.equal(r.status, 413);
        assert.equal(r.json.code, 'federation.probe_too_large');
        for (const bad of [
          {},
          { entities: [] },
          { entities: [{ kind: 'site', id: 'x' }] },
          { entities: [], more: 1 },
        ]) {
          const r2 = await probe(bad);
          assert.equal(r2.status, 400);
          assert.equal(r2.json.code, 'federation.bad_probe');
        }
        const r3 = await fetch(`${b.url}/api/federation/entity-status`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"entities":[]}',
        });
        assert.equal(((await r3.json()) as Loose).code, 'federation.signature_required');
        assert.equal(
          (await probe({ entities: [{ kind: 'agent', id: 'x' }] }, c)).json.code,
          'federation.unknown_peer',
        );
      });
    });
  });

  describe('GET /api/federation/discover', () => {
    const discover = async (q: string, signer?: Node) => {
      const url = `${b.url}/api/federation/discover?q=${encodeURIComponent(q)}`;
      const headers: Record<string, string> = {};
      if (signer)
        Object.assign(
          headers,
          signatureHeaders(
            { method: 'GET', targetUri: url, contentDigest: contentDigest('') },
            {
              created: Math.floor(Date.now() / 1000),
              nonce: randomBytes(16).toString('base64url'),
              keyid: signer.keyId,
              alg: SIGNATURE_ALGORITHM,
            },
            (base) => sign(null, base, signer.privateKey),
          ),
        );
      const r = await fetch(url, { headers });
      return { status: r.status, json: (await r.json()) as Loose };
    };

    test('given public cues, then where each identity lives', async () => {
      const operator = await discover('@op_global');
      assert.equal(operator.json.where, 'this_instance');
      assert.equal(operator.json.agent.agentId, b.operatorAgentId);
      assert.equal(operator.json.instance.baseUrl, b.url);
      assert.equal((await discover(b.id)).json.where, 'this_instance');
      const peer = await discover(a.id);
      assert.deepEqual(peer.json, {
        cue: 'id',
        found: true,
        where: 'peer',
        peer: { peerId: a.id, name: aOnB.name, role: 'group', baseUrl: a.url },
      });
      assert.equal((await discover(new URL(a.url).host)).json.peer.peerId, a.id);
      assert.equal((await discover(a.url)).json.peer.peerId, a.id);
      const peerAgent = await discover(aOnB.agentId);
      assert.equal(peerAgent.json.where, 'peer');
      assert.equal(peerAgent.json.agent.agentId, aOnB.agentId);
      assert.deepEqual((await discover(randomUUID())).json, { cue: 'id', found: false });
      assert.deepEqual((await discover('nobody_here')).json, { cue: 'handle', found: false });
      assert.deepEqual((await discover('elsewhere.example')).json, { cue: 'domain', found: false });
    });

    test('given an email, then only a signed peer learns where it lives; strangers get the same 403 either way', async () => {
      for (const email of ['someone@example.org', 'nobody@example.org']) {
        const r = await discover(email);
        assert.equal(r.status, 403);
        assert.equal(r.json.code, 'discover.email_requires_peer');
      }
      const found = await discover('SOMEONE@example.org', a);
      assert.equal(found.status, 200, JSON.stringify(found.json));
      assert.equal(found.json.where, 'this_instance');
      assert.equal(found.json.agent.agentId, emailAgentId);
      assert.deepEqual((await discover('nobody@example.org', a)).json, { cue: 'email', found: false });
      // A signature from someone who is not a peer is refused, not treated as anonymous.
      assert.equal((await discover('someone@example.org', c)).json.code, 'federation.unknown_peer');
    });

    test('given bad input, then 400 with a code', async () => {
      assert.equal((await discover('not a cue!')).json.code, 'discover.bad_cue');
      assert.equal((await discover('x'.repeat(400))).json.code, 'discover.bad_cue');
      const extra = await fetch(`${b.url}/api/federation/discover?q=a.example&x=1`);
      assert.equal(extra.status, 400);
      assert.equal(((await extra.json()) as Loose).code, 'query.unknown_parameter');
      const none = await fetch(`${b.url}/api/federation/discover`);
      assert.equal(((await none.json()) as Loose).code, 'discover.bad_cue');
    });
  });

  describe('manifests and discovery documents', () => {
    const verifies = (document: Loose, sig: string, publicKey: string) =>
      ed.verify(
        Buffer.from(sig, 'base64url'),
        Buffer.from(canonicalJson(document), 'utf8'),
        Buffer.from(publicKey, 'base64url'),
        strict,
      );

    test('given GET /api/federation/manifest, then it is signed by the instance key and expires 30 days after issuance', async () => {
      const r = await fetch(`${b.url}/api/federation/manifest`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      const { sig, ...manifest } = (await r.json()) as Loose;
      assert.ok(verifies(manifest, sig, b.publicKey), 'noble verifies the manifest');
      assert.equal(manifest.instanceId, b.id);
      assert.equal(manifest.role, 'global');
      assert.equal(manifest.baseUrl, b.url);
      assert.equal(manifest.keyId, b.keyId);
      assert.deepEqual(
        manifest.keys.map((k: Loose) => [k.keyId, k.publicKey, k.validUntil]),
        [[b.keyId, b.publicKey, null]],
      );
      assert.equal(Date.parse(manifest.expiresAt) - Date.parse(manifest.issuedAt), 30 * 86_400_000);
      assert.ok(Math.abs(Date.parse(manifest.issuedAt) - Date.now()) < 60_000);
      assert.equal(manifest.endpoints.mutations, `${b.url}/api/federation/mutations`);
      // One changed value and it no longer verifies.
      assert.ok(!verifies({ ...manifest, role: 'person' }, sig, b.publicKey));
    });

    test('given the universal manifest, then a UM v0.2 document signed over everything but its signature', async () => {
      const r = await fetch(`${b.url}/.well-known/universal-manifest.json`);
      assert.equal(r.status, 200);
      const { signature, ...um } = (await r.json()) as Loose;
      assert.equal(um.manifestVersion, '0.2');
      assert.equal(um.subject, `urn:uuid:${b.id}`);
      assert.equal(Date.parse(um.expiresAt) - Date.parse(um.issuedAt), 30 * 86_400_000);
      assert.equal(signature.algorithm, 'Ed25519');
      assert.equal(signature.canonicalization, 'JCS-RFC8785');
      // The SPKI key carried is b's key.
      assert.equal(
        Buffer.from(signature.publicKeySpkiB64, 'base64').subarray(12).toString('base64url'),
        b.publicKey,
      );
      assert.ok(verifies(um, signature.value, b.publicKey));
    });

    test('given Matrix discovery, then the configured homeserver, or 404 when none is', async () => {
      const client = await fetch(`${a.url}/.well-known/matrix/client`);
      assert.equal(client.status, 200);
      assert.equal(client.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(await client.json(), { 'm.homeserver': { base_url: 'https://matrix.example.org' } });
      const server = await fetch(`${a.url}/.well-known/matrix/server`);
      assert.deepEqual(await server.json(), { 'm.server': 'matrix.example.org:443' });
      for (const path of ['/.well-known/matrix/client', '/.well-known/matrix/server']) {
        const none = await fetch(`${b.url}${path}`);
        assert.equal(none.status, 404);
        const body = (await none.json()) as Loose;
        assert.equal(body.code, 'discovery.matrix_not_configured');
        assert.equal(body.errcode, 'M_NOT_FOUND');
        const pre = await fetch(`${b.url}${path}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example' },
        });
        assert.equal(pre.status, 204);
        assert.equal(pre.headers.get('access-control-allow-origin'), '*');
        assert.match(pre.headers.get('access-control-allow-methods')!, /GET/);
      }
    });
  });
  describe('afterwards', () => {
    test('given b’s log after all of this, when verified and rebuilt, then every signature checks and the read models come back the same', async () => {
      const { verifyLog, rebuildProjections } = await import('@tributary/infra');
      const { allProjections } = await import('@tributary/projections');
      const pool = b.instance.instance.pool;
      const report = await verifyLog(pool);
      assert.equal(report.ok, true, JSON.stringify(report.firstBad));
      const snapshot = async () =>
        (
          await pool.query(
            `SELECT (SELECT json_agg(m ORDER BY peer_id, mutation_id) FROM rm_peer_mutations m) AS mutations,
                    (SELECT json_agg(x ORDER BY agent_id) FROM (SELECT agent_id, kind, name, bio, origin FROM rm_agents) x) AS agents`,
          )
        ).rows[0];
      const before = await snapshot();
      assert.ok((before.mutations as unknown[]).length >= 4);
      await rebuildProjections(
        pool,
        allProjections.filter((p) => p.mode === 'inline'),
      );
      assert.deepEqual(await snapshot(), before);
      // Each receipt's envelope still verifies under the peer's key, as an auditor would check it.
      const { rows } = await pool.query<{ envelope: string }>(
        `SELECT envelope FROM events WHERE type = 'peer.mutation_applied'`,
      );
      for (const row of rows) {
        const { sig, ...unsigned } = JSON.parse(JSON.parse(row.envelope).data.envelope) as Loose;
        assert.ok(
          ed.verify(
            Buffer.from(sig, 'base64url'),
            Buffer.from(canonicalJson(unsigned), 'utf8'),
            Buffer.from(a.publicKey, 'base64url'),
            strict,
          ),
        );
      }
    });

    test('given a peer whose key was rotated, then an envelope under the retired key is 401 federation.key_retired', async () => {
      // c becomes a peer of b, then rotates its key; the request is signed with the new key.
      const cOnB = await register(b, c);
      const next = generateSigningKey();
      const rotated = await b.operator.call('PATCH', '/api/federation/peers', {
        peerId: c.id,
        publicKey: next.publicKey.export({ format: 'jwk' }).x!,
      });
      assert.equal(rotated.status, 200, rotated.text);
      const nextKeyId = rotated.json.result.keys.find((k: Loose) => !k.validUntil).keyId as string;
      const sender = { ...c, keyId: nextKeyId, privateKey: next.privateKey };
      await nothingWritten(async () => {
        const old = mutation({ origin: c.id }, c);
        const r = await mutate(old.text, sender);
        assert.equal(r.status, 401, r.text);
        assert.equal(r.json.code, 'federation.key_retired');
      });
      // Under the current key it applies, as c's own agent.
      const fresh = mutation({ origin: c.id, input: { bio: 'rotated' } }, sender);
      const r = await mutate(fresh.text, sender);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.result.agentId, cOnB.agentId);
    });
  });
});
