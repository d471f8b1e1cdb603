// A peer's stream stays a chain here. A hostile peer — a registered key, signing genuinely — pushes
// an older version after a newer one (refused `federation.out_of_order`, nothing written, the newer state
// stays) and a second, different event at a version it already used (refused `federation.equivocation`,
// both signed envelopes kept as evidence and shown to the operator). `tributary log verify` finds such
// a chain when it is written into the log behind the import's back. An honest instance's own chain, with
// the gaps its private events leave, still goes through.
import { runCli } from '@tributary/test';
import { createEnvelopeSigner, publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  clientOf,
  footprint,
  ownEvents,
  register,
  startNode,
  type Loose,
  type Node,
} from './federation-helpers.js';

describe("a peer's stream stays a chain", () => {
  let us: Node; // the receiver
  let honest: Node; // a real instance, whose own chain must keep going through
  const hostileId = randomUUID();
  const keys = generateSigningKey();
  const hostileSigner = createEnvelopeSigner({ origin: hostileId, ...keys });
  const hostile = clientOf({ keyId: hostileSigner.keyId, privateKey: keys.privateKey });
  const agentId = randomUUID();
  const stream = `agent-${agentId}`;
  const seal = (streamVersion: number, type: string, data: Record<string, unknown>) =>
    hostileSigner.seal({
      v: 1,
      id: randomUUID(),
      type,
      origin: hostileId,
      keyId: hostileSigner.keyId,
      stream,
      streamVersion,
      actorId: agentId,
      occurredAt: new Date().toISOString(),
      nonce: randomBytes(16).toString('base64url'),
      data,
    });
  const named = (streamVersion: number, name: string) =>
    seal(streamVersion, 'agent.profile_updated', { name });
  const push = (...texts: string[]) => hostile.importEvents(us.url, texts);
  const cli = (...args: string[]) => runCli(us.instance, args, { BASE_URL: us.url, INSTANCE_ROLE: 'global' });
  /** The hostile agent's name as the read model shows it, and the log's head. */
  const state = async () => {
    const { rows } = await us.instance.instance.pool.query<{ name: string; head: string }>(
      `SELECT a.name, (SELECT max(position) FROM events) AS head
       FROM rm_remote_agents r JOIN rm_agents a ON a.agent_id = r.local_agent_id
       WHERE r.origin = $1 AND r.remote_agent_id = $2`,
      [hostileId, agentId],
    );
    return rows[0];
  };
  const v7 = named(7, 'Seven');

  beforeAll(async () => {
    [us, honest] = await Promise.all([startNode('global', 'Receiver'), startNode('group', 'Honest')]);
    const r = await us.operator.post('/api/federation/peers', {
      peerId: hostileId,
      baseUrl: 'http://127.0.0.1:9',
      role: 'person',
      publicKey: publicKeyBase64url(keys.publicKey),
    });
    assert.equal(r.status, 201, r.text);
    await register(us, honest);
    const first = await push(
      seal(1, 'agent.created', { agentId, kind: 'person', name: 'One' }).text,
      v7.text,
    );
    assert.deepEqual(
      first.results.map((x) => x.status),
      ['accepted', 'accepted'],
      JSON.stringify(first.results),
    );
  });
  afterAll(async () => {
    await Promise.all([us?.instance.destroy(), honest?.instance.destroy()]);
  });

  test('given version 7 imported, when version 5 is pushed, then it is refused federation.out_of_order and nothing changes', async () => {
    const before = { footprint: await footprint(us), state: await state() };
    assert.equal(before.state?.name, 'Seven');
    const r = await push(named(5, 'Five').text);
    assert.equal(r.results[0]!.status, 'rejected');
    assert.equal(r.results[0]!.code, 'federation.out_of_order');
    assert.deepEqual(await footprint(us), before.footprint, 'nothing was written');
    assert.deepEqual(await state(), before.state, 'the read model keeps version 7 and the log head stays');
  });

  test('given one batch with version 9 before version 8, then 9 is accepted and 8 refused federation.out_of_order', async () => {
    const r = await push(named(9, 'Nine').text, named(8, 'Eight').text);
    assert.deepEqual(
      r.results.map((x) => [x.status, x.code]),
      [
        ['accepted', undefined],
        ['rejected', 'federation.out_of_order'],
      ],
    );
    assert.equal((await state())?.name, 'Nine');
  });

  test('given version 7 imported, when a different event at version 7 is pushed, then federation.equivocation, nothing is imported, and the evidence is kept and shown', async () => {
    const before = { footprint: await footprint(us), state: await state() };
    const twin = named(7, 'Seven, again');
    const r = await push(twin.text, v7.text);
    assert.deepEqual(
      r.results.map((x) => [x.status, x.code]),
      [
        ['rejected', 'federation.equivocation'],
        ['duplicate', undefined],
      ],
    );
    // Sent again, it is refused again, and kept once.
    assert.equal((await push(twin.text)).results[0]!.code, 'federation.equivocation');
    assert.deepEqual(await footprint(us), before.footprint, 'nothing was imported');
    assert.deepEqual(await state(), before.state);

    // The operator sees it: REST (the catalogue operation), the status, and the CLI.
    const listed = await us.operator.post('/api/ops/svc.federation.equivocations', { peerId: hostileId });
    assert.equal(listed.status, 200, listed.text);
    const records = listed.json.result.equivocations as Loose[];
    assert.equal(records.length, 1);
    assert.equal(records[0]!.origin, hostileId);
    assert.equal(records[0]!.stream, stream);
    assert.equal(records[0]!.streamVersion, 7);
    assert.equal(records[0]!.heldEventId, v7.envelope.id);
    assert.equal(records[0]!.heldEnvelope, v7.text, 'the imported event, exactly as signed');
    assert.equal(records[0]!.refusedEventId, twin.envelope.id);
    assert.equal(records[0]!.refusedEnvelope, twin.text, 'the refused event, exactly as received');

    const status = await us.operator.get('/api/federation/status');
    const peer = (status.json.cursors as Loose[]).find((p) => p.peerId === hostileId)!;
    assert.equal(peer.equivocations.count, 1);
    assert.equal(
      (status.json.cursors as Loose[]).find((p) => p.peerId === honest.id)!.equivocations.count,
      0,
    );

    const shown = await cli('federation', 'status');
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`${hostileId}[^\\n]*\\n[^]*EQUIVOCATED ×1`));
    const evidence = await cli('federation', 'equivocations', '--json');
    assert.equal(evidence.code, 0, evidence.stderr);
    const parsed = JSON.parse(evidence.stdout) as Loose[];
    assert.equal(parsed.length, 1);
    assert.equal(parsed[0]!.refusedEnvelope, twin.text);
  });

  test("given an honest instance's own chain (with the gaps of its private events), then it is imported, and again only as duplicates", async () => {
    const first = await clientOf(honest).importEvents(us.url, await ownEvents(honest));
    assert.equal(first.rejected, 0, JSON.stringify(first.results));
    assert.ok(first.accepted >= 2);
    const profile = await honest.operator.post('/api/ops/svc.profile.update', { bio: 'Still here' });
    assert.equal(profile.status, 201, profile.text);
    const second = await clientOf(honest).importEvents(us.url, await ownEvents(honest));
    assert.equal(second.rejected, 0, JSON.stringify(second.results));
    assert.equal(second.accepted, 1);
    assert.equal(second.duplicates, first.accepted);
  });

  test('given an out-of-order or equivocating event written into the log by SQL, then `log verify` exits 1 naming it', async () => {
    const clean = await cli('log', 'verify');
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /log verify: OK/);

    const pool = us.instance.instance.pool;
    const localStream = `${hostileId}/${stream}`;
    const insert = async (text: string, id: string) => {
      const { rows } = await pool.query<{ v: number; actor: string }>(
        'SELECT max(stream_version) AS v, max(actor_id) AS actor FROM events WHERE stream = $1',
        [localStream],
      );
      await pool.query(
        `INSERT INTO events (id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope)
         VALUES ($1, $2, $3, $4, 'agent.profile_updated', $5, now(), false, $6)`,
        [id, hostileId, localStream, rows[0]!.v + 1, rows[0]!.actor, text],
      );
    };
    const remove = async (id: string) => {
      await pool.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
      await pool.query('DELETE FROM events WHERE id = $1', [id]);
      await pool.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    };

    const twin = named(9, 'Nine, again');
    await insert(twin.text, twin.envelope.id);
    const equivocating = await cli('log', 'verify');
    assert.equal(equivocating.code, 1);
    assert.match(equivocating.stderr, /log\.imported_equivocation/);
    assert.match(equivocating.stderr, new RegExp(twin.envelope.id));
    await remove(twin.envelope.id);

    const late = named(3, 'Three');
    await insert(late.text, late.envelope.id);
    const outOfOrder = await cli('log', 'verify');
    assert.equal(outOfOrder.code, 1);
    assert.match(outOfOrder.stderr, /log\.imported_out_of_order/);
    assert.match(outOfOrder.stderr, new RegExp(late.envelope.id));
  });
});
