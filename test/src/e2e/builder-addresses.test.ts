// Site addresses end to end: POST/DELETE /api/builder/address (session only) and the MCP tools through
// the official SDK client, on a real instance over PostgreSQL. Refusals answer a stable code and write
// nothing; the hold-back after a release; read_site shows the address; the site server finds a
// published site by its claimed address; the address read models rebuilt from the log equal the
// incremental ones.
import { rebuildProjections } from '@tributary/infra';
import { builderProjections } from '@tributary/projections';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
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

describe('site addresses', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  /** The log apart from provenance entries, and the builder's read models: what a refusal leaves alone. */
  const footprint = () => builderFootprint(instance.instance.pool);
  const claim = (who: Person, body: Loose) => who.browser.post('/api/builder/address', body);
  const release = (who: Person, body?: Loose, query = '') =>
    who.browser.call('DELETE', `/api/builder/address${query}`, body);

  beforeAll(async () => {
    instance = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'group',
        INSTANCE_NAME: 'Sites',
        SITES_DOMAIN: 'sites.test',
        ADDRESS_HOLD_DAYS: '30',
      },
    });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a person, when they claim a label over REST, then 201 with the address URLs; again is 200 and changes nothing', async () => {
    const r = await claim(ada, { label: 'ada-bakes' });
    assert.equal(r.status, 201, r.text);
    const port = new URL(instance.url).port;
    assert.deepEqual(
      { ...r.json.result, claimedAt: undefined },
      {
        label: 'ada-bakes',
        siteId: r.json.result.siteId,
        url: `http://ada-bakes.sites.test:${port}/`,
        pathUrl: `${instance.url}/sites/ada-bakes/`,
        claimedAt: undefined,
        typed: 'ada-bakes',
        repairs: [],
      },
    );
    const before = await footprint();
    const again = await claim(ada, { label: 'ada-bakes' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(await footprint(), before);
    const site = await ada.browser.get('/api/builder/site');
    assert.equal(site.json.result.address.label, 'ada-bakes');
  });

  test('given bad labels, a taken one, a second one for the site, or another owner’s site, then a stable code and nothing is written', async () => {
    const before = await footprint();
    const cases: [Person, Loose, number, string, string?][] = [
      [bob, { label: '\u0430pple' }, 400, 'builder.label_invalid', 'charset'],
      [bob, { label: 'xn--80ak6aa92e' }, 400, 'builder.label_invalid', 'punycode'],
      [bob, { label: 'www' }, 400, 'builder.label_invalid', 'reserved'],
      [bob, { label: 'sites' }, 400, 'builder.label_invalid', 'reserved'],
      [bob, { label: 'ab' }, 400, 'builder.label_invalid', 'too_short'],
      [bob, { label: 'ok', extra: 1 }, 400, 'input.invalid'],
      [ada, { label: 'another' }, 409, 'builder.site_has_address'],
      [
        bob,
        { label: 'bakery', siteId: '00000000-0000-4000-8000-000000000000' },
        404,
        'builder.site_not_found',
      ],
    ];
    for (const [who, body, status, code, reason] of cases) {
      const r = await claim(who, body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.code, code, JSON.stringify(body));
      if (reason) assert.equal(r.json.reason, reason, JSON.stringify(body));
    }
    assert.deepEqual(await footprint(), before);
    // A taken label: bob's default site comes into being (asking for it creates it), nothing else.
    // Typed carelessly, it is still the taken `ada-bakes`: the refusal offers free ones like it.
    const taken = await claim(bob, { label: ' Ada Bakes ' });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json.code, 'builder.label_taken');
    assert.equal(taken.json.label, 'ada-bakes');
    assert.deepEqual(taken.json.suggestions, ['ada-bakes-2', 'ada-bakes-3', 'ada-bakes-4']);
    const after = await footprint();
    assert.deepEqual(after.tables.rm_builder_addresses, before.tables.rm_builder_addresses);
    const none = await release(bob);
    assert.equal(none.status, 404, none.text);
    assert.equal(none.json.code, 'builder.address_not_found');
    assert.deepEqual(await footprint(), after);
  });

  test('given no session or another origin, then 401 auth.required or 403 request.cross_origin', async () => {
    const anonymous = await fetch(`${instance.url}/api/builder/address`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'nobody' }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as Loose).code, 'auth.required');
    const cross = await ada.browser.post(
      '/api/builder/address',
      { label: 'other' },
      { origin: 'https://evil.example' },
    );
    assert.equal(cross.status, 403);
    assert.equal(cross.json.code, 'request.cross_origin');
  });

  test('given a released address, then it is held for its owner: another is 409 builder.label_held until the hold ends', async () => {
    const r = await claim(bob, { label: 'bob-bikes' });
    assert.equal(r.status, 201, r.text);
    const released = await release(bob, undefined, `?siteId=${r.json.result.siteId}`);
    assert.equal(released.status, 200, released.text);
    assert.equal(released.json.result.label, 'bob-bikes');
    assert.equal(
      Date.parse(released.json.result.holdUntil) - Date.parse(released.json.result.releasedAt),
      30 * 86_400_000,
    );
    // A new site of Ada's (her default one holds an address already) asks for the held label.
    const adas = await ada.browser.post('/api/builder/sites', { title: 'Second' });
    assert.equal(adas.status, 201, adas.text);
    const heldForAda = await claim(ada, { label: 'bob-bikes', siteId: adas.json.result.siteId });
    assert.equal(heldForAda.status, 409);
    assert.equal(heldForAda.json.code, 'builder.label_held');
    assert.equal(heldForAda.json.holdUntil, released.json.result.holdUntil);
    const back = await claim(bob, { label: 'bob-bikes' });
    assert.equal(back.status, 201, back.text);
  });

  test('given a title and a label, when a site is created over REST, then it holds the address; a taken label creates no site', async () => {
    const r = await bob.browser.post('/api/builder/sites', { title: 'Boats', label: 'bob-boats' });
    assert.equal(r.status, 201, r.text);
    const site = await bob.browser.get(`/api/builder/site?siteId=${r.json.result.siteId}`);
    assert.equal(site.json.result.address.label, 'bob-boats');
    const before = await footprint();
    const sites = (await bob.browser.get('/api/builder/sites')).json.result.sites.length;
    const taken = await bob.browser.post('/api/builder/sites', { title: 'Boats too', label: 'bob-boats' });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json.code, 'builder.label_taken');
    assert.deepEqual(await footprint(), before);
    assert.equal((await bob.browser.get('/api/builder/sites')).json.result.sites.length, sites);
  });

  test('given MCP tokens, when an agent claims and releases through the SDK client, then within its scopes', async () => {
    const writer = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const reader = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    const readOnly = await mcpClient(instance.url, { bearer: reader.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.builder.claim_address'));
      assert.ok(tools.includes('svc.builder.release_address'));
      for (const own of ['svc.builder.register_address', 'svc.builder.deregister_address'])
        assert.ok(!tools.includes(own), `${own} is reached only at its federation endpoint`);
      const site = structured(
        await client.callTool({ name: 'svc.builder.create_site', arguments: { title: 'Crème Brûlée' } }),
      );
      const siteId = site.siteId as string;
      const claimed = structured(
        await client.callTool({ name: 'svc.builder.claim_address', arguments: { siteId } }),
      );
      assert.equal(claimed.label, 'creme-brulee');
      const bad = await client.callTool({
        name: 'svc.builder.claim_address',
        arguments: { siteId, label: 'xn--abc' },
      });
      assert.equal(errorCodeOf(bad), 'builder.label_invalid');
      const denied = await readOnly.callTool({ name: 'svc.builder.release_address', arguments: { siteId } });
      assert.equal(errorCodeOf(denied), 'auth.insufficient_scope');
      const released = structured(
        await client.callTool({ name: 'svc.builder.release_address', arguments: { siteId } }),
      );
      assert.equal(released.label, 'creme-brulee');
    } finally {
      await client.close();
      await readOnly.close();
    }
  });

  test('given a published site with an address, then the site server answers at <label>.<SITES_DOMAIN> and /sites/<label>/, and no longer once it is released', async () => {
    const published = await ada.browser.post('/api/ops/svc.builder.publish', {});
    assert.equal(published.status, 201, published.text);
    const byPath = async () => (await fetch(`${instance.url}/sites/ada-bakes/`)).status;
    const byHost = async () => {
      const { request } = await import('node:http');
      return new Promise<number>((resolve, reject) => {
        const req = request(`${instance.url}/`, { headers: { host: 'ada-bakes.sites.test' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    };
    // The site server reloads a changed site on the serving projection's notification.
    const eventually = async (probe: () => Promise<number>, status: number) => {
      for (let i = 0; i < 50 && (await probe()) !== status; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await probe(), status);
    };
    await eventually(byPath, 200);
    await eventually(byHost, 200);
    const released = await release(ada, {});
    assert.equal(released.status, 200, released.text);
    await eventually(byPath, 404);
    await eventually(byHost, 404);
  });

  test('given claims and releases in the log, when the builder read models are rebuilt from zero, then they equal the incremental ones', async () => {
    const pool = instance.instance.pool;
    const tables = async () => {
      const out: Record<string, unknown[]> = {};
      for (const t of ['rm_builder_addresses', 'rm_builder_address_instances'])
        out[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1`)).rows;
      return out;
    };
    const incremental = await tables();
    assert.ok((incremental.rm_builder_addresses as Loose[]).some((a) => a.state === 'released'));
    assert.ok((incremental.rm_builder_addresses as Loose[]).some((a) => a.state === 'claimed'));
    const counts = await rebuildProjections(pool, builderProjections);
    assert.ok(counts['builder-addresses']! > 0);
    assert.deepEqual(await tables(), incremental);
  });
});
