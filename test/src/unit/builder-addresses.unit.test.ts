// Site addresses on the real pipeline over the in-memory log: claiming (a label given, or suggested from
// the site title), one address per site, releasing and the hold-back, every refusal writing nothing;
// on a sovereign instance the claim through the global registry (a recording client standing for it);
// and the global registry's own operations as a peer runs them.
import { decideCreateSite, DomainError, initialSiteState } from '@tributary/domain';
import { generateSigningKey, publicKeyBase64url } from '@tributary/infra';
import { defaultSiteId, type Principal, type SiteAddressRegistryClient } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

const CLAIM = 'svc.builder.claim_address';
const RELEASE = 'svc.builder.release_address';
const REGISTER = 'svc.builder.register_address';
const DEREGISTER = 'svc.builder.deregister_address';
const RECORD = 'svc.builder.record_address_instance';
const DAY = 86_400_000;

interface AddressAnswer {
  label: string;
  siteId: string;
  url: string;
  pathUrl: string;
  claimedAt: string;
}

/** A site of `owner` with this title, written as the builder writes one (site and starter draft). */
async function siteOf(t: UnitInstance, owner: UnitAccount, title: string, isDefault = false) {
  const siteId = isDefault ? defaultSiteId(t.services.ids, owner.agentId) : randomUUID();
  await t.given(
    owner.agentId,
    decideCreateSite({ siteId, ownerAgentId: owner.agentId, title, isDefault }, initialSiteState()),
  );
  return siteId;
}

const tokenOf = (account: UnitAccount, scopes: readonly string[]): Principal => ({
  kind: 'token',
  jti: 'j',
  accountId: account.accountId,
  agentId: account.agentId,
  scopes,
});

describe('svc.builder.claim_address', () => {
  test('given an owner without a site, when they claim a label, then their default site is created and holds it, served under SITES_DOMAIN and /sites/', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<AddressAnswer>(CLAIM, { label: 'bakery' }, ada.principal);
    const siteId = defaultSiteId(t.services.ids, ada.agentId);
    const answer = r.thenEvents([
      { type: 'site.created' },
      { type: 'site.draft_saved' },
      {
        type: 'site.address_claimed',
        stream: 'address-label-bakery',
        data: { label: 'bakery', siteId, ownerAgentId: ada.agentId },
      },
      { type: 'site.address_set', stream: `address-site-${siteId}`, data: { siteId, label: 'bakery' } },
    ]);
    assert.deepEqual(
      { ...answer, claimedAt: undefined },
      {
        label: 'bakery',
        siteId,
        url: 'https://bakery.sites.unit.test/',
        pathUrl: 'https://unit.tributary.test/sites/bakery/',
        claimedAt: undefined,
        typed: 'bakery',
        repairs: [],
      },
    );
  });

  test('given a label typed carelessly, when claimed, then the repaired label is claimed and the answer says what was repaired', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await siteOf(t, ada, 'Ada', true);
    const answer = (
      await t.when<AddressAnswer & { typed: string; repairs: string[] }>(
        CLAIM,
        { label: "Ada's Bakery" },
        ada.principal,
      )
    ).thenEvents([
      { type: 'site.address_claimed', data: { label: 'adas-bakery' } },
      { type: 'site.address_set', data: { label: 'adas-bakery' } },
    ]);
    assert.equal(answer.label, 'adas-bakery');
    assert.equal(answer.typed, "Ada's Bakery");
    assert.deepEqual(answer.repairs, ['lower_cased', 'apostrophes_dropped', 'spaces_to_hyphens']);
  });

  test('given a wanted label that is taken, held or reserved, then the refusal offers free labels like it and writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await siteOf(t, ada, 'Ada', true);
    await siteOf(t, bob, 'Bob', true);
    await t.when(CLAIM, { label: 'adas-bakery' }, ada.principal);
    const taken = await t.when(CLAIM, { label: "Ada's Bakery" }, bob.principal);
    taken.thenError('builder.label_taken');
    const details = (taken.error as DomainError).details!;
    assert.deepEqual(details.suggestions, ['adas-bakery-2', 'adas-bakery-3', 'adas-bakery-4']);
    assert.equal(details.label, 'adas-bakery');
    assert.equal(details.typed, "Ada's Bakery");
    const reserved = await t.when(CLAIM, { label: 'Admin' }, bob.principal);
    reserved.thenError('builder.label_invalid');
    assert.deepEqual((reserved.error as DomainError).details?.suggestions, [
      'admin-site',
      'admin-site-2',
      'admin-site-3',
    ]);
    // A suggestion taken up is claimed.
    (await t.when(CLAIM, { label: 'adas-bakery-2' }, bob.principal)).thenEvents([
      { type: 'site.address_claimed', data: { label: 'adas-bakery-2' } },
      { type: 'site.address_set' },
    ]);
  });

  test('given a site, when its owner claims without a label, then one is suggested from its title, and -2 when that is taken', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const first = await siteOf(t, ada, 'Crème Brûlée Café');
    const second = await siteOf(t, bob, 'Creme Brulee Cafe');
    const a = (await t.when<AddressAnswer>(CLAIM, { siteId: first }, ada.principal)).result;
    assert.equal(a.label, 'creme-brulee-cafe');
    const b = (await t.when<AddressAnswer>(CLAIM, { siteId: second }, bob.principal)).result;
    assert.equal(b.label, 'creme-brulee-cafe-2');
  });

  test('given a site with an address, when its owner claims it again (or any), then nothing changes; another label is builder.site_has_address', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada, 'Ada', true);
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    (await t.when(CLAIM, { label: 'bakery' }, ada.principal)).thenEvents([]);
    const again = (await t.when<AddressAnswer>(CLAIM, { siteId }, ada.principal)).thenEvents([]);
    assert.equal(again.label, 'bakery');
    (await t.when(CLAIM, { label: 'other' }, ada.principal)).thenError('builder.site_has_address');
  });

  test("given a label another owner's site holds, then builder.label_taken, and nothing is written", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    await siteOf(t, bob, 'Bob', true);
    (await t.when(CLAIM, { label: 'bakery' }, bob.principal)).thenError('builder.label_taken');
  });

  const bad: [label: string, reason: string][] = [
    ['\u0430pple', 'charset'],
    ['\u0430\u0440\u0440\u04cf\u0435', 'charset'],
    ['xn--pple-43d', 'punycode'],
    ['ab', 'too_short'],
    ['www', 'reserved'],
    ['admin', 'reserved'],
    ['unit', 'reserved'], // the instance's own name
    ['tributary', 'reserved'], // a label of its host, unit.tributary.test
  ];
  for (const [label, reason] of bad)
    test(`given the label ${JSON.stringify(label)}, then builder.label_invalid (${reason}) and nothing is written, not even the default site`, async () => {
      const t = await unitInstance();
      const ada = await t.signUp('ada');
      const r = await t.when(CLAIM, { label }, ada.principal);
      r.thenError('builder.label_invalid');
      assert.equal((r.error as DomainError).details?.reason, reason);
    });

  test('given a label of more than 253 characters or an unknown field, then input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when(CLAIM, { label: 'a'.repeat(254) }, ada.principal)).thenError('input.invalid');
    (await t.when(CLAIM, { label: 'bakery', domain: 'x' }, ada.principal)).thenError('input.invalid');
  });

  test("given someone else's site, then builder.site_not_found; a token without svc.builder.write is refused", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const adas = await siteOf(t, ada, 'Ada');
    (await t.when(CLAIM, { siteId: adas, label: 'bakery' }, bob.principal)).thenError(
      'builder.site_not_found',
    );
    (await t.when(CLAIM, { siteId: adas }, tokenOf(ada, ['svc.builder.read']))).thenError(
      'auth.insufficient_scope',
    );
    (await t.when(CLAIM, { siteId: adas, label: 'bakery' }, tokenOf(ada, ['svc.builder.write']))).thenEvents([
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
    ]);
  });
});

describe('svc.builder.create_site with a label', () => {
  const CREATE = 'svc.builder.create_site';

  test('given a free label, when a site is created with it, then the site, its draft and its address are one append', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const site = (
      await t.when<{ siteId: string }>(CREATE, { title: 'Soups', label: 'soups' }, ada.principal)
    ).thenEvents([
      { type: 'site.created' },
      { type: 'site.draft_saved' },
      { type: 'site.address_claimed', data: { label: 'soups' } },
      { type: 'site.address_set', data: { label: 'soups' } },
    ]);
    assert.equal((await t.services.builder.read.addressOfSite(site.siteId))?.label, 'soups');
    const second = (
      await t.when<{ siteId: string; isDefault: boolean }>(
        CREATE,
        { title: 'Stews', label: 'stews' },
        ada.principal,
      )
    ).result;
    assert.equal(second.isDefault, false);
    assert.equal((await t.services.builder.read.addressOfSite(second.siteId))?.label, 'stews');
  });

  test('given a taken, held or invalid label, then no site is created', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await t.when(CREATE, { title: 'Soups', label: 'soups' }, ada.principal);
    (await t.when(CREATE, { title: 'Mine', label: 'soups' }, bob.principal)).thenError('builder.label_taken');
    (await t.when(CREATE, { title: 'Mine', label: 'xn--soups' }, bob.principal)).thenError(
      'builder.label_invalid',
    );
    await t.when(RELEASE, {}, ada.principal);
    (await t.when(CREATE, { title: 'Mine', label: 'soups' }, bob.principal)).thenError('builder.label_held');
    // Held for Ada: her new site may take it back.
    (await t.when(CREATE, { title: 'Soups again', label: 'soups' }, ada.principal)).thenEvents([
      { type: 'site.created' },
      { type: 'site.draft_saved' },
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
    ]);
  });

  test('given a sovereign instance whose global instance refuses the label, then no site is created', async () => {
    const { client, calls } = recordingRegistry((call) => {
      if (call === 'claim') throw refusal('builder.label_taken');
    });
    const { t, ada } = await sovereign(client);
    (await t.when(CREATE, { title: 'Soups', label: 'soups' }, ada.principal)).thenError(
      'builder.label_taken',
    );
    assert.ok(calls.includes('claim soups https://global.example'));
  });
});

describe('svc.builder.release_address', () => {
  test('given a site with an address, when released, then the label is held back for ADDRESS_HOLD_DAYS', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada, 'Ada', true);
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    const now = t.clock.now().getTime();
    const released = (
      await t.when<{ label: string; releasedAt: string; holdUntil: string }>(RELEASE, {}, ada.principal)
    ).thenEvents([
      { type: 'site.address_released', stream: 'address-label-bakery', data: { label: 'bakery', siteId } },
      { type: 'site.address_set', data: { siteId, label: null } },
    ]);
    assert.equal(released.label, 'bakery');
    const held = Date.parse(released.holdUntil) - Date.parse(released.releasedAt);
    assert.equal(held, 30 * DAY);
    assert.ok(Math.abs(Date.parse(released.releasedAt) - now) < 5000);
    assert.equal(await t.services.builder.read.addressOfSite(siteId), null);
    const read = await t.when<{ address: unknown }>('svc.builder.read_site', {}, ada.principal);
    assert.equal(read.result.address, null);
  });

  test('given a site with an address, then svc.builder.read_site shows it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    const read = await t.when<{ address: AddressAnswer | null }>('svc.builder.read_site', {}, ada.principal);
    assert.equal(read.result.address?.label, 'bakery');
    assert.equal(read.result.address?.url, 'https://bakery.sites.unit.test/');
  });

  test('given a released label, then only its previous owner may claim it within the hold; anyone after it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await siteOf(t, ada, 'Ada', true);
    const adasOther = await siteOf(t, ada, 'Ada again');
    await siteOf(t, bob, 'Bob', true);
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    await t.when(RELEASE, {}, ada.principal);

    const refused = await t.when(CLAIM, { label: 'bakery' }, bob.principal);
    refused.thenError('builder.label_held');
    assert.ok((refused.error as DomainError).details?.holdUntil);

    (await t.when(CLAIM, { siteId: adasOther, label: 'bakery' }, ada.principal)).thenEvents([
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
    ]);
    await t.when(RELEASE, { siteId: adasOther }, ada.principal);
    t.clock.advance(30 * DAY + 1000);
    (await t.when(CLAIM, { label: 'bakery' }, bob.principal)).thenEvents([
      { type: 'site.address_claimed', data: { ownerAgentId: bob.agentId } },
      { type: 'site.address_set' },
    ]);
  });

  test('given a held label, when someone else asks for a suggestion from the same title, then the next one is given', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await siteOf(t, ada, 'Bakery', true);
    await t.when(CLAIM, {}, ada.principal);
    await t.when(RELEASE, {}, ada.principal);
    const bobs = await siteOf(t, bob, 'Bakery');
    assert.equal(
      (await t.when<AddressAnswer>(CLAIM, { siteId: bobs }, bob.principal)).result.label,
      'bakery-2',
    );
  });

  test('given a site without an address, then builder.address_not_found and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await siteOf(t, ada, 'Ada', true);
    (await t.when(RELEASE, {}, ada.principal)).thenError('builder.address_not_found');
  });
});

/** What the sovereign instance asked the global registry, and how the stand-in answers. */
function recordingRegistry(answer: (call: string, label?: string) => void = () => {}) {
  const calls: string[] = [];
  const client: SiteAddressRegistryClient = {
    async claim(baseUrl, c) {
      calls.push(`claim ${c.label} ${baseUrl}`);
      answer('claim', c.label);
    },
    async release(baseUrl, c) {
      calls.push(`release ${c.label} ${baseUrl}`);
      answer('release', c.label);
    },
    async recordInstance(baseUrl, i) {
      calls.push(`instance ${i.hostname} ${baseUrl}`);
      answer('instance');
    },
  };
  return { client, calls };
}

/** A person instance whose operator registered a global peer, with `registry` standing for it. */
async function sovereign(registry: SiteAddressRegistryClient) {
  const t = await unitInstance({ role: 'person' });
  const operator = await t.signUp('opal');
  const publicKey = publicKeyBase64url(generateSigningKey().publicKey);
  await t.when(
    'svc.federation.register_peer',
    {
      peerId: randomUUID(),
      baseUrl: 'https://global.example',
      role: 'global',
      publicKey,
      secret: 's'.repeat(32),
    },
    operator.principal,
  );
  t.services.builder.addresses.registry = registry;
  const ada = await t.signUp('ada');
  await siteOf(t, ada, 'Ada', true);
  return { t, ada };
}

const refusal = (code: 'builder.label_taken' | 'federation.peer_unreachable') =>
  new DomainError(code, code === 'builder.label_taken' ? 'conflict' : 'unavailable', code);

describe('a sovereign instance peered with the global instance', () => {
  test('given a free label, when claimed, then the host is recorded and the label claimed globally first, then here', async () => {
    const { client, calls } = recordingRegistry();
    const { t, ada } = await sovereign(client);
    (await t.when(CLAIM, { label: 'bakery' }, ada.principal)).thenEvents([
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
    ]);
    assert.deepEqual(calls, [
      'instance unit.tributary.test https://global.example',
      'claim bakery https://global.example',
    ]);
    await t.when(RELEASE, {}, ada.principal);
    assert.equal(calls.at(-1), 'release bakery https://global.example');
  });

  test('given the global instance refuses the label, then builder.label_taken (where: global) and nothing is written here', async () => {
    const { client } = recordingRegistry((call) => {
      if (call === 'claim') throw refusal('builder.label_taken');
    });
    const { t, ada } = await sovereign(client);
    const r = await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    r.thenError('builder.label_taken');
    assert.equal((r.error as DomainError).details?.where, 'global');
  });

  test('given the global instance refuses a suggestion, then the next suggestion is claimed', async () => {
    const { client, calls } = recordingRegistry((call, label) => {
      if (call === 'claim' && label === 'ada') throw refusal('builder.label_taken');
    });
    const { t, ada } = await sovereign(client);
    assert.equal((await t.when<AddressAnswer>(CLAIM, {}, ada.principal)).result.label, 'ada-2');
    assert.deepEqual(
      calls.filter((c) => c.startsWith('claim')),
      ['claim ada https://global.example', 'claim ada-2 https://global.example'],
    );
  });

  test('given the global instance is unreachable, then claim and release are 503 builder.address_registry_unavailable and nothing is written', async () => {
    let down = false;
    const { client } = recordingRegistry(() => {
      if (down) throw refusal('federation.peer_unreachable');
    });
    const { t, ada } = await sovereign(client);
    down = true;
    const r = await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    r.thenError('builder.address_registry_unavailable');
    assert.equal((r.error as DomainError).kind, 'unavailable');
    assert.equal((r.error as DomainError).details?.remoteCode, 'federation.peer_unreachable');
    down = false;
    await t.when(CLAIM, { label: 'bakery' }, ada.principal);
    down = true;
    (await t.when(RELEASE, {}, ada.principal)).thenError('builder.address_registry_unavailable');
    assert.equal((await t.services.builder.read.addresses(['bakery']))[0]?.state, 'claimed');
  });
});

/** A global instance with a registered peer instance, and that peer's principal. */
async function globalWithPeer(baseUrl = 'https://one.example') {
  const t = await unitInstance();
  const operator = await t.signUp('opal');
  const peerId = randomUUID();
  const publicKey = publicKeyBase64url(generateSigningKey().publicKey);
  const peer = (
    await t.when<{ agentId: string }>(
      'svc.federation.register_peer',
      { peerId, baseUrl, role: 'person', publicKey, secret: 's'.repeat(32) },
      operator.principal,
    )
  ).result;
  const principal: Principal = { kind: 'peer', peerId, agentId: peer.agentId };
  return { t, operator, peerId, principal };
}

describe('the global address registry', () => {
  test('given a free label, when a peer instance registers it, then it holds it; another instance cannot; the first again changes nothing', async () => {
    const { t, peerId, principal } = await globalWithPeer();
    (await t.when(REGISTER, { label: 'bakery', siteId: 's1' }, principal)).thenEvents([
      {
        type: 'site.address_registered',
        stream: 'address-label-bakery',
        data: { label: 'bakery', instanceId: peerId, siteId: 's1' },
      },
    ]);
    (await t.when(REGISTER, { label: 'bakery', siteId: 's1' }, principal)).thenEvents([]);
    const [entry] = await t.services.builder.read.addresses(['bakery']);
    assert.equal(entry?.state, 'registered');
    assert.equal(entry?.instanceId, peerId);
  });

  test('given a label a peer holds, then a site of the global instance cannot claim it; and a label a site here holds, a peer cannot register', async () => {
    const { t, principal } = await globalWithPeer();
    const ada = await t.signUp('ada');
    await siteOf(t, ada, 'Ada', true);
    await t.when(REGISTER, { label: 'bakery', siteId: 's1' }, principal);
    (await t.when(CLAIM, { label: 'bakery' }, ada.principal)).thenError('builder.label_taken');
    await t.when(CLAIM, { label: 'cafe' }, ada.principal);
    (await t.when(REGISTER, { label: 'cafe', siteId: 's1' }, principal)).thenError('builder.label_taken');
  });

  test('given a peer deregisters, then the label is held for it; invalid and reserved labels are refused', async () => {
    const { t, principal } = await globalWithPeer();
    await t.when(REGISTER, { label: 'bakery', siteId: 's1' }, principal);
    (await t.when(DEREGISTER, { label: 'cafe', siteId: 's1' }, principal)).thenError(
      'builder.address_not_found',
    );
    (await t.when(DEREGISTER, { label: 'bakery', siteId: 's1' }, principal)).thenEvents([
      { type: 'site.address_deregistered', data: { label: 'bakery' } },
    ]);
    const ada = await t.signUp('ada');
    await siteOf(t, ada, 'Ada', true);
    (await t.when(CLAIM, { label: 'bakery' }, ada.principal)).thenError('builder.label_held');
    (await t.when(REGISTER, { label: 'bakery', siteId: 's2' }, principal)).thenEvents([
      { type: 'site.address_registered' },
    ]);
    (await t.when(REGISTER, { label: 'a.b', siteId: 's1' }, principal)).thenError('builder.label_invalid');
    (await t.when(REGISTER, { label: 'www', siteId: 's1' }, principal)).thenError('builder.label_invalid');
  });

  test("given a peer, when it records its host, then only its base URL's host or a name under it is taken", async () => {
    const { t, peerId, principal } = await globalWithPeer('https://one.example');
    (await t.when(RECORD, { hostname: 'sites.one.example' }, principal)).thenEvents([
      { type: 'site.address_instance_recorded', data: { instanceId: peerId, hostname: 'sites.one.example' } },
    ]);
    (await t.when(RECORD, { hostname: 'sites.one.example' }, principal)).thenEvents([]);
    assert.equal(await t.services.builder.read.addressInstanceHost(peerId), 'sites.one.example');
    (await t.when(RECORD, { hostname: 'two.example' }, principal)).thenError('builder.hostname_not_yours');
    (await t.when(RECORD, { hostname: 'xone.example' }, principal)).thenError('builder.hostname_not_yours');
    (await t.when(RECORD, { hostname: 'One.Example' }, principal)).thenError('builder.hostname_invalid');
  });

  test('given a session, or an instance that is not the global one, then the registry refuses', async () => {
    const { t, operator } = await globalWithPeer();
    (await t.when(REGISTER, { label: 'bakery', siteId: 's1' }, operator.principal)).thenError(
      'federation.signature_required',
    );
    const s = await unitInstance({ role: 'person' });
    const op = await s.signUp('opal');
    const publicKey = publicKeyBase64url(generateSigningKey().publicKey);
    const peerId = randomUUID();
    const peer = (
      await s.when<{ agentId: string }>(
        'svc.federation.register_peer',
        { peerId, baseUrl: 'https://one.example', role: 'person', publicKey, secret: 's'.repeat(32) },
        op.principal,
      )
    ).result;
    (
      await s.when(
        REGISTER,
        { label: 'bakery', siteId: 's1' },
        { kind: 'peer', peerId, agentId: peer.agentId },
      )
    ).thenError('federation.global_only');
  });
});
