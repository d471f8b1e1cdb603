// Universal manifests per entity, end to end on a real instance over PostgreSQL:
// GET /api/universal-manifest/<kind>/<id> for persons, personas, organizations and sites, signed with the
// instance key and verified here with an independent Ed25519 implementation (@noble/ed25519); the
// publication flag an owner sets (svc.manifest.set_publication); unknown kinds, malformed ids, unknown
// and unpublished entities answered with their codes; refusals write nothing.
import * as ed from '@noble/ed25519';
import { canonicalJson } from '@tributary/infra';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
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

ed.hashes.sha512 = (m: Uint8Array) => new Uint8Array(createHash('sha512').update(m).digest());

describe('universal manifests per entity', () => {
  let instance: TestInstance;
  let publicKey: string;
  let operator: Person; // the first account: controls the instance and its primary (group) agent
  let ada: Person;
  let bob: Person;
  let primaryAgentId: string;

  beforeAll(async () => {
    instance = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Riverside', SITES_DOMAIN: 'sites.test' },
    });
    publicKey = instance.instance.publicKey;
    operator = await signUp(instance.url, 'opal');
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    primaryAgentId = (await instance.instance.services.instance.read.get())!.primaryAgentId;
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  const get = async (path: string) => {
    const r = await fetch(`${instance.url}${path}`);
    return { status: r.status, headers: r.headers, json: (await r.json()) as Loose };
  };
  const manifestOf = (kind: string, id: string) => get(`/api/universal-manifest/${kind}/${id}`);
  const publish = (who: Person, published: boolean, targetAgentId?: string) =>
    who.browser.post('/api/ops/svc.manifest.set_publication', {
      published,
      ...(targetAgentId && { targetAgentId }),
    });

  /** Verifies the signature with @noble/ed25519 over the RFC 8785 form of everything but `signature`. */
  const verified = (m: Loose) => {
    const { signature, ...unsigned } = m;
    assert.equal(signature.algorithm, 'Ed25519');
    assert.equal(signature.canonicalization, 'JCS-RFC8785');
    assert.equal(
      Buffer.from(signature.publicKeySpkiB64, 'base64').subarray(12).toString('base64url'),
      publicKey,
      'the SPKI key carried is the instance key',
    );
    return ed.verify(
      Buffer.from(signature.value, 'base64url'),
      Buffer.from(canonicalJson(unsigned), 'utf8'),
      Buffer.from(publicKey, 'base64url'),
      { zip215: false },
    );
  };

  const footprint = async () => {
    const { rows } = await instance.instance.pool.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM events WHERE type <> 'provenance.recorded') AS events,
              (SELECT json_agg(row_to_json(x) ORDER BY agent_id) FROM rm_manifest_publications x)::text AS publications`,
    );
    return rows[0]!;
  };

  test('given a person who has not chosen, then their manifest is 404 manifest.not_found', async () => {
    const r = await manifestOf('person', ada.agentId);
    assert.equal(r.status, 404);
    assert.equal(r.json.code, 'manifest.not_found');
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
  });

  test('given a person who publishes, then a signed manifest with subject, pointers, claims and consents, valid 30 days', async () => {
    const set = await publish(ada, true);
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(set.json.result, {
      agentId: ada.agentId,
      kind: 'person',
      published: true,
      manifestUrl: `${instance.url}/api/universal-manifest/person/${ada.agentId}`,
    });
    const again = await publish(ada, true);
    assert.equal(again.status, 200, 'the same choice again writes nothing');

    const r = await manifestOf('person', ada.agentId);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.equal(r.headers.get('cache-control'), 'public, max-age=300');
    const m = r.json;
    assert.ok(verified(m), 'noble verifies the manifest');
    assert.equal(m['@type'], 'um:Manifest');
    assert.equal(m.manifestVersion, '0.2');
    assert.equal(m['@id'], `${instance.url}/api/universal-manifest/person/${ada.agentId}`);
    assert.equal(m.subject, `urn:uuid:${ada.agentId}`);
    assert.equal(m.issuer, `urn:uuid:${instance.instance.instanceId}`);
    assert.equal(Date.parse(m.expiresAt) - Date.parse(m.issuedAt), 30 * 86_400_000);
    assert.deepEqual(m.pointers, {
      canonical: `${instance.url}/api/federation/registry/${ada.agentId}`,
      manifest: `${instance.url}/api/universal-manifest/person/${ada.agentId}`,
      feed: `${instance.url}/api/federation/query?resource=events&stream=agent-${ada.agentId}`,
      site: null,
      world: null,
    });
    assert.deepEqual(
      m.claims.map((c: Loose) => [c.name, c.value]),
      [
        ['home', instance.url],
        ['agentKind', 'person'],
        ['handle', 'ada'],
        ['createdAt', m.claims[3].value],
      ],
    );
    assert.equal(m.consents[0].purpose, 'publication');
    assert.equal(m.consents[0].granted, true);
    assert.equal(m.shards[0].entity['@type'], 'tributary:Person');
    assert.equal(m.shards[0].entity.name, 'ada');

    // A tampered manifest does not verify.
    assert.equal(verified({ ...m, subject: `urn:uuid:${bob.agentId}` }), false);
  });

  test('given a person who withdraws, then 404 again; as the other kind, 404', async () => {
    assert.equal((await publish(ada, false)).status, 201);
    assert.equal((await manifestOf('person', ada.agentId)).json.code, 'manifest.not_found');
    assert.equal((await publish(ada, true)).status, 201);
    const asOrg = await manifestOf('organization', ada.agentId);
    assert.equal(asOrg.status, 404);
    assert.equal(asOrg.json.code, 'manifest.not_found');
  });

  test('given a persona, then it is a person manifest of its own, published separately', async () => {
    const created = await ada.browser.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada at work',
      handle: 'ada_work',
    });
    assert.equal(created.status, 201, created.text);
    const personaId = created.json.result.agentId as string;
    assert.equal((await manifestOf('person', personaId)).status, 404);
    assert.equal((await publish(ada, true, personaId)).status, 201);
    const m = (await manifestOf('person', personaId)).json;
    assert.ok(verified(m));
    assert.equal(m.shards[0].entity.agentKind, 'persona');
    assert.equal(m.shards[0].entity.owner, `urn:uuid:${ada.agentId}`);
  });

  test('given the instance’s group agent, then its controller publishes it as an organization', async () => {
    assert.equal((await manifestOf('organization', primaryAgentId)).status, 404);
    // ada does not control it: the same 404 as an unknown agent, nothing written.
    const before = await footprint();
    const refused = await publish(ada, true, primaryAgentId);
    assert.equal(refused.status, 404);
    assert.equal(refused.json.code, 'agent.not_found');
    assert.deepEqual(await footprint(), before);
    assert.equal((await publish(operator, true, primaryAgentId)).status, 201);
    const m = (await manifestOf('organization', primaryAgentId)).json;
    assert.ok(verified(m));
    assert.equal(m.shards[0].entity['@type'], 'tributary:Organization');
    assert.equal(m.shards[0].entity.agentKind, 'group');
  });

  test('given a site, then only once published (with its address), and its owner’s manifest points to it', async () => {
    const sites = await bob.browser.get('/api/builder/sites');
    assert.equal(sites.status, 200, sites.text);
    const siteId = sites.json.result.sites[0].siteId as string;
    assert.equal((await manifestOf('site', siteId)).json.code, 'manifest.not_found', 'a draft is private');
    assert.equal((await bob.browser.post('/api/builder/address', { label: 'bob-bakes' })).status, 201);
    assert.equal(
      (await manifestOf('site', siteId)).json.code,
      'manifest.not_found',
      'an address, but nothing published',
    );
    assert.equal((await bob.browser.post('/api/builder/publish', {})).status, 200);
    const r = await manifestOf('site', siteId);
    assert.equal(r.status, 200);
    assert.ok(verified(r.json));
    const port = new URL(instance.url).port;
    assert.equal(r.json.pointers.canonical, `http://bob-bakes.sites.test:${port}/`);
    assert.equal(r.json.subject, `urn:uuid:${siteId}`);
    assert.equal((await publish(bob, true)).status, 201);
    assert.equal(
      (await manifestOf('person', bob.agentId)).json.pointers.site,
      `http://bob-bakes.sites.test:${port}/`,
    );
  });

  test('given worlds, then a public one hosted here has a manifest, a private one none, and its owner’s manifest points to it', async () => {
    const world = async (visibility: 'public' | 'private') => {
      const r = await ada.browser.post('/api/ops/svc.spatial.create_world', {
        visibility,
        content: {
          label: `Ada's ${visibility} garden`,
          age_restriction: 0,
          license: 'CC0',
          cost: 'free',
          version: 1,
          duration: 0,
        },
      });
      assert.equal(r.status, 201, r.text);
      return r.json.result.worldId as string;
    };
    const open = await world('public');
    const closed = await world('private');
    const r = await manifestOf('world', open);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.ok(verified(r.json));
    assert.equal(r.json.subject, `urn:uuid:${open}`);
    assert.equal(r.json.pointers.canonical, `${instance.url}/wow/world/${open}`);
    assert.equal(r.json.pointers.world, `${instance.url}/wow/world/${open}`);
    assert.equal(
      r.json.pointers.feed,
      `${instance.url}/api/federation/query?resource=events&stream=world-${open}`,
    );
    assert.equal(r.json.shards[0].entity['@type'], 'tributary:World');
    assert.equal(r.json.shards[0].entity.owner, `urn:uuid:${ada.agentId}`);
    const hidden = await manifestOf('world', closed);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.json.code, 'manifest.not_found');
    assert.equal(
      (await manifestOf('person', ada.agentId)).json.pointers.world,
      `${instance.url}/wow/world/${open}`,
    );
  });

  test('given bad kinds and ids, then their codes, and OPTIONS answers the preflight', async () => {
    const unknownKind = await manifestOf('planet', ada.agentId);
    assert.equal(unknownKind.status, 404);
    assert.equal(unknownKind.json.code, 'manifest.unknown_kind');
    const malformed = await manifestOf('person', 'not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.code, 'manifest.malformed_id');
    const unknown = await manifestOf('person', randomUUID());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'manifest.not_found');
    assert.equal((await manifestOf('world', randomUUID())).json.code, 'manifest.not_found');
    const pre = await fetch(`${instance.url}/api/universal-manifest/person/${ada.agentId}`, {
      method: 'OPTIONS',
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  });

  test('given MCP tokens, then set_publication is a tool for svc.manifest.write only', async () => {
    const cleo = await signUp(instance.url, 'cleo');
    const writer = await issueToken(cleo, { scopes: ['svc.manifest.write'] });
    const reader = await issueToken(cleo, { scopes: ['svc.profile.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    try {
      const r = structured(
        await client.callTool({ name: 'svc.manifest.set_publication', arguments: { published: true } }),
      );
      assert.deepEqual(r, {
        agentId: cleo.agentId,
        kind: 'person',
        published: true,
        manifestUrl: `${instance.url}/api/universal-manifest/person/${cleo.agentId}`,
      });
    } finally {
      await client.close();
    }
    assert.equal((await manifestOf('person', cleo.agentId)).status, 200);
    const denied = await mcpClient(instance.url, { bearer: reader.token });
    try {
      const r = await denied.callTool({
        name: 'svc.manifest.set_publication',
        arguments: { published: false },
      });
      assert.equal(errorCodeOf(r), 'auth.insufficient_scope');
    } finally {
      await denied.close();
    }
    assert.equal((await manifestOf('person', cleo.agentId)).status, 200, 'still published');
  });

  test('given bad set_publication input, then input.invalid and nothing written', async () => {
    const before = await footprint();
    for (const body of [{}, { published: 'yes' }, { published: true, extra: 1 }]) {
      const r = await bob.browser.post('/api/ops/svc.manifest.set_publication', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.code, 'input.invalid');
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given the instance’s universal manifest, then it lists the spatial endpoints', async () => {
    const m = (await get('/.well-known/universal-manifest.json')).json;
    const spatial = m.shards[0].entity.spatialEndpoints as Loose;
    assert.equal(spatial.spatialFabric, `${instance.url}/.well-known/spatial-fabric`);
    assert.equal(spatial.user, `${instance.url}/wow/user`);
    assert.equal(spatial.traveller, `${instance.url}/api/spatial-web/traveller`);
    assert.equal(spatial.entityManifest, `${instance.url}/api/universal-manifest/{kind}/{id}`);
  });
});
