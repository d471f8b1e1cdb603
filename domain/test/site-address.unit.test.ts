import {
  addressLabelStream,
  addressSiteStream,
  decideClaimAddress,
  decideDeregisterAddress,
  decideRecordInstanceHost,
  decideRegisterAddress,
  decideReleaseAddress,
  fold,
  instanceReservedLabels,
  isDomainError,
  isHostname,
  labelCandidates,
  labelRefusal,
  requireValidLabel,
  slugifyLabel,
  type AddressLabelState,
  type AddressSiteState,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

/** The details of the DomainError a call throws. */
function detailsOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (e) {
    if (isDomainError(e)) return e.details ?? {};
    throw e;
  }
  throw new Error('no error');
}

describe('address labels', () => {
  test('given lower-case ASCII labels of 3 to 63 characters with inner hyphens, then each is accepted', () => {
    for (const label of ['abc', 'my-site', 'a1b2c3', '123', 'a-b-c', 'x'.repeat(63), 'ab-cd'])
      assert.equal(labelRefusal(label), null, label);
  });

  const refused: [label: string, reason: string][] = [
    ['', 'too_short'],
    ['ab', 'too_short'],
    ['x'.repeat(64), 'too_long'],
    ['my.site', 'charset'],
    ['a.b', 'charset'],
    ['MySite', 'charset'],
    ['ABC', 'charset'],
    ['my_site', 'charset'],
    ['_dmarc', 'charset'],
    ['my site', 'charset'],
    ['\u0430pple', 'charset'], // Cyrillic а, a look-alike of Latin a
    ['p\u0430ypal', 'charset'],
    ['caf\u00e9', 'charset'],
    ['ｓｉｔｅ', 'charset'], // full-width Latin
    ['site\u200b', 'charset'], // zero-width space
    ['-abc', 'hyphen'],
    ['abc-', 'hyphen'],
    ['---', 'hyphen'],
    ['xn--pple-43d', 'punycode'],
    ['xn--abc', 'punycode'],
    ['ab--cd', 'punycode'],
    ['www', 'reserved'],
    ['api', 'reserved'],
    ['admin', 'reserved'],
    ['mail', 'reserved'],
    ['autodiscover', 'reserved'],
    ['postmaster', 'reserved'],
    ['sites', 'reserved'],
    ['ns1', 'reserved'],
  ];
  for (const [label, reason] of refused)
    test(`given ${JSON.stringify(label)}, then builder.label_invalid with reason ${reason}`, () => {
      assert.equal(
        codeOf(() => requireValidLabel(label)),
        'builder.label_invalid',
      );
      assert.equal(detailsOf(() => requireValidLabel(label)).reason, reason);
    });

  test('given a look-alike character, then the refusal names its code point', () => {
    assert.equal(detailsOf(() => requireValidLabel('\u0430pple')).character, 'U+0430');
  });

  test("given the instance's own names, then they are reserved too", () => {
    const own = instanceReservedLabels({
      name: 'Ada’s Café',
      handle: 'ada',
      hosts: ['tributary.example.org:8443', 'sites.example.org'],
    });
    for (const label of ['adas-cafe', 'ada', 'tributary', 'example', 'org', 'tributary-example-org'])
      assert.equal(labelRefusal(label, own), 'reserved', label);
    assert.equal(labelRefusal('bakery', own), null);
  });
});

describe('address suggestions', () => {
  test('given titles, then the slug drops Latin diacritics and joins words with hyphens', () => {
    assert.equal(slugifyLabel('  Crème Brûlée & Co.  '), 'creme-brulee-co');
    assert.equal(slugifyLabel('Straße Ærø Łódź'), 'strasse-aero-lodz');
    assert.equal(slugifyLabel('Привет'), '');
    assert.equal(slugifyLabel('x'.repeat(70)).length, 63);
  });

  test('given a title, then candidates are its slug, then -2, -3 …, all valid labels', () => {
    assert.deepEqual(labelCandidates('My Bakery', 3), ['my-bakery', 'my-bakery-2', 'my-bakery-3']);
    const long = labelCandidates('a'.repeat(80), 2);
    assert.equal(long[0]!.length, 63);
    assert.equal(long[1], `${'a'.repeat(61)}-2`);
    for (const c of long) assert.equal(labelRefusal(c), null);
  });

  test('given a title too short, reserved or without Latin letters, then a neutral or -site candidate', () => {
    assert.deepEqual(labelCandidates('Help', 2), ['help-site', 'help-site-2']);
    assert.deepEqual(labelCandidates('Jo', 1), ['jo-site']);
    assert.deepEqual(labelCandidates('Привет', 2), ['my-site', 'my-site-2']);
    assert.deepEqual(labelCandidates('Ada', 1, new Set(['ada'])), ['ada-site']);
    assert.deepEqual(labelCandidates('xn--abc', 1), ['xn-abc']);
  });
});

const now = new Date('2026-01-10T00:00:00.000Z');
const free = (): { label: AddressLabelState; site: AddressSiteState } => ({
  label: { holder: null },
  site: { label: null },
});
const ev = (type: string, data: Record<string, unknown>, v = 1): StoredEventLike => ({
  type,
  data,
  streamVersion: v,
});

describe('claiming and releasing an address', () => {
  test('given a free label, when a site claims it, then the label is claimed and the site points at it', () => {
    const events = decideClaimAddress({ label: 'bakery', siteId: 's1', ownerAgentId: 'o1', now }, free());
    assert.deepEqual(events, [
      {
        stream: addressLabelStream('bakery'),
        type: 'site.address_claimed',
        data: { label: 'bakery', siteId: 's1', ownerAgentId: 'o1' },
      },
      { stream: addressSiteStream('s1'), type: 'site.address_set', data: { siteId: 's1', label: 'bakery' } },
    ]);
  });

  const claimedBy = (siteId: string, ownerAgentId: string) =>
    fold<AddressLabelState>(addressLabelStream('bakery'), [
      ev('site.address_claimed', { label: 'bakery', siteId, ownerAgentId }),
    ]);

  test('given a label another site holds, then builder.label_taken', () => {
    assert.equal(
      codeOf(() =>
        decideClaimAddress(
          { label: 'bakery', siteId: 's2', ownerAgentId: 'o2', now },
          { label: claimedBy('s1', 'o1'), site: { label: null } },
        ),
      ),
      'builder.label_taken',
    );
  });

  test('given the site already holds that label, then nothing changes', () => {
    assert.deepEqual(
      decideClaimAddress(
        { label: 'bakery', siteId: 's1', ownerAgentId: 'o1', now },
        { label: claimedBy('s1', 'o1'), site: { label: 'bakery' } },
      ),
      [],
    );
  });

  test('given the site holds another label, then builder.site_has_address naming it', () => {
    const run = () =>
      decideClaimAddress(
        { label: 'other', siteId: 's1', ownerAgentId: 'o1', now },
        { label: { holder: null }, site: { label: 'bakery' } },
      );
    assert.equal(codeOf(run), 'builder.site_has_address');
    assert.equal(detailsOf(run).label, 'bakery');
  });

  test('given a held label, when it is released, then it is held back for the hold period', () => {
    const events = decideReleaseAddress(
      { label: 'bakery', siteId: 's1', ownerAgentId: 'o1', now, holdDays: 30 },
      { label: claimedBy('s1', 'o1'), site: { label: 'bakery' } },
    );
    assert.deepEqual(events[0]!.data, {
      label: 'bakery',
      siteId: 's1',
      ownerAgentId: 'o1',
      releasedAt: '2026-01-10T00:00:00.000Z',
      holdUntil: '2026-02-09T00:00:00.000Z',
    });
    assert.deepEqual(events[1]!.data, { siteId: 's1', label: null });
  });

  test('given a site without an address, when releasing, then builder.address_not_found', () => {
    assert.equal(
      codeOf(() =>
        decideReleaseAddress(
          { label: 'bakery', siteId: 's1', ownerAgentId: 'o1', now, holdDays: 30 },
          { label: claimedBy('s9', 'o9'), site: { label: null } },
        ),
      ),
      'builder.address_not_found',
    );
  });

  const released = fold<AddressLabelState>(addressLabelStream('bakery'), [
    ev('site.address_claimed', { label: 'bakery', siteId: 's1', ownerAgentId: 'o1' }, 1),
    ev(
      'site.address_released',
      {
        label: 'bakery',
        siteId: 's1',
        ownerAgentId: 'o1',
        releasedAt: '2026-01-10T00:00:00.000Z',
        holdUntil: '2026-02-09T00:00:00.000Z',
      },
      2,
    ),
  ]);

  test('given a label released within the hold, when someone else claims it, then builder.label_held until the hold ends', () => {
    const run = () =>
      decideClaimAddress(
        { label: 'bakery', siteId: 's2', ownerAgentId: 'o2', now: new Date('2026-02-08T23:59:59Z') },
        { label: released, site: { label: null } },
      );
    assert.equal(codeOf(run), 'builder.label_held');
    assert.equal(detailsOf(run).holdUntil, '2026-02-09T00:00:00.000Z');
  });

  test('given a label released within the hold, when its previous owner claims it for another of their sites, then it is theirs', () => {
    const events = decideClaimAddress(
      { label: 'bakery', siteId: 's3', ownerAgentId: 'o1', now: new Date('2026-01-11T00:00:00Z') },
      { label: released, site: { label: null } },
    );
    assert.equal(events[0]!.type, 'site.address_claimed');
  });

  test('given the hold has passed, when anyone claims the label, then it is theirs', () => {
    const events = decideClaimAddress(
      { label: 'bakery', siteId: 's2', ownerAgentId: 'o2', now: new Date('2026-02-09T00:00:00Z') },
      { label: released, site: { label: null } },
    );
    assert.equal(events[0]!.type, 'site.address_claimed');
  });
});

describe('the global registry', () => {
  const registered = fold<AddressLabelState>(addressLabelStream('bakery'), [
    ev('site.address_registered', { label: 'bakery', instanceId: 'A', siteId: 's1' }),
  ]);

  test('given a free label, when instance A registers it, then A holds it', () => {
    assert.deepEqual(
      decideRegisterAddress({ label: 'bakery', instanceId: 'A', siteId: 's1', now }, { holder: null }),
      [
        {
          stream: addressLabelStream('bakery'),
          type: 'site.address_registered',
          data: { label: 'bakery', instanceId: 'A', siteId: 's1' },
        },
      ],
    );
  });

  test('given A holds a label, when B registers it, then builder.label_taken; A again changes nothing', () => {
    assert.equal(
      codeOf(() =>
        decideRegisterAddress({ label: 'bakery', instanceId: 'B', siteId: 's9', now }, registered),
      ),
      'builder.label_taken',
    );
    assert.deepEqual(
      decideRegisterAddress({ label: 'bakery', instanceId: 'A', siteId: 's1', now }, registered),
      [],
    );
  });

  test('given a label a site of the global instance holds, when a peer registers it, then builder.label_taken, and the reverse too', () => {
    const local = fold<AddressLabelState>(addressLabelStream('bakery'), [
      ev('site.address_claimed', { label: 'bakery', siteId: 's1', ownerAgentId: 'o1' }),
    ]);
    assert.equal(
      codeOf(() => decideRegisterAddress({ label: 'bakery', instanceId: 'B', siteId: 's9', now }, local)),
      'builder.label_taken',
    );
    assert.equal(
      codeOf(() =>
        decideClaimAddress(
          { label: 'bakery', siteId: 's2', ownerAgentId: 'o2', now },
          { label: registered, site: { label: null } },
        ),
      ),
      'builder.label_taken',
    );
  });

  test('given A deregisters, then the label is held for A only; B cannot deregister what A holds', () => {
    assert.equal(
      codeOf(() =>
        decideDeregisterAddress({ label: 'bakery', instanceId: 'B', now, holdDays: 30 }, registered),
      ),
      'builder.address_not_found',
    );
    const [dereg] = decideDeregisterAddress(
      { label: 'bakery', instanceId: 'A', now, holdDays: 30 },
      registered,
    );
    const held = fold<AddressLabelState>(addressLabelStream('bakery'), [
      ev('site.address_registered', { label: 'bakery', instanceId: 'A', siteId: 's1' }, 1),
      { type: dereg!.type, data: dereg!.data, streamVersion: 2 },
    ]);
    assert.equal(
      codeOf(() => decideRegisterAddress({ label: 'bakery', instanceId: 'B', siteId: 's9', now }, held)),
      'builder.label_held',
    );
    assert.equal(
      decideRegisterAddress({ label: 'bakery', instanceId: 'A', siteId: 's2', now }, held).length,
      1,
    );
  });

  test('given an instance host, then it is recorded once, and a new one replaces it', () => {
    const first = decideRecordInstanceHost({ instanceId: 'A', hostname: 'a.example' }, { hostname: null });
    assert.equal(first[0]!.type, 'site.address_instance_recorded');
    assert.deepEqual(
      decideRecordInstanceHost({ instanceId: 'A', hostname: 'a.example' }, { hostname: 'a.example' }),
      [],
    );
    assert.equal(isHostname('sites.a.example'), true);
    assert.equal(isHostname('127.0.0.1'), true);
    assert.equal(isHostname('A.example'), false);
    assert.equal(isHostname('a..example'), false);
  });
});
