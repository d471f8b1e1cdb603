// Custom domains end to end: REST under /api/builder/domain (session only) and the MCP tools through the
// official SDK client, on a real instance over PostgreSQL whose resolver asks a real DNS server on
// loopback (dns2, test/src/harness/dns-server.ts). A binding goes pending → verified (by the scheduled
// re-check, every second here) → failed once its TXT record is gone, and Caddy's TLS `ask` and the
// site server follow it; refusals answer a stable code and write nothing; the read model rebuilt from
// the log equals the incremental one; a restart keeps the bindings.
import { rebuildProjections } from '@tributary/infra';
import { builderProjections } from '@tributary/projections';
import {
  startTestDnsServer,
  startTestInstance,
  type TestDnsServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';
import { builderFootprint } from './builder-helpers.js';

/** What bound subdomains must CNAME to, and what an apex must hold. */
const SITE_HOST = 'sites-host.example.org';
const PUBLIC_IPV4 = '203.0.113.10';

describe('custom domains against a DNS server on loopback', () => {
  let dns: TestDnsServer;
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  /** The log apart from provenance entries, and the builder's read models: what a refusal leaves alone. */
  const footprint = () => builderFootprint(instance.instance.pool);
  const tlsAsk = async (domain: string) =>
    (await fetch(`${instance.url}/api/builder/tls-ask?domain=${encodeURIComponent(domain)}`)).status;
  const binding = async (who: Person, domain: string): Promise<Loose | undefined> => {
    const r = await who.browser.get('/api/builder/domain');
    assert.equal(r.status, 200, r.text);
    return (r.json.result.domains as Loose[]).find((d) => d.domain === domain);
  };
  /** Polls the owner's list until the binding is in `state` (the scheduled re-check runs every second). */
  const until = async (who: Person, domain: string, state: string, ms = 10_000): Promise<Loose> => {
    const end = Date.now() + ms;
    for (;;) {
      const b = await binding(who, domain);
      if (b?.state === state) return b;
      if (Date.now() > end) throw new Error(`${domain} did not become ${state}: ${JSON.stringify(b)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** GET / on the instance as a browser sent to `host` would ask for it. */
  const viaHost = (host: string): Promise<{ status: number; body: string; location?: string }> =>
    new Promise((resolve, reject) => {
      const u = new URL(instance.url);
      const req = request({ host: u.hostname, port: u.port, path: '/', headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            ...(res.headers.location && { location: res.headers.location }),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  /** The site server follows the log shortly after (LISTEN/NOTIFY): polls until `host` answers `status`. */
  const servedAs = async (host: string, status: number, ms = 10_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const r = await viaHost(host);
      if (r.status === status) return r;
      if (Date.now() > end) throw new Error(`${host} answered ${r.status}, not ${status}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  };
  /** Lets the schedule catch up with the zone as it is, so nothing moves while a test compares. */
  const settle = async () => {
    while ((await instance.instance.domainRecheck!.sweepNow()).changed.length > 0);
  };
  const publishRecords = (records: Loose[]) => {
    for (const r of records) dns.set(r.name, r.type, [r.value]);
  };

  beforeAll(async () => {
    dns = await startTestDnsServer();
    instance = await startTestInstance({
      env: {
        DNS_RESOLVERS: dns.address,
        DNS_TIMEOUT_MS: '300',
        DOMAIN_RECHECK_SECONDS: '1',
        DOMAIN_CNAME_TARGET: SITE_HOST,
        SITES_PUBLIC_IPV4: PUBLIC_IPV4,
        // The schedule runs on BullMQ where Redis is at hand, else on the in-process timer.
        ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
      },
    });
    assert.equal(instance.instance.domainRecheck?.mode, process.env.REDIS_URL ? 'bullmq' : 'in-process');
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
    await dns?.close();
  });

  test('given a bound subdomain, then pending → verified by the scheduled re-check → TXT removed → failed and no longer served', async () => {
    const bound = await ada.browser.post('/api/builder/domain', { domain: 'Shop.Example.com.' });
    assert.equal(bound.status, 201, bound.text);
    const b = bound.json.result as Loose;
    assert.equal(b.domain, 'shop.example.com');
    assert.equal(b.state, 'pending');
    assert.equal(b.apex, false);
    assert.deepEqual(
      (b.records as Loose[]).map((r) => [r.type, r.name, r.purpose]),
      [
        ['TXT', '_tributary-challenge.shop.example.com', 'challenge'],
        ['CNAME', 'shop.example.com', 'target'],
      ],
    );
    assert.equal((b.records as Loose[])[1]!.value, SITE_HOST);
    assert.equal(await tlsAsk('shop.example.com'), 404, 'a pending domain gets no certificate');
    const published = await ada.browser.post('/api/ops/svc.builder.publish', {});
    assert.equal(published.status, 201, published.text);
    // Once the site server holds the published site, its pending domain answers the plain 404 page.
    await servedAs('shop.example.com', 404);

    // Nothing in DNS yet: the check says what is missing.
    const missing = await ada.browser.post('/api/builder/domain/check', { domain: 'shop.example.com' });
    assert.equal(missing.status, 200, missing.text);
    assert.deepEqual([missing.json.result.state, missing.json.result.reason], ['failed', 'record_missing']);

    // The person creates the records; the schedule finds them without being asked.
    publishRecords(b.records as Loose[]);
    const verified = await until(ada, 'shop.example.com', 'verified');
    assert.equal(verified.reason, null);
    assert.ok(verified.verifiedAt);
    assert.equal(await tlsAsk('shop.example.com'), 200);
    assert.equal(await tlsAsk('SHOP.EXAMPLE.COM.'), 200);
    const page = await servedAs('shop.example.com', 200);
    assert.match(page.body, /<html/i);

    // The TXT record goes: the next re-check fails the binding and the instance stops serving it.
    dns.remove('_tributary-challenge.shop.example.com');
    const failed = await until(ada, 'shop.example.com', 'failed');
    assert.equal(failed.reason, 'record_missing');
    assert.equal(await tlsAsk('shop.example.com'), 404);
    await servedAs('shop.example.com', 404);
    const { rows } = await instance.instance.pool.query(
      `SELECT type FROM events WHERE stream = 'domain-shop.example.com' ORDER BY stream_version`,
    );
    assert.deepEqual(
      rows.map((r) => r.type),
      ['site.domain_bound', 'site.domain_check_failed', 'site.domain_verified', 'site.domain_check_failed'],
      'only changes are recorded, however many re-checks ran',
    );
  });

  test('given wrong values, then the binding says why it is stuck: wrong_value, points_elsewhere, resolver_error', async () => {
    const b = (await ada.browser.post('/api/builder/domain', { domain: 'shop.example.com' })).json
      .result as Loose;
    const check = async () =>
      (await ada.browser.post('/api/builder/domain/check', { domain: 'shop.example.com' })).json
        .result as Loose;
    dns.set('_tributary-challenge.shop.example.com', 'TXT', ['someone-elses-token']);
    assert.equal((await check()).reason, 'wrong_value');
    publishRecords(b.records as Loose[]);
    dns.set('shop.example.com', 'CNAME', ['elsewhere.example.net']);
    assert.equal((await check()).reason, 'points_elsewhere');
    dns.set('shop.example.com', 'CNAME', [SITE_HOST]);
    assert.equal((await check()).state, 'verified');
    dns.failing = true;
    try {
      const r = await check();
      assert.deepEqual(
        [r.state, r.reason],
        ['verified', 'resolver_error'],
        'our DNS trouble does not unserve',
      );
      assert.equal(await tlsAsk('shop.example.com'), 200);
    } finally {
      dns.failing = false;
    }
  });

  test('given an apex, then A records with the configured address, verified only when they match', async () => {
    const r = await ada.browser.post('/api/builder/domain', { domain: 'example.net' });
    assert.equal(r.status, 201, r.text);
    const b = r.json.result as Loose;
    assert.equal(b.apex, true);
    assert.deepEqual(
      (b.records as Loose[]).filter((x) => x.purpose === 'target').map((x) => [x.type, x.value]),
      [['A', PUBLIC_IPV4]],
    );
    dns.set('_tributary-challenge.example.net', 'TXT', [(b.records as Loose[])[0]!.value]);
    dns.set('example.net', 'A', ['198.51.100.7']);
    const check = async () =>
      (await ada.browser.post('/api/builder/domain/check', { domain: 'example.net' })).json.result as Loose;
    assert.equal((await check()).reason, 'points_elsewhere');
    dns.set('example.net', 'A', [PUBLIC_IPV4]);
    assert.equal((await check()).state, 'verified');
    // www. of a served apex is its alias: it gets a certificate and redirects to the apex.
    assert.deepEqual(
      (b.records as Loose[]).filter((x) => x.purpose === 'alias').map((x) => [x.type, x.name, x.value]),
      [['CNAME', 'www.example.net', SITE_HOST]],
    );
    assert.equal(await tlsAsk('www.example.net'), 200);
    assert.equal(await tlsAsk('www.shop.example.org'), 404);
    const alias = await servedAs('www.example.net', 301);
    // The Host header named no port, so neither does the redirect.
    assert.equal(alias.location, `${new URL(instance.url).protocol}//example.net/`);
  });

  test('given a URL pasted from the browser, then the apex is bound and the answer says what was repaired', async () => {
    const r = await bob.browser.post('/api/builder/domain', { domain: 'https://www.AdasBakery.fr/' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.result.domain, 'adasbakery.fr');
    assert.deepEqual(r.json.result.repairs, ['scheme_dropped', 'lower_cased', 'www_dropped']);
    // Checked by the same careless spelling.
    const checked = await bob.browser.post('/api/builder/domain/check', { domain: 'WWW.adasbakery.fr' });
    assert.equal(checked.json.result.domain, 'adasbakery.fr');
    // Unbinding takes the same spelling (the binding stays for the rebuild test below).
    const notBound = await bob.browser.call('DELETE', '/api/builder/domain', {
      domain: 'https://www.adasbakery.com/',
    });
    assert.equal(notBound.json.code, 'builder.domain_not_found');
    assert.equal(notBound.json.domain, 'adasbakery.com');
  });

  test('given bad input, then a stable code and nothing written', async () => {
    await settle();
    const before = await footprint();
    const refused: [Person, Loose, number, string][] = [
      [ada, { domain: '203.0.113.7' }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: '[::1]' }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: '127.1' }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: SITE_HOST }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: 'x.sites.localhost' }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: 'co.uk' }, 400, 'builder.domain_not_allowed'],
      [ada, { domain: 'exa_mple.com' }, 400, 'builder.domain_invalid'],
      [ada, { domain: 'a..example.com' }, 400, 'builder.domain_invalid'],
      [ada, { domain: 'ex\u0430mple.com' }, 400, 'builder.domain_invalid'],
      [ada, { domain: 'www.example.org', provider: 'nope' }, 400, 'builder.dns_provider_unknown'],
      [ada, { domain: 'www.example.org', extra: 1 }, 400, 'input.invalid'],
      // Bound to another owner's site, and to another site of the same owner.
      [bob, { domain: 'shop.example.com' }, 409, 'builder.domain_taken'],
    ];
    for (const [who, body, status, code] of refused) {
      const r = await who.browser.post('/api/builder/domain', body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.code, code, JSON.stringify(body));
    }
    assert.deepEqual(await footprint(), before);
    const adaSecond = await ada.browser.post('/api/builder/sites', { title: 'Second' });
    assert.equal(adaSecond.status, 201, adaSecond.text);
    const secondId = adaSecond.json.result.siteId as string;
    const afterSite = await footprint();
    const taken = await ada.browser.post('/api/builder/domain', {
      domain: 'shop.example.com',
      siteId: secondId,
    });
    assert.deepEqual([taken.status, taken.json.code], [409, 'builder.domain_taken']);
    const foreign = await bob.browser.post('/api/builder/domain', {
      domain: 'bob.example.org',
      siteId: secondId,
    });
    assert.deepEqual([foreign.status, foreign.json.code], [404, 'builder.site_not_found']);
    const notMine = await bob.browser.call('DELETE', '/api/builder/domain', { domain: 'shop.example.com' });
    assert.deepEqual([notMine.status, notMine.json.code], [404, 'builder.domain_not_found']);
    const notMineCheck = await bob.browser.post('/api/builder/domain/check', { domain: 'shop.example.com' });
    assert.deepEqual([notMineCheck.status, notMineCheck.json.code], [404, 'builder.domain_not_found']);
    assert.deepEqual(await footprint(), afterSite);
    // Without a session: 401.
    const anonymous = await fetch(`${instance.url}/api/builder/domain`);
    assert.equal(anonymous.status, 401);
  });

  test('given the MCP SDK client with a scoped token, then bind, list, check and unbind are tools', async () => {
    const token = await issueToken(bob, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: token.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const name of [
        'svc.builder.bind_domain',
        'svc.builder.unbind_domain',
        'svc.builder.list_domains',
        'svc.builder.check_domain',
      ])
        assert.ok(tools.includes(name), name);
      const bound = structured(
        await client.callTool({ name: 'svc.builder.bind_domain', arguments: { domain: 'blog.example.org' } }),
      );
      assert.equal(bound.state, 'pending');
      publishRecords(bound.records as Loose[]);
      const checked = structured(
        await client.callTool({
          name: 'svc.builder.check_domain',
          arguments: { domain: 'blog.example.org' },
        }),
      );
      assert.equal(checked.state, 'verified');
      const listed = structured(await client.callTool({ name: 'svc.builder.list_domains', arguments: {} }));
      assert.deepEqual(
        (listed.domains as Loose[]).map((d) => [d.domain, d.state === 'verified']),
        [
          ['adasbakery.fr', false],
          ['blog.example.org', true],
        ],
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({ name: 'svc.builder.bind_domain', arguments: { domain: '10.0.0.1' } }),
        ),
        'builder.domain_not_allowed',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.bind_domain',
            arguments: { domain: 'shop.example.com' },
          }),
        ),
        'builder.domain_taken',
      );
      const readOnly = await mcpClient(instance.url, {
        bearer: (await issueToken(bob, { scopes: ['svc.builder.read'] })).token,
      });
      try {
        assert.equal(
          errorCodeOf(
            await readOnly.callTool({
              name: 'svc.builder.unbind_domain',
              arguments: { domain: 'blog.example.org' },
            }),
          ),
          'auth.insufficient_scope',
        );
      } finally {
        await readOnly.close();
      }
      const unbound = structured(
        await client.callTool({
          name: 'svc.builder.unbind_domain',
          arguments: { domain: 'blog.example.org' },
        }),
      );
      assert.equal(unbound.unbound, true);
      assert.equal(await tlsAsk('blog.example.org'), 404);
    } finally {
      await client.close();
    }
  });

  test('given DELETE with query parameters, then the binding goes and the name is free for others', async () => {
    const r = await ada.browser.call('DELETE', '/api/builder/domain?domain=shop.example.com');
    assert.equal(r.status, 200, r.text);
    assert.equal(await binding(ada, 'shop.example.com'), undefined);
    const bobs = await bob.browser.post('/api/builder/domain', { domain: 'shop.example.com' });
    assert.equal(bobs.status, 201, bobs.text);
  });

  test('given a claimed address, then tls-ask answers 200 for <label>.<SITES_DOMAIN> until it is released', async () => {
    // Her earlier publish gave the site an address from its title: let it go, then claim this one.
    const first = await ada.browser.call('DELETE', '/api/builder/address', {});
    assert.ok(first.status === 200 || first.status === 201, first.text);
    const claimed = await ada.browser.post('/api/builder/address', { label: 'adas-soups' });
    assert.equal(claimed.status, 201, claimed.text);
    assert.equal(await tlsAsk('adas-soups.sites.localhost'), 200);
    assert.equal(await tlsAsk('x.adas-soups.sites.localhost'), 404);
    assert.equal(await tlsAsk('other-label.sites.localhost'), 404);
    const released = await ada.browser.call('DELETE', '/api/builder/address', {});
    assert.ok(released.status === 200 || released.status === 201, released.text);
    assert.equal(await tlsAsk('adas-soups.sites.localhost'), 404);
  });

  test('given tls-ask for names not served, then 404; for the free-address domain itself, 404', async () => {
    for (const name of ['unknown.example.com', 'sites.localhost', '', 'a'.repeat(301)])
      assert.equal(await tlsAsk(name), 404, name);
  });

  test('given a rebuild of the read models, then rm_builder_domains equals the incremental one; a restart keeps the bindings', async () => {
    await settle();
    const incremental = (await footprint()).tables.rm_builder_domains!;
    assert.ok(incremental.length >= 3);
    await rebuildProjections(instance.instance.pool, builderProjections);
    assert.deepEqual((await footprint()).tables.rm_builder_domains!, incremental);
    instance = await instance.restart();
    assert.deepEqual((await footprint()).tables.rm_builder_domains!, incremental);
    assert.equal(await tlsAsk('example.net'), 200);
  });
});
