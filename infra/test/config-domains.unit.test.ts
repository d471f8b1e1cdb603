// Custom-domain settings: the resolvers are IP addresses (node:dns takes no names), the public
// addresses are of their family, the CNAME target is a host name, and the intervals are bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

const base = { NODE_ENV: 'test' };

describe('custom-domain configuration', () => {
  test('given nothing set, then the system resolvers and the documented defaults', () => {
    const c = loadConfig(base);
    assert.deepEqual(c.DNS_RESOLVERS, []);
    assert.equal(c.DNS_TIMEOUT_MS, 2000);
    assert.equal(c.DOMAIN_RECHECK_SECONDS, 3600);
    assert.equal(c.DOMAIN_RECHECK_QUEUE, 'auto');
    assert.equal(c.DOMAIN_CLAIM_HOLD_SECONDS, 7 * 24 * 3600);
    assert.equal(c.DOMAIN_CNAME_TARGET, undefined);
    assert.deepEqual([c.SITES_PUBLIC_IPV4, c.SITES_PUBLIC_IPV6], [[], []]);
  });

  test('given resolvers with ports, addresses of each family and a target, then they are kept normalized', () => {
    const c = loadConfig({
      ...base,
      DNS_RESOLVERS: '127.0.0.1:5353, [::1]:53, 9.9.9.9, 2001:db8::53',
      SITES_PUBLIC_IPV4: '203.0.113.10,203.0.113.11',
      SITES_PUBLIC_IPV6: '2001:DB8::10',
      DOMAIN_CNAME_TARGET: 'Sites.Example.NET.',
    });
    assert.deepEqual(c.DNS_RESOLVERS, ['127.0.0.1:5353', '[::1]:53', '9.9.9.9', '2001:db8::53']);
    assert.deepEqual(c.SITES_PUBLIC_IPV4, ['203.0.113.10', '203.0.113.11']);
    assert.deepEqual(c.SITES_PUBLIC_IPV6, ['2001:db8::10']);
    assert.equal(c.DOMAIN_CNAME_TARGET, 'sites.example.net');
  });

  test('given bad values, then the start is refused naming the variable', () => {
    const bad: [string, string][] = [
      ['DNS_RESOLVERS', 'dns.example.net'],
      ['DNS_RESOLVERS', 'https://9.9.9.9'],
      ['SITES_PUBLIC_IPV4', '2001:db8::1'],
      ['SITES_PUBLIC_IPV6', '203.0.113.1'],
      ['SITES_PUBLIC_IPV4', 'example.org'],
      ['DOMAIN_CNAME_TARGET', 'https://x.example'],
      ['DOMAIN_CNAME_TARGET', 'localhost'],
      ['DNS_TIMEOUT_MS', '10'],
      ['DOMAIN_RECHECK_SECONDS', '-1'],
      ['DOMAIN_RECHECK_QUEUE', 'bullmq'],
    ];
    for (const [name, value] of bad)
      assert.throws(() => loadConfig({ ...base, [name]: value }), new RegExp(name), `${name}=${value}`);
  });
});
