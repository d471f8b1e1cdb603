import {
  CUSTOM_DOMAIN_MAX_LENGTH,
  decideBindDomain,
  decideDomainCheck,
  decideUnbindDomain,
  fold,
  isDomainError,
  judgeDomainAnswers,
  parseCustomDomain,
  type DomainAnswers,
  type DomainBindingState,
  type NewEvent,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const context = { instanceHosts: ['tributary.example.org'], sitesDomain: 'sites.example.org' };

/** The code and reason of the refusal of `name`, or 'no error'. */
function refusal(name: string): string {
  try {
    parseCustomDomain(name, context);
  } catch (e) {
    if (isDomainError(e)) return `${e.code}:${String(e.details?.reason)}`;
    throw e;
  }
  return 'no error';
}

describe('custom domain names', () => {
  test('given a well-formed name, then it is normalized to lower case without the trailing dot', () => {
    assert.equal(parseCustomDomain('WWW.Example.COM.', context), 'www.example.com');
    assert.equal(parseCustomDomain('  shop.example.co.uk ', context), 'shop.example.co.uk');
    assert.equal(parseCustomDomain('a-b.c1.example.net', context), 'a-b.c1.example.net');
  });

  test('given punycode labels, then they are accepted, and Unicode is refused in favour of them', () => {
    assert.equal(parseCustomDomain('xn--bcher-kva.com', context), 'xn--bcher-kva.com');
    assert.equal(refusal('bücher.com'), 'builder.domain_invalid:unicode');
    // A Cyrillic "а" posing as Latin "a".
    assert.equal(refusal('exаmple.com'), 'builder.domain_invalid:unicode');
  });

  test('given malformed names, then each is builder.domain_invalid with its reason', () => {
    const cases: [string, string][] = [
      ['', 'empty'],
      ['.', 'empty'],
      ['example', 'single_label'],
      ['a..example.com', 'empty_label'],
      ['.example.com', 'empty_label'],
      ['example.com..', 'empty_label'],
      [`${'a'.repeat(64)}.com`, 'label_too_long'],
      [`${'a.'.repeat(120)}com`, 'too_long'],
      ['under_score.example.com', 'bad_character'],
      ['*.example.com', 'bad_character'],
      ['exa mple.com', 'bad_character'],
      ['https://example.com', 'bad_character'],
      ['-a.example.com', 'hyphen_edge'],
      ['a-.example.com', 'hyphen_edge'],
      ['ab--cd.example.com', 'reserved_label'],
      ['xn--.example.com', 'hyphen_edge'],
      ['zz--abc.example.com', 'reserved_label'],
    ];
    for (const [name, reason] of cases)
      assert.equal(refusal(name), `builder.domain_invalid:${reason}`, JSON.stringify(name));
  });

  test('given a name of exactly the maximum length, then it is accepted; one more, refused', () => {
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.`;
    const name = longest + 'd'.repeat(CUSTOM_DOMAIN_MAX_LENGTH - longest.length);
    assert.equal(name.length, CUSTOM_DOMAIN_MAX_LENGTH);
    assert.equal(parseCustomDomain(name, context), name);
    assert.equal(refusal(`${name}d`), 'builder.domain_invalid:too_long');
  });

  test('given an IP address in any notation, then it is builder.domain_not_allowed: ip_address', () => {
    for (const ip of [
      '127.0.0.1',
      '203.0.113.7',
      '127.1',
      '0x7f.0.0.1',
      '2130706433',
      '10.0.0.010',
      '::1',
      '[::1]',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      'a.b.0x1f',
    ])
      assert.equal(refusal(ip), 'builder.domain_not_allowed:ip_address', ip);
  });

  test('given a non-public top-level name, then it is refused', () => {
    for (const name of ['site.localhost', 'printer.local', 'x.test', 'x.internal', 'x.onion', 'x.example'])
      assert.equal(refusal(name), 'builder.domain_not_allowed:non_public_tld', name);
  });

  test("given the instance's own host, a name below it, or one at or below SITES_DOMAIN, then it is refused", () => {
    assert.equal(refusal('tributary.example.org'), 'builder.domain_not_allowed:instance_host');
    assert.equal(refusal('TRIBUTARY.example.org.'), 'builder.domain_not_allowed:instance_host');
    assert.equal(refusal('x.tributary.example.org'), 'builder.domain_not_allowed:instance_host');
    assert.equal(refusal('sites.example.org'), 'builder.domain_not_allowed:sites_domain');
    assert.equal(refusal('ada.sites.example.org'), 'builder.domain_not_allowed:sites_domain');
    // The parent zone is the operator's, not the instance's: bindable like any other name.
    assert.equal(refusal('example.org'), 'no error');
    assert.equal(refusal('othertributary.example.org'), 'no error');
  });
});

const now = new Date('2026-03-01T12:00:00Z');
const HOLD = 7 * 24 * 3600;
const bind = (over: Partial<Parameters<typeof decideBindDomain>[0]> = {}) => ({
  domain: 'www.example.com',
  siteId: 's1',
  ownerAgentId: 'a1',
  provider: 'manual' as const,
  challengeToken: 'token-token-token-1',
  now,
  holdSeconds: HOLD,
  ...over,
});
const stored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const stateOf = (events: NewEvent[]) => fold<DomainBindingState>('domain-www.example.com', stored(events));

describe('domain bindings', () => {
  const bound = decideBindDomain(bind(), { bound: false });

  test('given a free domain, when a site binds it, then it is bound pending with its token', () => {
    assert.deepEqual(bound, [
      {
        stream: 'domain-www.example.com',
        type: 'site.domain_bound',
        data: {
          domain: 'www.example.com',
          siteId: 's1',
          ownerAgentId: 'a1',
          provider: 'manual',
          challengeToken: 'token-token-token-1',
          boundAt: now.toISOString(),
        },
      },
    ]);
    const s = stateOf(bound);
    assert.equal(s.state, 'pending');
    assert.equal(s.siteId, 's1');
  });

  test('given a binding, when the same site binds it again, then nothing is decided', () => {
    assert.deepEqual(decideBindDomain(bind({ challengeToken: 'other-token-value-2' }), stateOf(bound)), []);
  });

  test('given a fresh binding, when another site (any owner) binds it, then builder.domain_taken', () => {
    assert.equal(
      codeOf(() => decideBindDomain(bind({ siteId: 's2' }), stateOf(bound))),
      'builder.domain_taken',
    );
    assert.equal(
      codeOf(() => decideBindDomain(bind({ siteId: 's3', ownerAgentId: 'a2' }), stateOf(bound))),
      'builder.domain_taken',
    );
  });

  test('given a verified binding, when another site binds it however late, then builder.domain_taken', () => {
    const verified = [...bound, ...decideDomainCheck(stateOf(bound), { verified: true }, now)];
    const late = new Date(now.getTime() + 100 * HOLD * 1000);
    assert.equal(
      codeOf(() => decideBindDomain(bind({ siteId: 's2', now: late }), stateOf(verified))),
      'builder.domain_taken',
    );
  });

  test('given a binding that never verified within the hold, when another site binds it, then it is replaced', () => {
    const late = new Date(now.getTime() + HOLD * 1000);
    const events = decideBindDomain(bind({ siteId: 's2', ownerAgentId: 'a2', now: late }), stateOf(bound));
    assert.deepEqual(
      events.map((e) => [e.type, e.data]),
      [
        ['site.domain_unbound', { domain: 'www.example.com', siteId: 's1', cause: 'replaced' }],
        [
          'site.domain_bound',
          {
            domain: 'www.example.com',
            siteId: 's2',
            ownerAgentId: 'a2',
            provider: 'manual',
            challengeToken: 'token-token-token-1',
            boundAt: late.toISOString(),
          },
        ],
      ],
    );
    assert.equal(stateOf([...bound, ...events]).siteId, 's2');
  });

  test('given a binding that failed after verifying, then the hold counts from the last verification', () => {
    const verifiedAt = new Date(now.getTime() + 10 * HOLD * 1000);
    const history = [...bound, ...decideDomainCheck(stateOf(bound), { verified: true }, verifiedAt)];
    const failed = [
      ...history,
      ...decideDomainCheck(
        stateOf(history),
        { verified: false, reason: 'record_missing', detail: 'no TXT' },
        verifiedAt,
      ),
    ];
    const soon = new Date(verifiedAt.getTime() + 1000);
    assert.equal(
      codeOf(() => decideBindDomain(bind({ siteId: 's2', now: soon }), stateOf(failed))),
      'builder.domain_taken',
    );
    const later = new Date(verifiedAt.getTime() + HOLD * 1000);
    assert.equal(decideBindDomain(bind({ siteId: 's2', now: later }), stateOf(failed)).length, 2);
  });

  test('given a binding, when its site unbinds it, then it is free; another site cannot unbind it', () => {
    assert.equal(
      codeOf(() => decideUnbindDomain('www.example.com', 's2', stateOf(bound))),
      'builder.domain_not_found',
    );
    assert.equal(
      codeOf(() => decideUnbindDomain('www.example.com', 's1', { bound: false })),
      'builder.domain_not_found',
    );
    const unbound = [...bound, ...decideUnbindDomain('www.example.com', 's1', stateOf(bound))];
    assert.equal(stateOf(unbound).bound, false);
    assert.equal(decideBindDomain(bind({ siteId: 's2' }), stateOf(unbound)).length, 1);
  });

  test('given checks, then only changes are recorded: pending → failed → verified → failed, resolver errors keep the state', () => {
    let history = [...bound];
    const check = (o: Parameters<typeof decideDomainCheck>[1]) => {
      const events = decideDomainCheck(stateOf(history), o, now);
      history = [...history, ...events];
      return events.map((e) => e.type);
    };
    const missing = { verified: false as const, reason: 'record_missing' as const, detail: 'no TXT record' };
    assert.deepEqual(check(missing), ['site.domain_check_failed']);
    assert.equal(stateOf(history).state, 'failed');
    assert.deepEqual(check(missing), []);
    assert.deepEqual(check({ verified: true }), ['site.domain_verified']);
    assert.deepEqual(check({ verified: true }), []);
    assert.deepEqual(check({ verified: false, reason: 'resolver_error', detail: 'timeout' }), [
      'site.domain_check_failed',
    ]);
    assert.equal(stateOf(history).state, 'verified', 'our resolver failing does not stop serving');
    assert.equal(stateOf(history).reason, 'resolver_error');
    assert.deepEqual(check({ verified: true }), ['site.domain_verified'], 'the reason is cleared');
    assert.deepEqual(check(missing), ['site.domain_check_failed']);
    assert.equal(stateOf(history).state, 'failed');
  });
});

describe('judging DNS answers', () => {
  const ok = (records: string[]) => ({ kind: 'records' as const, records });
  const none = { kind: 'none' as const };
  const base: DomainAnswers = {
    domain: 'www.example.com',
    challengeToken: 'tok-abcdefghijklmnop',
    target: { host: 'tributary.example.org', addresses: ok(['203.0.113.5', '2001:db8::5']) },
    txt: ok(['tok-abcdefghijklmnop']),
    cname: ok(['tributary.example.org.']),
    addresses: none,
  };
  const judge = (over: Partial<DomainAnswers>) => {
    const o = judgeDomainAnswers({ ...base, ...over });
    return o.verified ? 'verified' : o.reason;
  };

  test('given the token and a CNAME to the site host, then verified', () => {
    assert.equal(judge({}), 'verified');
    assert.equal(judge({ cname: ok(['Tributary.Example.ORG']) }), 'verified');
  });
  test('given the token among other TXT values, then verified', () => {
    assert.equal(judge({ txt: ok(['v=spf1 -all', 'tok-abcdefghijklmnop']) }), 'verified');
  });
  test('given no TXT record, then record_missing; another value, wrong_value; no answer, resolver_error', () => {
    assert.equal(judge({ txt: none }), 'record_missing');
    assert.equal(judge({ txt: ok(['someone-else']) }), 'wrong_value');
    assert.equal(judge({ txt: { kind: 'error', detail: 'ETIMEOUT' } }), 'resolver_error');
  });
  test('given a CNAME elsewhere, then points_elsewhere', () => {
    assert.equal(judge({ cname: ok(['evil.example.net']) }), 'points_elsewhere');
  });
  test("given addresses (apex), then verified only when every one is the instance's", () => {
    assert.equal(judge({ cname: none, addresses: ok(['203.0.113.5']) }), 'verified');
    assert.equal(judge({ cname: none, addresses: ok(['203.0.113.5', '2001:db8::5']) }), 'verified');
    assert.equal(judge({ cname: none, addresses: ok(['203.0.113.5', '198.51.100.1']) }), 'points_elsewhere');
    assert.equal(judge({ cname: none, addresses: none }), 'record_missing');
    assert.equal(judge({ cname: none, addresses: { kind: 'error', detail: 'SERVFAIL' } }), 'resolver_error');
    assert.equal(
      judge({
        cname: none,
        addresses: ok(['203.0.113.5']),
        target: { host: 'h', addresses: { kind: 'error', detail: 'x' } },
      }),
      'resolver_error',
    );
  });
});
