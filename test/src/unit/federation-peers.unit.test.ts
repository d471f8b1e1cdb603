// The peer registry (register, update, list) on the real pipeline over the in-memory log: the events
// each change writes, what the operator sees back, and the codes of every refusal, which write nothing.
// Base URLs resolve through a fixed table (in-memory-federation.ts): `*.example` is public, `*.internal`
// private, anything else does not resolve.
import { generateSigningKey, publicKeyBase64url } from '@tributary/infra';
import type { Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

const REGISTER = 'svc.federation.register_peer';
const UPDATE = 'svc.federation.update_peer';
const LIST = 'svc.federation.list_peers';
const SECRET = 's'.repeat(32);

interface PeerView {
  peerId: string;
  agentId: string;
  name: string;
  baseUrl: string;
  role: string;
  blocked: boolean;
  blockedReason: string | null;
  registeredAt: string;
  updatedAt: string;
  keys: { keyId: string; publicKey: string; validFrom: string; validUntil: string | null }[];
}

function peerKey(t: UnitInstance) {
  const publicKey = publicKeyBase64url(generateSigningKey().publicKey);
  return { publicKey, keyId: t.federation.keys.keyIdOf(publicKey) };
}

const tokenOf = (account: UnitAccount, scopes: readonly string[]): Principal => ({
  kind: 'token',
  jti: 'j',
  accountId: account.accountId,
  agentId: account.agentId,
  scopes,
});

/** An instance, its operator, and one peer registered by the operator. */
async function withPeer() {
  const t = await unitInstance();
  const operator = await t.signUp('ada');
  const key = peerKey(t);
  const peerId = randomUUID();
  const peer = (
    await t.when<PeerView>(
      REGISTER,
      { peerId, baseUrl: 'https://one.example', role: 'person', publicKey: key.publicKey, secret: SECRET },
      operator.principal,
    )
  ).result;
  return { t, operator, key, peerId, peer };
}

describe('svc.federation.register_peer', () => {
  test('given the operator and a secret, when they register a peer, then peer.registered with the URL normalized, the name defaulted to its host, only the secret’s hash, and the peer as the registry shows it', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const key = peerKey(t);
    const peerId = randomUUID();
    const before = t.clock.now().toISOString();
    const r = await t.when<PeerView & { secret?: string }>(
      REGISTER,
      {
        peerId,
        baseUrl: 'https://Peer.Example:8443/',
        role: 'region',
        publicKey: key.publicKey,
        secret: SECRET,
      },
      operator.principal,
    );
    const peer = r.thenEvents([
      {
        type: 'peer.registered',
        stream: `peer-${peerId}`,
        data: {
          peerId,
          name: 'peer.example:8443',
          baseUrl: 'https://peer.example:8443',
          role: 'region',
          keyId: key.keyId,
          publicKey: key.publicKey,
          secretHash: t.services.ids.sha256(`peer-secret:${SECRET}`),
        },
      },
    ]);
    const event = r.events[0]!;
    // The key is valid from the operation's time; the registry row carries the event's.
    const validFrom = String(event.data.validFrom);
    assert.ok(before <= validFrom && validFrom <= event.occurredAt, 'the key is valid from now');
    assert.ok(!JSON.stringify(event.data).includes(SECRET), 'the secret itself is not kept');
    assert.equal(peer.secret, undefined, 'a given secret is not echoed');
    assert.deepEqual(peer, {
      peerId,
      agentId: event.data.agentId,
      name: 'peer.example:8443',
      baseUrl: 'https://peer.example:8443',
      role: 'region',
      blocked: false,
      blockedReason: null,
      registeredAt: event.occurredAt,
      updatedAt: event.occurredAt,
      keys: [{ keyId: key.keyId, publicKey: key.publicKey, validFrom, validUntil: null, revokedAfter: null }],
    });
  });

  test('given no secret, then one is generated and answered once; only its hash is in the event; a matching keyId and a name are taken', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const key = peerKey(t);
    const r = await t.when<PeerView & { secret?: string }>(
      REGISTER,
      {
        peerId: randomUUID(),
        baseUrl: 'http://two.example/base',
        role: 'global',
        publicKey: key.publicKey,
        keyId: key.keyId,
        name: '  Two  ',
      },
      operator.principal,
    );
    const peer = r.thenEvents([
      { type: 'peer.registered', data: { name: 'Two', baseUrl: 'http://two.example/base' } },
    ]);
    assert.ok(peer.secret && peer.secret.length >= 32, 'a generated secret is answered');
    assert.equal(r.events[0]!.data.secretHash, t.services.ids.sha256(`peer-secret:${peer.secret}`));
    assert.ok(!JSON.stringify(r.events[0]!.data).includes(peer.secret));
    const listed = (await t.when<{ peers: PeerView[] }>(LIST, {}, operator.principal)).thenEvents([]);
    assert.ok(
      listed.peers.every((p) => !('secret' in p) && !('secretHash' in p)),
      'the registry never shows a secret',
    );
  });

  test('given a base URL that is not http(s), carries credentials, a query or a fragment, or is no URL, then federation.bad_base_url', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const { publicKey } = peerKey(t);
    for (const baseUrl of [
      'ftp://peer.example',
      'https://user:pw@peer.example',
      'https://peer.example/?a=1',
      'https://peer.example/#top',
      'peer.example',
    ])
      (
        await t.when(
          REGISTER,
          { peerId: randomUUID(), baseUrl, role: 'person', publicKey },
          operator.principal,
        )
      ).thenError('federation.bad_base_url');
  });

  test('given a host that resolves to a private address, then federation.unsafe_url; one that does not resolve, federation.unresolvable_url; an address literal outside the public range, federation.unsafe_url', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const { publicKey } = peerKey(t);
    const register = (baseUrl: string) =>
      t.when(REGISTER, { peerId: randomUUID(), baseUrl, role: 'person', publicKey }, operator.principal);
    (await register('https://db.internal')).thenError('federation.unsafe_url');
    (await register('https://127.0.0.1:8080')).thenError('federation.unsafe_url');
    (await register('https://[::1]')).thenError('federation.unsafe_url');
    (await register('https://nowhere.invalid')).thenError('federation.unresolvable_url');
  });

  test('given a key that is not an Ed25519 key, a keyId of another key, or this instance’s own key, then bad_public_key, key_id_mismatch, key_is_ours', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const register = (input: Record<string, unknown>) =>
      t.when(
        REGISTER,
        { peerId: randomUUID(), baseUrl: 'https://one.example', role: 'person', ...input },
        operator.principal,
      );
    // 43 characters whose last one has bits past the 32 bytes: no canonical key is spelled so.
    (await register({ publicKey: `${'A'.repeat(42)}B` })).thenError('federation.bad_public_key');
    const key = peerKey(t);
    (await register({ publicKey: key.publicKey, keyId: peerKey(t).keyId })).thenError(
      'federation.key_id_mismatch',
    );
    (await register({ publicKey: publicKeyBase64url(t.key.publicKey) })).thenError('federation.key_is_ours');
  });

  test('given a registered peer, then its id again is federation.peer_exists, its key under another id federation.key_in_use, and this instance’s own id federation.peer_is_self', async () => {
    const { t, operator, key, peerId } = await withPeer();
    const register = (id: string, publicKey: string) =>
      t.when(
        REGISTER,
        { peerId: id, baseUrl: 'https://three.example', role: 'person', publicKey },
        operator.principal,
      );
    (await register(peerId, peerKey(t).publicKey)).thenError('federation.peer_exists');
    (await register(randomUUID(), key.publicKey)).thenError('federation.key_in_use');
    const self = (await t.services.instance.read.get())!.instanceId;
    (await register(self, peerKey(t).publicKey)).thenError('federation.peer_is_self');
  });

  test('given input outside the schema (peer id not a UUID, unknown role, key of another length, short secret, long name, unknown member), then input.invalid', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const valid = {
      peerId: randomUUID(),
      baseUrl: 'https://one.example',
      role: 'person',
      publicKey: peerKey(t).publicKey,
    };
    for (const input of [
      { ...valid, peerId: 'peer-1' },
      { ...valid, role: 'empire' },
      { ...valid, publicKey: 'A'.repeat(44) },
      { ...valid, secret: 's'.repeat(31) },
      { ...valid, name: 'n'.repeat(101) },
      { ...valid, baseUrl: `https://one.example/${'p'.repeat(2000)}` },
      { ...valid, extra: true },
    ])
      (await t.when(REGISTER, input, operator.principal)).thenError('input.invalid');
  });

  test('given someone who is not the operator, then auth.controller_only; a token without svc.admin, auth.insufficient_scope; nobody, auth.required', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const input = () => ({
      peerId: randomUUID(),
      baseUrl: 'https://one.example',
      role: 'person',
      publicKey: peerKey(t).publicKey,
    });
    (await t.when(REGISTER, input(), bob.principal)).thenError('auth.controller_only');
    (await t.when(REGISTER, input(), tokenOf(operator, ['svc.profile.write']))).thenError(
      'auth.insufficient_scope',
    );
    (await t.when(REGISTER, input(), { kind: 'anonymous' })).thenError('auth.required');
    (await t.when(REGISTER, input(), tokenOf(operator, ['svc.admin']))).thenEvents([
      { type: 'peer.registered' },
    ]);
  });

  test('given an instance composed without federation, then federation.unavailable', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    t.services.federation = undefined;
    (
      await t.when(
        REGISTER,
        { peerId: randomUUID(), baseUrl: 'https://one.example', role: 'person', publicKey: 'A'.repeat(43) },
        operator.principal,
      )
    ).thenError('federation.unavailable');
    (await t.when(LIST, {}, operator.principal)).thenError('federation.unavailable');
  });
});

describe('svc.federation.update_peer', () => {
  test('given a peer, when its key is rotated, then peer.key_rotated retiring the current key now; the old key stays listed with its end', async () => {
    const { t, operator, key, peerId } = await withPeer();
    t.clock.advance(60_000);
    const next = peerKey(t);
    const r = await t.when<PeerView & { changed: string[] }>(
      UPDATE,
      { peerId, publicKey: next.publicKey, keyId: next.keyId },
      operator.principal,
    );
    const peer = r.thenEvents([
      {
        type: 'peer.key_rotated',
        stream: `peer-${peerId}`,
        data: { keyId: next.keyId, publicKey: next.publicKey, retiredKeyId: key.keyId },
      },
    ]);
    const event = r.events[0]!;
    // The new key takes over the moment the old one retires.
    const now = String(event.data.validFrom);
    assert.equal(event.data.retiredAt, now);
    assert.deepEqual(peer.changed, ['peer.key_rotated']);
    assert.deepEqual(
      peer.keys.map((k) => [k.keyId, k.validUntil]),
      [
        [key.keyId, now],
        [next.keyId, null],
      ],
    );
    assert.equal(peer.keys[1]!.validFrom, now);
    assert.equal(peer.updatedAt, event.occurredAt);
    // The retired key can never come back; the current one again changes nothing.
    (await t.when(UPDATE, { peerId, publicKey: key.publicKey }, operator.principal)).thenError(
      'federation.key_reused',
    );
    const same = (
      await t.when<{ changed: string[] }>(UPDATE, { peerId, publicKey: next.publicKey }, operator.principal)
    ).thenEvents([]);
    assert.deepEqual(same.changed, []);
  });

  test('given several changes at once, then each change’s event in order: key, secret, base URL, block', async () => {
    const { t, operator, peerId } = await withPeer();
    const next = peerKey(t);
    const r = await t.when<PeerView & { changed: string[]; secret?: string }>(
      UPDATE,
      {
        peerId,
        publicKey: next.publicKey,
        rotateSecret: true,
        baseUrl: 'https://moved.example/',
        blocked: true,
        reason: 'equivocated',
      },
      operator.principal,
    );
    const peer = r.thenEvents([
      { type: 'peer.key_rotated', data: { keyId: next.keyId } },
      { type: 'peer.secret_rotated' },
      { type: 'peer.base_url_changed', data: { baseUrl: 'https://moved.example' } },
      { type: 'peer.blocked', data: { reason: 'equivocated' } },
    ]);
    assert.ok(peer.secret, 'a generated secret is answered once');
    assert.equal(r.events[1]!.data.secretHash, t.services.ids.sha256(`peer-secret:${peer.secret}`));
    assert.deepEqual(peer.changed, [
      'peer.key_rotated',
      'peer.secret_rotated',
      'peer.base_url_changed',
      'peer.blocked',
    ]);
    assert.equal(peer.baseUrl, 'https://moved.example');
    assert.equal(peer.blocked, true);
    assert.equal(peer.blockedReason, 'equivocated');
  });

  test('given a peer, then blocking without a reason records "operator", blocking again or setting the same URL or secret changes nothing, and unblocking clears the reason', async () => {
    const { t, operator, peerId } = await withPeer();
    (await t.when(UPDATE, { peerId, blocked: true }, operator.principal)).thenEvents([
      { type: 'peer.blocked', data: { reason: 'operator' } },
    ]);
    (
      await t.when(
        UPDATE,
        { peerId, blocked: true, baseUrl: 'https://one.example/', secret: SECRET },
        operator.principal,
      )
    ).thenEvents([]);
    const peer = (await t.when<PeerView>(UPDATE, { peerId, blocked: false }, operator.principal)).thenEvents([
      { type: 'peer.unblocked' },
    ]);
    assert.equal(peer.blocked, false);
    assert.equal(peer.blockedReason, null);
    (await t.when(UPDATE, { peerId, secret: 't'.repeat(32) }, operator.principal)).thenEvents([
      {
        type: 'peer.secret_rotated',
        data: { secretHash: t.services.ids.sha256(`peer-secret:${'t'.repeat(32)}`) },
      },
    ]);
  });

  test('given a secret and a request for a generated one at once, then federation.secret_conflict; an unknown peer, federation.peer_not_found', async () => {
    const { t, operator, peerId } = await withPeer();
    (await t.when(UPDATE, { peerId, secret: SECRET, rotateSecret: true }, operator.principal)).thenError(
      'federation.secret_conflict',
    );
    (await t.when(UPDATE, { peerId: randomUUID(), blocked: true }, operator.principal)).thenError(
      'federation.peer_not_found',
    );
  });

  test('given another peer’s key, this instance’s key, a mismatched keyId, a bad key or an unsafe URL, then the same codes as at registration, and the peer is unchanged', async () => {
    const { t, operator, peerId, peer } = await withPeer();
    const other = peerKey(t);
    await t.when(
      REGISTER,
      { peerId: randomUUID(), baseUrl: 'https://two.example', role: 'person', publicKey: other.publicKey },
      operator.principal,
    );
    const update = (input: Record<string, unknown>) =>
      t.when(UPDATE, { peerId, ...input }, operator.principal);
    (await update({ publicKey: other.publicKey })).thenError('federation.key_in_use');
    (await update({ publicKey: publicKeyBase64url(t.key.publicKey) })).thenError('federation.key_is_ours');
    (await update({ publicKey: peerKey(t).publicKey, keyId: other.keyId })).thenError(
      'federation.key_id_mismatch',
    );
    (await update({ publicKey: `${'A'.repeat(42)}B`, blocked: true })).thenError('federation.bad_public_key');
    (await update({ baseUrl: 'https://db.internal', blocked: true })).thenError('federation.unsafe_url');
    (await update({ baseUrl: 'mailto:ops@one.example' })).thenError('federation.bad_base_url');
    assert.deepEqual(await t.federation.read.peer(peerId), peer);
  });

  test('given input outside the schema or someone who is not the operator, then input.invalid and auth.controller_only', async () => {
    const { t, operator, peerId } = await withPeer();
    const bob = await t.signUp('bob');
    for (const input of [
      { peerId: 'peer-1' },
      { peerId, reason: 'r'.repeat(501) },
      { peerId, secret: 'short' },
      { peerId, blocked: 'yes' },
      { peerId, extra: 1 },
    ])
      (await t.when(UPDATE, input, operator.principal)).thenError('input.invalid');
    (await t.when(UPDATE, { peerId, blocked: true }, bob.principal)).thenError('auth.controller_only');
  });
});

describe('svc.federation.list_peers', () => {
  test('given peers registered one after the other, then they are listed in registration order with their keys; others may not list them', async () => {
    const { t, operator, peerId } = await withPeer();
    t.clock.advance(1000);
    const second = randomUUID();
    await t.when(
      REGISTER,
      { peerId: second, baseUrl: 'https://two.example', role: 'group', publicKey: peerKey(t).publicKey },
      operator.principal,
    );
    const { peers } = (await t.when<{ peers: PeerView[] }>(LIST, {}, operator.principal)).thenEvents([]);
    assert.deepEqual(
      peers.map((p) => [p.peerId, p.role, p.keys.length]),
      [
        [peerId, 'person', 1],
        [second, 'group', 1],
      ],
    );
    const bob = await t.signUp('bob');
    (await t.when(LIST, {}, bob.principal)).thenError('auth.controller_only');
    (await t.when(LIST, { all: true }, operator.principal)).thenError('input.invalid');
  });

  test('given five peers, when they are read two a page, then each comes once with the counts by state; a limit over 200 or a cursor no page gave is refused with its code', async () => {
    const { t, operator, peerId } = await withPeer();
    const ids = [peerId];
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      const id = randomUUID();
      await t.when(
        REGISTER,
        { peerId: id, baseUrl: `https://p${i}.example`, role: 'person', publicKey: peerKey(t).publicKey },
        operator.principal,
      );
      ids.push(id);
    }
    await t.when(UPDATE, { peerId: ids[2], blocked: true }, operator.principal);
    type Page = {
      peers: (PeerView & { state: string })[];
      next: string | null;
      summary: { total: number; blocked: number; unknown: number };
    };
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Page = (
        await t.when<Page>(LIST, { limit: 2, ...(after && { after }) }, operator.principal)
      ).thenEvents([]);
      assert.ok(page.peers.length <= 2);
      assert.deepEqual([page.summary.total, page.summary.blocked, page.summary.unknown], [5, 1, 4]);
      seen.push(...page.peers.map((p) => p.peerId));
      after = page.next;
    } while (after);
    assert.deepEqual(seen, ids);
    const blocked = (await t.when<Page>(LIST, { state: 'blocked' }, operator.principal)).thenEvents([]);
    assert.deepEqual(
      blocked.peers.map((p) => [p.peerId, p.state]),
      [[ids[2], 'blocked']],
    );
    (await t.when(LIST, { limit: 201 }, operator.principal)).thenError('federation.bad_page_limit');
    (await t.when(LIST, { limit: '1e2' }, operator.principal)).thenError('federation.bad_page_limit');
    (await t.when(LIST, { after: 'bm90IGEgY3Vyc29y' }, operator.principal)).thenError(
      'federation.bad_cursor',
    );
    (await t.when(LIST, { state: 'asleep' }, operator.principal)).thenError('input.invalid');
  });
});
