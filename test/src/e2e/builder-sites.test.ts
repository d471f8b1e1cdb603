// The site builder's sites and drafts end to end: REST under /api/builder (session only) and the MCP
// tools through the official SDK client, on a real instance over PostgreSQL. Refusals answer a stable
// code and write nothing; concurrent draft edits never overwrite each other; the builder read models
// rebuilt from the log equal the incremental ones.
import { DRAFT_LIMITS, STARTER_TEMPLATES, starterTemplateDraft } from '@tributary/domain';
import { rebuildProjections } from '@tributary/infra';
import { builderProjections } from '@tributary/projections';
import { commitEvents, defaultSiteId } from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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

const ids = { sha256: (s: string) => createHash('sha256').update(s).digest('hex') };
const draftWith = (blocks: unknown[], extra: Loose = {}) => ({
  schemaVersion: 1,
  pages: [{ path: '/', title: 'Home', blocks }],
  ...extra,
});
const BAD_URLS = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>x</script>',
  '//evil.example',
];
const MEDIA = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A draft in every URL field of which `url` sits, with the path (in the document) each one is reported at. */
const urlCases = (url: string): [unknown, string][] => [
  [draftWith([{ type: 'button', label: 'Go', url }]), 'pages.0.blocks.0.url'],
  [draftWith([{ type: 'links', items: [{ label: 'Go', url }] }]), 'pages.0.blocks.0.items.0.url'],
  [draftWith([{ type: 'image', mediaId: MEDIA, alt: 'a', link: url }]), 'pages.0.blocks.0.link'],
  [
    draftWith([
      {
        type: 'columns',
        columns: [{ blocks: [{ type: 'button', label: 'Go', url }] }, { blocks: [] }],
      },
    ]),
    'pages.0.blocks.0.columns.0.blocks.0.url',
  ],
  [draftWith([], { navigation: { items: [{ label: 'Go', url }] } }), 'navigation.items.0.url'],
  [draftWith([], { footer: { markdown: '', links: [{ label: 'Go', url }] } }), 'footer.links.0.url'],
];

describe('builder sites and drafts', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  /** The log apart from provenance entries, and the builder's read models: what a refusal leaves alone. */
  const footprint = () => builderFootprint(instance.instance.pool);
  const put = (who: Person, body: unknown) => who.browser.call('PUT', '/api/builder/draft', body);

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Sites' } });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a new person, when listing sites over REST, then the default site is shown first without being written; the first write creates it; created sites follow', async () => {
    const before = await footprint();
    const first = await ada.browser.get('/api/builder/sites');
    assert.equal(first.status, 200, first.text);
    const sites = first.json.result.sites as Loose[];
    assert.deepEqual(
      sites.map((s) => [s.siteId, s.isDefault, s.title, s.draftRevision]),
      [[defaultSiteId(ids, ada.agentId), true, 'ada', 1]],
    );
    const draft = await ada.browser.get('/api/builder/draft');
    assert.equal(draft.status, 200, draft.text);
    assert.equal(draft.json.result.revision, 1);
    assert.deepEqual(await footprint(), before, 'reading wrote nothing');
    // Saving over the revision the read showed creates the default site, then saves.
    const saved = await put(ada, { revision: 1, document: draftWith([{ type: 'text', markdown: 'Soups' }]) });
    assert.equal(saved.status, 201, saved.text);
    assert.equal(saved.json.result.revision, 2);
    const created = await ada.browser.post('/api/builder/sites', { title: 'Breads' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.result.isDefault, false);
    const again = await ada.browser.get('/api/builder/sites');
    assert.deepEqual(
      (again.json.result.sites as Loose[]).map((s) => [s.title, s.draftRevision]),
      [
        ['ada', 2],
        ['Breads', 1],
      ],
    );
  });

  test('given each starter template, when a site is created from it over REST, then its draft is that template at revision 1; an unknown template is 400 input.invalid and writes nothing', async () => {
    const opal = await signUp(instance.url, 'opal');
    for (const template of STARTER_TEMPLATES) {
      const created = await opal.browser.post('/api/builder/sites', { title: `Opal ${template}`, template });
      assert.equal(created.status, 201, created.text);
      const siteId = created.json.result.siteId as string;
      const draft = await opal.browser.get(`/api/builder/draft?siteId=${siteId}`);
      assert.equal(draft.status, 200, draft.text);
      assert.equal(draft.json.result.revision, 1);
      assert.deepEqual(draft.json.result.document, starterTemplateDraft(template, `Opal ${template}`));
      assert.ok(draft.json.result.document.pages.length >= 2, `${template} has more than a home page`);
    }
    const before = await footprint();
    const unknown = await opal.browser.post('/api/builder/sites', { title: 'Nope', template: 'blog' });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json.code, 'input.invalid');
    assert.deepEqual(await footprint(), before, 'a refused template wrote nothing');
  });

  test('given first writes at once, then the owner still has exactly one default site', async () => {
    const cleo = await signUp(instance.url, 'cleo');
    const answers = await Promise.all([
      cleo.browser.get('/api/builder/sites'),
      cleo.browser.get('/api/builder/draft'),
      put(cleo, { revision: 1, document: draftWith([{ type: 'text', markdown: 'Hello' }]) }),
      cleo.browser.post('/api/builder/sites', { title: 'First' }),
    ]);
    for (const a of answers) assert.ok(a.status === 200 || a.status === 201, a.text);
    const { rows } = await instance.instance.pool.query(
      `SELECT count(*) FILTER (WHERE is_default) AS defaults, count(*) FILTER (WHERE title = 'First') AS firsts
         FROM rm_builder_sites WHERE owner_agent_id = $1`,
      [cleo.agentId],
    );
    assert.equal(Number(rows[0].defaults), 1);
    assert.equal(Number(rows[0].firsts), 1);
  });

  test('given a site, when its owner reads and updates it, then the settings, publication and version list come back', async () => {
    const updated = await ada.browser.post('/api/builder/site', {
      title: 'Ada’s soups',
      theme: 'modern',
      language: 'fr',
      description: 'Soups all year',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json.result.theme, 'modern');
    const read = await ada.browser.get(`/api/builder/site?siteId=${defaultSiteId(ids, ada.agentId)}&limit=5`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json.result.site.title, 'Ada’s soups');
    assert.equal(read.json.result.site.language, 'fr');
    assert.equal(read.json.result.publication, null);
    assert.deepEqual(read.json.result.versions, []);
    assert.equal(read.json.result.nextBefore, null);
  });

  test('given bob’s site or agent, when ada names them on any route, then 404 and nothing is written', async () => {
    const bobSite = (await bob.browser.get('/api/builder/sites')).json.result.sites[0].siteId as string;
    const before = await footprint();
    const answers = [
      [await ada.browser.get(`/api/builder/site?siteId=${bobSite}`), 'builder.site_not_found'],
      [
        await ada.browser.post('/api/builder/site', { siteId: bobSite, title: 'Mine' }),
        'builder.site_not_found',
      ],
      [await ada.browser.get(`/api/builder/draft?siteId=${bobSite}`), 'builder.site_not_found'],
      [await put(ada, { siteId: bobSite, revision: 1, document: draftWith([]) }), 'builder.site_not_found'],
      [await ada.browser.get(`/api/builder/sites?targetAgentId=${bob.agentId}`), 'agent.not_found'],
      [
        await ada.browser.post('/api/builder/sites', { targetAgentId: bob.agentId, title: 'x' }),
        'agent.not_found',
      ],
      [await ada.browser.get(`/api/builder/draft?targetAgentId=${bob.agentId}`), 'agent.not_found'],
      [
        await put(ada, { targetAgentId: bob.agentId, revision: 1, document: draftWith([]) }),
        'agent.not_found',
      ],
    ] as const;
    for (const [r, code] of answers) {
      assert.equal(r.status, 404, r.text);
      assert.equal(r.json.code, code);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given no session or another origin, then 401 auth.required or 403 request.cross_origin', async () => {
    const anonymous = await fetch(`${instance.url}/api/builder/sites`);
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as Loose).code, 'auth.required');
    const cross = await ada.browser.call(
      'PUT',
      '/api/builder/draft',
      { revision: 1, document: draftWith([]) },
      { origin: 'https://evil.example' },
    );
    assert.equal(cross.status, 403);
    assert.equal(cross.json.code, 'request.cross_origin');
  });

  test('given the draft, when saved over its revision, then 201 with the next; a stale revision is 409 builder.draft_stale with the current one', async () => {
    const draft = await ada.browser.get('/api/builder/draft');
    assert.equal(draft.status, 200, draft.text);
    assert.equal(draft.json.result.document.pages[0].path, '/');
    const revision = draft.json.result.revision as number;
    const document = draftWith(
      [
        { type: 'heading', level: 1, text: 'Soups' },
        { type: 'text', markdown: 'Hot *soups* — [menu](/menu), [mail](mailto:a@example.org)' },
        { type: 'button', label: 'Order', url: 'https://example.org/order' },
      ],
      { navigation: { items: [{ label: 'Menu', url: '/menu' }] } },
    );
    const saved = await put(ada, { revision, document });
    assert.equal(saved.status, 201, saved.text);
    assert.equal(saved.json.result.revision, revision + 1);
    const read = await ada.browser.get('/api/builder/draft');
    assert.deepEqual(read.json.result.document.navigation, { items: [{ label: 'Menu', url: '/menu' }] });

    const before = await footprint();
    const stale = await put(ada, { revision, document: draftWith([]) });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.json.code, 'builder.draft_stale');
    assert.equal(stale.json.currentRevision, revision + 1);
    assert.deepEqual(await footprint(), before);
  });

  test('given two editors saving over the same revision at once, then one is saved (201) and the other is 409 builder.draft_stale, every time', async () => {
    for (let round = 0; round < 5; round++) {
      const revision = (await ada.browser.get('/api/builder/draft')).json.result.revision as number;
      const [one, two] = await Promise.all([
        put(ada, { revision, document: draftWith([{ type: 'heading', text: `one ${round}` }]) }),
        put(ada, { revision, document: draftWith([{ type: 'heading', text: `two ${round}` }]) }),
      ]);
      assert.deepEqual([one.status, two.status].sort(), [201, 409], `${one.text} ${two.text}`);
      const lost = one.status === 409 ? one : two;
      const won = one.status === 201 ? one : two;
      assert.equal(lost.json.code, 'builder.draft_stale');
      assert.equal(lost.json.currentRevision, revision + 1);
      assert.equal(won.json.result.revision, revision + 1);
      const now = (await ada.browser.get('/api/builder/draft')).json.result;
      assert.equal(now.revision, revision + 1);
      assert.equal(now.document.pages[0].blocks[0].text, `${won === one ? 'one' : 'two'} ${round}`);
    }
  });

  test('given an unknown block type, then 400 input.invalid; javascript:/data: URLs in every URL field, 400 builder.link_invalid naming it; nothing is written', async () => {
    const revision = (await ada.browser.get('/api/builder/draft')).json.result.revision as number;
    const before = await footprint();
    const unknown = await put(ada, { revision, document: draftWith([{ type: 'html', html: '<b>x</b>' }]) });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json.code, 'input.invalid');
    for (const url of BAD_URLS)
      for (const [document, path] of urlCases(url)) {
        const r = await put(ada, { revision, document });
        assert.equal(r.status, 400, `${url} ${path}: ${r.text}`);
        assert.equal(r.json.code, 'builder.link_invalid');
        assert.deepEqual([r.json.path, r.json.value, r.json.links], [path, url, [{ path, value: url }]]);
      }
    assert.deepEqual(await footprint(), before);
  });

  test('given scripts in Markdown or plain text, then 400 builder.unsafe_content naming the field, and nothing is written', async () => {
    const revision = (await ada.browser.get('/api/builder/draft')).json.result.revision as number;
    const before = await footprint();
    const cases: [unknown, string][] = [
      [draftWith([{ type: 'text', markdown: '[x](javascript:alert(1))' }]), 'pages.0.blocks.0.markdown'],
      [draftWith([{ type: 'text', markdown: '[x](data:text/html,hi)' }]), 'pages.0.blocks.0.markdown'],
      [draftWith([{ type: 'text', markdown: '<script>alert(1)</script>' }]), 'pages.0.blocks.0.markdown'],
      [
        draftWith([], { footer: { markdown: 'a <img src=x onerror=alert(1)>', links: [] } }),
        'footer.markdown',
      ],
      [draftWith([{ type: 'heading', text: '<script>alert(1)</script>' }]), 'pages.0.blocks.0.text'],
      [
        draftWith([{ type: 'image', mediaId: MEDIA, alt: '"><svg onload=alert(1)>' }]),
        'pages.0.blocks.0.alt',
      ],
    ];
    for (const [document, path] of cases) {
      const r = await put(ada, { revision, document });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 'builder.unsafe_content');
      assert.equal(r.json.path, path);
    }
    assert.deepEqual(await footprint(), before);
  });

  test('given a draft over the size limit, then 413 builder.draft_too_large; a body past the route’s limit, 413 request.too_large; nothing is written', async () => {
    const revision = (await ada.browser.get('/api/builder/draft')).json.result.revision as number;
    const before = await footprint();
    const block = { type: 'text', markdown: 'x'.repeat(DRAFT_LIMITS.markdownChars) };
    const blocks = (n: number) => Array.from({ length: n }, () => block);
    const overDraft = JSON.stringify({ revision, document: draftWith(blocks(53)) });
    assert.ok(overDraft.length > DRAFT_LIMITS.bytes && overDraft.length < DRAFT_LIMITS.bytes + 64 * 1024);
    const tooLarge = await put(ada, overDraft);
    assert.equal(tooLarge.status, 413, tooLarge.text.slice(0, 300));
    assert.equal(tooLarge.json.code, 'builder.draft_too_large');
    const overBody = await put(ada, { revision, document: draftWith(blocks(60)) });
    assert.equal(overBody.status, 413);
    assert.equal(overBody.json.code, 'request.too_large');
    assert.deepEqual(await footprint(), before);
    // Just under the limit is saved.
    const under = await put(ada, { revision, document: draftWith(blocks(50)) });
    assert.equal(under.status, 201, under.text.slice(0, 300));
  });

  test('given MCP tokens, when an agent uses the builder tools through the SDK client, then it reads and saves drafts within its scopes', async () => {
    const writer = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const reader = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    const readOnly = await mcpClient(instance.url, { bearer: reader.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const name of [
        'svc.builder.list_sites',
        'svc.builder.create_site',
        'svc.builder.read_site',
        'svc.builder.update_site',
        'svc.builder.read_draft',
        'svc.builder.save_draft',
      ])
        assert.ok(tools.includes(name), name);
      const saveTool = (await client.listTools()).tools.find((t) => t.name === 'svc.builder.save_draft')!;
      assert.ok(
        JSON.stringify(saveTool.inputSchema).includes('"columns"'),
        'the draft schema is in the tool',
      );

      const sites = structured(await client.callTool({ name: 'svc.builder.list_sites', arguments: {} }));
      assert.equal(sites.sites[0].isDefault, true);
      const draft = structured(await client.callTool({ name: 'svc.builder.read_draft', arguments: {} }));
      const saved = structured(
        await client.callTool({
          name: 'svc.builder.save_draft',
          arguments: { revision: draft.revision, document: draftWith([{ type: 'heading', text: 'By MCP' }]) },
        }),
      );
      assert.equal(saved.revision, draft.revision + 1);
      const site = structured(await client.callTool({ name: 'svc.builder.read_site', arguments: {} }));
      assert.equal(site.site.draftRevision, saved.revision);

      const before = await footprint();
      const stale = await client.callTool({
        name: 'svc.builder.save_draft',
        arguments: { revision: draft.revision, document: draftWith([]) },
      });
      assert.equal(errorCodeOf(stale), 'builder.draft_stale');
      const bobSite = defaultSiteId(ids, bob.agentId);
      assert.equal(
        errorCodeOf(
          await client.callTool({ name: 'svc.builder.read_draft', arguments: { siteId: bobSite } }),
        ),
        'builder.site_not_found',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.list_sites',
            arguments: { targetAgentId: bob.agentId },
          }),
        ),
        'agent.not_found',
      );
      const unsafe = await client.callTool({
        name: 'svc.builder.save_draft',
        arguments: {
          revision: saved.revision,
          document: draftWith([{ type: 'text', markdown: '<script>x</script>' }]),
        },
      });
      assert.equal(errorCodeOf(unsafe), 'builder.unsafe_content');
      const badUrl = await client.callTool({
        name: 'svc.builder.save_draft',
        arguments: { revision: saved.revision, document: urlCases('javascript:alert(1)')[0]![0] },
      });
      assert.equal(errorCodeOf(badUrl), 'builder.link_invalid');
      const unknownBlock = await client.callTool({
        name: 'svc.builder.save_draft',
        arguments: { revision: saved.revision, document: draftWith([{ type: 'script', src: 'x' }]) },
      });
      assert.equal(errorCodeOf(unknownBlock), 'input.invalid');
      assert.equal(
        errorCodeOf(
          await readOnly.callTool({
            name: 'svc.builder.save_draft',
            arguments: { revision: saved.revision, document: draftWith([]) },
          }),
        ),
        'auth.insufficient_scope',
      );
      assert.equal(
        structured(await readOnly.callTool({ name: 'svc.builder.read_draft', arguments: {} })).revision,
        saved.revision,
      );
      assert.deepEqual(await footprint(), before, 'refused tool calls wrote only their provenance entries');
    } finally {
      await client.close();
      await readOnly.close();
    }
  });

  test('given versions, a publication, a rollback and a suspension in the log, when the builder read models are rebuilt from zero, then they equal the incremental ones', async () => {
    const { services } = instance.instance;
    const siteId = defaultSiteId(ids, ada.agentId);
    const stream = `site-${siteId}`;
    const hash = (n: number) => String(n).repeat(64);
    const pointer = (versionId: string, n: number) => ({
      siteId,
      ownerAgentId: ada.agentId,
      versionId,
      manifestHash: hash(n),
      manifest: [{ path: '/', sha256: hash(n), contentType: 'text/html', length: 10 }],
    });
    for (const n of [1, 2, 3])
      await commitEvents(
        services,
        [stream],
        () => [
          {
            stream,
            type: 'site.version_created',
            data: {
              versionId: `v${n}`,
              draftRevision: n,
              manifestHash: hash(n),
              manifest: pointer(`v${n}`, n).manifest,
            },
          },
          { stream, type: 'site.published', data: { ...pointer(`v${n}`, n), title: 'Ada’s soups' } },
        ],
        ada.agentId,
      );
    await commitEvents(
      services,
      [stream],
      () => [
        { stream, type: 'site.rolled_back', data: { ...pointer('v1', 1), fromVersionId: 'v3' } },
        { stream, type: 'site.suspended', data: { siteId, reason: 'spam' } },
      ],
      ada.agentId,
    );
    const read = await ada.browser.get('/api/builder/site?limit=2');
    assert.deepEqual(
      (read.json.result.versions as Loose[]).map((v) => v.versionId),
      ['v3', 'v2'],
    );
    assert.equal(read.json.result.publication.versionId, 'v1');
    assert.equal(read.json.result.site.suspendedReason, 'spam');
    const next = await ada.browser.get(`/api/builder/site?limit=2&before=${read.json.result.nextBefore}`);
    assert.deepEqual(
      (next.json.result.versions as Loose[]).map((v) => v.versionId),
      ['v1'],
    );

    const incremental = (await footprint()).tables;
    assert.ok((incremental.rm_builder_sites as unknown[]).length >= 3);
    const counts = await rebuildProjections(instance.instance.pool, builderProjections);
    assert.ok(counts['builder-sites']! > 0);
    assert.deepEqual((await footprint()).tables, incremental);
  });
});
