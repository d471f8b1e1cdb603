// Forms end to end on a real instance (PostgreSQL): the owner's operations over REST and through the
// official MCP SDK client (someone else's form is 404, bad definitions 400, refusals write nothing), a
// visitor's submissions over HTTP through the site server's dispatcher (thank-you page, honeypot, invalid
// fields, body limit, media type, rate limit with Retry-After), the CSV export, and a rebuild of the
// forms' read models that equals what was folded as events were written.
import { createFormSubmissionHook, createSiteServer, type SiteServingSource } from '@tributary/adapters';
import { createPgSiteServingSource, rebuildProjections } from '@tributary/infra';
import { allProjections } from '@tributary/projections';
import { commitEvents } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestInstance, type TestInstance } from '../harness/index.js';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const FIELDS = [
  { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 100 },
  { type: 'email', name: 'email', label: 'Email', required: true },
  { type: 'textarea', name: 'message', label: 'Message' },
  { type: 'checkbox', name: 'consent', label: 'I agree', required: true },
];

let instance: TestInstance;
let ada: Person;
let bob: Person;
/** A site server like the instance's, with address labels the test gives (the address part assigns them). */
let sites: { server: Server; url: string; close(): Promise<void> };
const labels = new Map<string, string>();

/** The log's size and the forms' tables: what a refusal must leave alone. */
async function footprint() {
  const { rows } = await instance.instance.pool.query(
    `SELECT (SELECT count(*) FROM events)::int AS events,
            (SELECT count(*) FROM rm_builder_forms)::int AS forms,
            (SELECT count(*) FROM rm_builder_submissions)::int AS submissions`,
  );
  return rows[0] as { events: number; forms: number; submissions: number };
}

async function op(who: Person, name: string, input: Loose, status = 200) {
  const r = await who.browser.post(`/api/ops/${name}`, input);
  assert.equal(r.status, status, r.text);
  return r.json;
}

async function createForm(who: Person, extra: Loose = {}): Promise<Loose> {
  return (await op(who, 'svc.builder.create_form', { name: 'Contact', fields: FIELDS, ...extra }, 201)).result
    .form;
}

/**
 * A site of `who` holding the form on its home page, published: the draft saved through save_draft, the
 * version and publication written as the publish operation writes them.
 */
async function publishedSiteWith(who: Person, formId: string): Promise<{ siteId: string; label: string }> {
  const site = (await op(who, 'svc.builder.create_site', { title: 'Shop' }, 201)).result;
  const siteId: string = site.siteId ?? site.site?.siteId;
  const draft = (await op(who, 'svc.builder.read_draft', { siteId })).result;
  const document = structuredClone(draft.document);
  document.pages[0].blocks.push({ type: 'form', formId });
  const saved = (await op(who, 'svc.builder.save_draft', { siteId, revision: draft.revision, document }, 201))
    .result;
  const versionId = randomUUID();
  const manifest = [
    {
      path: '/_assets/site.0123456789abcdef.css',
      sha256: 'c'.repeat(64),
      contentType: 'text/css; charset=utf-8',
      length: 1,
    },
    { path: '/index.html', sha256: 'a'.repeat(64), contentType: 'text/html; charset=utf-8', length: 1 },
  ];
  const stream = `site-${siteId}`;
  await commitEvents(
    instance.instance.services,
    [stream],
    () => [
      {
        stream,
        type: 'site.version_created',
        data: { versionId, draftRevision: saved.revision, manifestHash: 'b'.repeat(64), manifest },
      },
      {
        stream,
        type: 'site.published',
        data: {
          siteId,
          ownerAgentId: who.agentId,
          versionId,
          manifestHash: 'b'.repeat(64),
          manifest,
          title: 'Shop',
        },
      },
    ],
    who.agentId,
  );
  const label = `shop-${labels.size + 1}`;
  labels.set(siteId, label);
  return { siteId, label };
}

/** A raw HTTP request (fetch cannot send a Host or a body that lies about its length). */
function post(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(path, sites.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const submitTo = (label: string, formId: string, values: Record<string, string>, headers = {}) =>
  post(`/sites/${label}/_forms/${formId}`, new URLSearchParams(values).toString(), headers);

const good = { name: 'Vera <Visitor>', email: 'vera@example.org', consent: 'yes', website: '' };

beforeAll(async () => {
  instance = await startTestInstance({ env: { SITES_DOMAIN: 'sites.test' } });
  ada = await signUp(instance.url, 'ada');
  bob = await signUp(instance.url, 'bob');
  const pg = createPgSiteServingSource(instance.instance.pool, pino({ level: 'silent' }), {
    pollMs: 3_600_000,
  });
  const withLabels = (s: Awaited<ReturnType<SiteServingSource['all']>>[number]) => ({
    ...s,
    labels: labels.has(s.siteId) ? [labels.get(s.siteId)!] : [],
  });
  const source: SiteServingSource = {
    all: async () => (await pg.all()).map(withLabels),
    site: async (id) => {
      const s = await pg.site(id);
      return s && withLabels(s);
    },
    ...(pg.subscribe && { subscribe: pg.subscribe.bind(pg) }),
  };
  const siteServer = createSiteServer({
    sitesDomain: 'sites.test',
    baseUrl: instance.url,
    source,
    blobs: instance.instance.services.builder.blobs,
    cacheBytes: 1024 * 1024,
    pageMaxAgeSeconds: 60,
    forms: createFormSubmissionHook({
      services: instance.instance.services,
      maxBodyBytes: 32 * 1024,
      trustProxy: () => false,
    }),
    logger: pino({ level: 'silent' }),
  });
  await siteServer.start();
  const server = createServer((req, res) => {
    if (!siteServer.handle(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sites = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await siteServer.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  (sites as { refresh?: () => Promise<void> }).refresh = () => siteServer.refresh(null);
});

afterAll(async () => {
  await sites?.close();
  await instance?.destroy();
});

const refreshSites = () => (sites as unknown as { refresh: () => Promise<void> }).refresh();

describe('the owner’s operations', () => {
  test('given bad definitions, then 400 input.invalid and nothing is written', async () => {
    const before = await footprint();
    for (const fields of [
      [{ type: 'text', name: 'Name!', label: 'x' }],
      [{ type: 'select', name: 's', label: 'S', options: [] }],
      [{ type: 'text', name: 'website', label: 'taken by the honeypot' }],
      [{ type: 'iframe', name: 'x', label: 'X' }],
    ]) {
      const r = await ada.browser.post('/api/ops/svc.builder.create_form', { name: 'F', fields });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 'input.invalid');
    }
    assert.deepEqual(await footprint(), before);
  });

  test("given someone else's form, then every operation on it is 404 builder.form_not_found, writing nothing", async () => {
    const form = await createForm(ada);
    const before = await footprint();
    for (const [name, input] of [
      ['svc.builder.update_form', { formId: form.formId, name: 'Mine now' }],
      ['svc.builder.delete_form', { formId: form.formId }],
      ['svc.builder.list_submissions', { formId: form.formId }],
      ['svc.builder.export_submissions', { formId: form.formId }],
    ] as const) {
      const r = await bob.browser.post(`/api/ops/${name}`, input);
      assert.equal(r.status, 404, `${name}: ${r.text}`);
      assert.equal(r.json.code, 'builder.form_not_found');
    }
    const r = await bob.browser.post('/api/ops/svc.builder.list_forms', { targetAgentId: ada.agentId });
    assert.equal(r.status, 404);
    assert.equal(r.json.code, 'agent.not_found');
    assert.deepEqual(await footprint(), before);
  });

  test('given the MCP SDK client with scoped tokens, then the form tools work for the owner and not for others', async () => {
    const adaToken = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const bobToken = await issueToken(bob, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: adaToken.token });
    const other = await mcpClient(instance.url, { bearer: bobToken.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const name of [
        'svc.builder.list_forms',
        'svc.builder.create_form',
        'svc.builder.update_form',
        'svc.builder.delete_form',
        'svc.builder.list_submissions',
        'svc.builder.export_submissions',
        'svc.builder.delete_submission',
      ])
        assert.ok(tools.includes(name), name);
      assert.ok(!tools.includes('svc.builder.submit_form'), 'a visitor’s submission is not a tool');
      const made = structured(
        await client.callTool({
          name: 'svc.builder.create_form',
          arguments: { name: 'Newsletter', fields: [{ type: 'email', name: 'email', label: 'Email' }] },
        }),
      ).form;
      const patched = structured(
        await client.callTool({
          name: 'svc.builder.update_form',
          arguments: { formId: made.formId, successMessage: 'Welcome aboard.' },
        }),
      ).form;
      assert.equal(patched.successMessage, 'Welcome aboard.');
      assert.equal(patched.name, 'Newsletter');
      const listed = structured(await client.callTool({ name: 'svc.builder.list_forms', arguments: {} }));
      assert.ok(listed.forms.some((f: Loose) => f.formId === made.formId));
      const before = await footprint();
      assert.equal(
        errorCodeOf(
          await other.callTool({
            name: 'svc.builder.update_form',
            arguments: { formId: made.formId, name: 'Hijacked' },
          }),
        ),
        'builder.form_not_found',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.create_form',
            arguments: { name: 'Bad', fields: [{ type: 'text', name: 'Bad Name', label: 'x' }] },
          }),
        ),
        'input.invalid',
      );
      // Refusals write nothing but their provenance entries.
      const after = await footprint();
      assert.equal(after.forms, before.forms);
      assert.equal(after.submissions, before.submissions);
    } finally {
      await client.close();
      await other.close();
    }
  });
});

describe('a visitor’s submission over HTTP', () => {
  test('given a published form, when a visitor posts it, then a thank-you page with the site’s headers, and the owner reads the submission', async () => {
    const form = await createForm(ada, { successMessage: 'Thanks — we <3 mail.' });
    const { label } = await publishedSiteWith(ada, form.formId);
    await refreshSites();
    const r = await submitTo(label, form.formId, { ...good, message: 'Hello\r\nthere' });
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
    assert.doesNotMatch(String(r.headers['content-security-policy']), /script-src/);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['set-cookie'], undefined);
    assert.ok(r.text.includes('Thanks — we &lt;3 mail.'), r.text);
    assert.ok(!r.text.includes('<script'), 'no script');
    assert.ok(
      r.text.includes(`href="/sites/${label}/_assets/site.0123456789abcdef.css"`),
      'the site’s stylesheet',
    );
    assert.ok(r.text.includes(`href="/sites/${label}/"`), 'a way back');

    const page = (await op(ada, 'svc.builder.list_submissions', { formId: form.formId })).result;
    assert.equal(page.submissions.length, 1);
    assert.deepEqual(page.submissions[0].values, {
      name: 'Vera <Visitor>',
      email: 'vera@example.org',
      message: 'Hello\nthere',
      consent: true,
    });
    const { rows } = await instance.instance.pool.query(
      `SELECT actor_id FROM events WHERE type = 'form.submission_received' ORDER BY position DESC LIMIT 1`,
    );
    const primary = (await instance.instance.services.read.instance.get())!.primaryAgentId;
    assert.equal(rows[0].actor_id, primary, 'written by the instance, never as the owner');
  });

  test('given the honeypot filled, then the same thank-you page and nothing kept', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    await refreshSites();
    const before = await footprint();
    const r = await submitTo(label, form.formId, { ...good, website: 'http://spam.example' });
    assert.equal(r.status, 200);
    assert.ok(r.text.includes('Thank you'));
    assert.deepEqual(await footprint(), before);
  });

  test('given bad fields, a body over the limit, another media type or an unknown form, then 400, 413, 415, 404 and nothing kept', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    const bobsForm = await createForm(bob);
    await refreshSites();
    const before = await footprint();
    const invalid = await submitTo(label, form.formId, { name: '', email: 'not mail', website: '' });
    assert.equal(invalid.status, 400);
    assert.ok(invalid.text.includes('Your name: please fill this in'), invalid.text);
    assert.ok(invalid.text.includes('Email: not an email address'), invalid.text);
    assert.ok(invalid.text.includes('I agree: please fill this in'), invalid.text);

    const big = await post(`/sites/${label}/_forms/${form.formId}`, `name=${'x'.repeat(40 * 1024)}`);
    assert.equal(big.status, 413);
    const multipart = await post(`/sites/${label}/_forms/${form.formId}`, '--b\r\n\r\n--b--', {
      'content-type': 'multipart/form-data; boundary=b',
    });
    assert.equal(multipart.status, 415);
    const unknown = await submitTo(label, randomUUID(), good);
    assert.equal(unknown.status, 404);
    assert.equal((await submitTo(label, bobsForm.formId, good)).status, 404, 'a form the site does not hold');
    assert.deepEqual(await footprint(), before);
  });

  test('given six posts from one address within a minute, then the sixth is 429 with Retry-After, whatever X-Forwarded-For says', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    await refreshSites();
    for (let i = 0; i < 5; i++)
      assert.equal((await submitTo(label, form.formId, { ...good, name: `V${i}` })).status, 200);
    const before = await footprint();
    const limited = await submitTo(label, form.formId, good, { 'x-forwarded-for': '203.0.113.9' });
    assert.equal(limited.status, 429);
    const wait = Number(limited.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.deepEqual(await footprint(), before);
  });

  test('given submissions, then the CSV export has the fields and received_at, formulas neutralized', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    await refreshSites();
    await submitTo(label, form.formId, { ...good, name: '=cmd|calc', message: 'a,b\n"c"' });
    const out = (await op(ada, 'svc.builder.export_submissions', { formId: form.formId })).result;
    const received = (await op(ada, 'svc.builder.list_submissions', { formId: form.formId })).result
      .submissions[0].receivedAt;
    assert.equal(
      out.csv,
      `name,email,message,consent,received_at\r\n'=cmd|calc,vera@example.org,"a,b\n""c""",true,${received}\r\n`,
    );
  });
});

describe('the read models', () => {
  test('given everything above, when the inline projections are rebuilt from the log, then the forms’ tables are the same', async () => {
    const pool = instance.instance.pool;
    const snapshot = async () =>
      (
        await pool.query(
          `SELECT (SELECT json_agg(f ORDER BY form_id) FROM rm_builder_forms f) AS forms,
                  (SELECT json_agg(s ORDER BY submission_id) FROM rm_builder_submissions s) AS submissions,
                  (SELECT json_agg(r ORDER BY site_id, draft_revision, form_id) FROM rm_builder_form_refs r) AS refs`,
        )
      ).rows[0];
    const before = await snapshot();
    assert.ok((before.submissions as unknown[]).length >= 7);
    assert.ok((before.refs as unknown[]).length >= 5);
    await rebuildProjections(
      pool,
      allProjections.filter((p) => p.mode === 'inline'),
    );
    assert.deepEqual(await snapshot(), before);
  });
});
