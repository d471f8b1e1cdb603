// Custom-domain operations (bind, unbind, list, check, the scheduled re-check) on the real pipeline over
// the in-memory log, looking names up in an in-memory zone. The same against a real DNS server on
// loopback, through REST and MCP: test/src/e2e/builder-domains.test.ts.
import { decideCreateSite, initialSiteState } from '@tributary/domain';
import { recheckDomains } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, type UnitInstance } from './given-when-then.js';
import { UNIT_PUBLIC_ADDRESSES, UNIT_SITE_HOST } from './memory-dns.js';

interface Binding {
  domain: string;
  siteId: string;
  state: string;
  reason: string | null;
  detail: string | null;
  apex: boolean;
  records: { type: string; name: string; value: string; purpose: string }[];
  typed?: string;
  repairs?: string[];
}

const bind = (
  t: UnitInstance,
  principal: Parameters<UnitInstance['when']>[2],
  input: Record<string, unknown>,
) => t.when<Binding>('svc.builder.bind_domain', input, principal);

/** Creates the DNS records a binding asks for in the unit zone. */
function publish(t: UnitInstance, b: Binding) {
  for (const r of b.records) {
    const type = r.type === 'ALIAS' ? 'CNAME' : (r.type as 'TXT' | 'CNAME' | 'A' | 'AAAA');
    const existing = r.type === 'A' || r.type === 'AAAA' ? b.records.filter((x) => x.type === r.type) : [r];
    t.dns.set(
      r.name,
      type,
      existing.map((x) => x.value),
    );
  }
}

describe('svc.builder.bind_domain', () => {
  test('given a person, when they bind a subdomain, then a pending binding with a TXT challenge and a CNAME to the site host', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await bind(t, ada.principal, { domain: 'Shop.Example.com.' });
    const events = r.events.map((e) => e.type);
    // The default site is created on demand, then the domain is bound to it.
    assert.deepEqual(events.slice(-1), ['site.domain_bound']);
    const b = r.result;
    assert.equal(b.domain, 'shop.example.com');
    assert.equal(b.state, 'pending');
    assert.equal(b.apex, false);
    const bound = r.events.at(-1)!;
    assert.equal(bound.stream, 'domain-shop.example.com');
    const token = (bound.data as { challengeToken: string }).challengeToken;
    assert.match(token, /^[A-Za-z0-9_-]{32}$/);
    assert.deepEqual(b.records, [
      { type: 'TXT', name: '_tributary-challenge.shop.example.com', value: token, purpose: 'challenge' },
      { type: 'CNAME', name: 'shop.example.com', value: UNIT_SITE_HOST, purpose: 'target' },
    ]);
  });

  test('given an apex name (by the public-suffix list), then A and AAAA records with the instance addresses', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const b = (await bind(t, ada.principal, { domain: 'example.co.uk' })).result;
    assert.equal(b.apex, true);
    assert.deepEqual(
      b.records.filter((r) => r.purpose === 'target').map((r) => [r.type, r.value]),
      [
        ['A', UNIT_PUBLIC_ADDRESSES[0]],
        ['AAAA', UNIT_PUBLIC_ADDRESSES[1]],
      ],
    );
  });

  test('given the same site binding again, then nothing is written and the same token is answered', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const first = (await bind(t, ada.principal, { domain: 'shop.example.com' })).result;
    const again = await bind(t, ada.principal, { domain: 'shop.example.com' });
    assert.deepEqual(again.thenEvents([]).records, first.records);
  });

  test('given bad names, then domain_invalid or domain_not_allowed, and nothing is written (not even a default site)', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const cases: [string, string][] = [
      ['203.0.113.7', 'builder.domain_not_allowed'],
      ['[2001:db8::1]', 'builder.domain_not_allowed'],
      ['0x7f.1', 'builder.domain_not_allowed'],
      [UNIT_SITE_HOST, 'builder.domain_not_allowed'],
      [`x.${UNIT_SITE_HOST}`, 'builder.domain_not_allowed'],
      ['ada.sites.unit.tributary.test', 'builder.domain_not_allowed'],
      ['co.uk', 'builder.domain_not_allowed'],
      ['github.io', 'builder.domain_not_allowed'],
      ['printer.local', 'builder.domain_not_allowed'],
      ['exa_mple.com', 'builder.domain_invalid'],
      ['example', 'builder.domain_invalid'],
      ['a..example.com', 'builder.domain_invalid'],
      ['-a.example.com', 'builder.domain_invalid'],
      [`${'a'.repeat(64)}.com`, 'builder.domain_invalid'],
    ];
    for (const [domain, code] of cases) (await bind(t, ada.principal, { domain })).thenError(code);
    (await bind(t, ada.principal, { domain: 'shop.example.com', provider: 'cloudflare' })).thenError(
      'builder.dns_provider_unknown',
    );
    (await bind(t, ada.principal, { domain: 'x'.repeat(301) })).thenError('input.invalid');
  });

  test('given a Unicode name, then the refusal names its punycode form', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await bind(t, ada.principal, { domain: 'https://bücher.de/' });
    r.thenError('builder.domain_invalid');
    assert.equal((r.error as { details: { aLabel: string } }).details.aLabel, 'xn--bcher-kva.de');
  });

  test('given a URL pasted from the browser, when bound, then the apex is bound, www. is its alias and the answer says what was repaired', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const b = (await bind(t, ada.principal, { domain: 'https://www.AdasBakery.fr/' })).result;
    assert.equal(b.domain, 'adasbakery.fr');
    assert.equal(b.typed, 'https://www.AdasBakery.fr/');
    assert.deepEqual(b.repairs, ['scheme_dropped', 'lower_cased', 'www_dropped']);
    assert.deepEqual(
      b.records.filter((r) => r.purpose === 'alias'),
      [{ type: 'CNAME', name: 'www.adasbakery.fr', value: UNIT_SITE_HOST, purpose: 'alias' }],
    );
    // Checking or unbinding takes the name typed the same careless way.
    const again = await bind(t, ada.principal, { domain: 'adasbakery.fr' });
    assert.deepEqual(again.thenEvents([]).repairs, []);
  });

  test('given a domain bound to another owner or to another site of the same owner, then builder.domain_taken and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const adaSite = (await bind(t, ada.principal, { domain: 'shop.example.com' })).result.siteId;
    (await bind(t, bob.principal, { domain: 'shop.example.com' })).thenError('builder.domain_taken');
    // A second site of Ada's.
    const second = 'a7c2d4e6-0000-4000-8000-000000000002';
    await t.given(
      ada.agentId,
      decideCreateSite(
        { siteId: second, ownerAgentId: ada.agentId, title: 'Second', isDefault: false },
        initialSiteState(),
      ),
    );
    (await bind(t, ada.principal, { domain: 'shop.example.com', siteId: second })).thenError(
      'builder.domain_taken',
    );
    assert.notEqual(adaSite, second);
  });

  test("given someone else's siteId, then builder.site_not_found and nothing is written", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const bobSite = (await bind(t, bob.principal, { domain: 'bob.example.com' })).result.siteId;
    (await bind(t, ada.principal, { domain: 'ada.example.com', siteId: bobSite })).thenError(
      'builder.site_not_found',
    );
  });

  test('given a binding that never verified within the hold, then another owner may take it over', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await bind(t, ada.principal, { domain: 'shop.example.com' });
    t.clock.advance(7 * 24 * 3600 * 1000);
    const r = await bind(t, bob.principal, { domain: 'shop.example.com' });
    assert.deepEqual(r.events.map((e) => e.type).slice(-2), ['site.domain_unbound', 'site.domain_bound']);
    const ours = await t.services.builder.read.domainBinding('shop.example.com');
    assert.equal(ours?.ownerAgentId, bob.agentId);
  });
});

describe('svc.builder.check_domain and the scheduled re-check', () => {
  test('given a pending binding, when the records appear, are wrong, go, or point elsewhere, then each check says so and records only changes', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const b = (await bind(t, ada.principal, { domain: 'shop.example.com' })).result;
    const check = () =>
      t.when<Binding>('svc.builder.check_domain', { domain: 'shop.example.com' }, ada.principal);

    let r = await check();
    r.thenEvents([{ type: 'site.domain_check_failed', data: { reason: 'record_missing' } }]);
    assert.equal(r.result.state, 'failed');
    (await check()).thenEvents([]);

    t.dns.set('_tributary-challenge.shop.example.com', 'TXT', ['not-the-token']);
    assert.equal((await check()).thenEvents([{ type: 'site.domain_check_failed' }]).reason, 'wrong_value');

    publish(t, b);
    t.dns.set('shop.example.com', 'CNAME', ['elsewhere.example.net']);
    assert.equal(
      (await check()).thenEvents([{ type: 'site.domain_check_failed' }]).reason,
      'points_elsewhere',
    );

    publish(t, b);
    r = await check();
    assert.equal(r.thenEvents([{ type: 'site.domain_verified' }]).state, 'verified');
    (await check()).thenEvents([]);

    t.dns.failing = true;
    r = await check();
    assert.deepEqual(
      [r.result.state, r.result.reason],
      ['verified', 'resolver_error'],
      'our resolver failing does not stop serving',
    );
    t.dns.failing = false;
    assert.equal((await check()).thenEvents([{ type: 'site.domain_verified' }]).reason, null);

    // The TXT record goes: the scheduled sweep finds it and the binding fails.
    t.dns.remove('_tributary-challenge.shop.example.com');
    const sweep = await recheckDomains(t.services, { concurrency: 2 });
    assert.deepEqual(sweep.changed, [{ domain: 'shop.example.com', siteId: b.siteId }]);
    const now = await t.services.builder.read.domainBinding('shop.example.com');
    assert.deepEqual([now?.state, now?.reason], ['failed', 'record_missing']);
    // A second sweep finds nothing new and writes nothing.
    const before = t.store.all().length;
    assert.deepEqual((await recheckDomains(t.services, { concurrency: 2 })).changed, []);
    assert.equal(t.store.all().length, before);
  });

  test('given an apex, then it verifies only when every address is the instance’s', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const b = (await bind(t, ada.principal, { domain: 'example.org' })).result;
    publish(t, b);
    t.dns.set('example.org', 'A', [UNIT_PUBLIC_ADDRESSES[0]!, '198.51.100.1']);
    const check = () => t.when<Binding>('svc.builder.check_domain', { domain: 'example.org' }, ada.principal);
    assert.equal((await check()).result.reason, 'points_elsewhere');
    t.dns.set('example.org', 'A', [UNIT_PUBLIC_ADDRESSES[0]!]);
    assert.equal((await check()).result.state, 'verified');
  });

  test("given someone else's domain, then check and unbind answer builder.domain_not_found and write nothing", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await bind(t, ada.principal, { domain: 'shop.example.com' });
    (await t.when('svc.builder.check_domain', { domain: 'shop.example.com' }, bob.principal)).thenError(
      'builder.domain_not_found',
    );
    (await t.when('svc.builder.unbind_domain', { domain: 'shop.example.com' }, bob.principal)).thenError(
      'builder.domain_not_found',
    );
    (await t.when('svc.builder.unbind_domain', { domain: 'nothing.example.com' }, ada.principal)).thenError(
      'builder.domain_not_found',
    );
  });
});

describe('svc.builder.unbind_domain and list_domains', () => {
  test('given bindings, then the owner lists theirs with state and records; unbinding frees the name for others', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    await bind(t, ada.principal, { domain: 'b.example.com' });
    await bind(t, ada.principal, { domain: 'a.example.com' });
    await bind(t, bob.principal, { domain: 'bob.example.com' });
    const list = (
      await t.when<{ domains: Binding[] }>('svc.builder.list_domains', {}, ada.principal)
    ).thenEvents([]);
    assert.deepEqual(
      list.domains.map((d) => [d.domain, d.state, d.records.length]),
      [
        ['a.example.com', 'pending', 2],
        ['b.example.com', 'pending', 2],
      ],
    );
    (await t.when('svc.builder.unbind_domain', { domain: 'A.example.com.' }, ada.principal)).thenEvents([
      { type: 'site.domain_unbound', stream: 'domain-a.example.com', data: { cause: 'owner' } },
    ]);
    (await bind(t, bob.principal, { domain: 'a.example.com' })).thenEvents([{ type: 'site.domain_bound' }]);
    const after = (await t.when<{ domains: Binding[] }>('svc.builder.list_domains', {}, ada.principal))
      .result;
    assert.deepEqual(
      after.domains.map((d) => d.domain),
      ['b.example.com'],
    );
  });
});
