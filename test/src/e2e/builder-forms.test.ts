// Forms end to end on a real instance (PostgreSQL): the owner's REST routes and the official MCP SDK
// client (someone else's form is 404, bad definitions 400, refusals write nothing), a visitor's
// submissions over HTTP to a site published with the real publish operation and served at its claimed
// address, by /sites/<label>/ and by Host (thank-you page, honeypot, invalid fields, body limit, media
// type, rate limit with Retry-After), the CSV download, and a rebuild of the forms' read models that
// equals what was folded as events were written.
import { rebuildProjections } from '@tributary/infra';
import { allProjections } from '@tributary/projections';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
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
let labelCount = 0;

/** The log's size and the forms' tables: what a refusal must leave alone. */
async function footprint() {
  const { rows } = await instance.instance.pool.query(
    `SELECT (SELECT count(*) FROM events)::int AS events,
            (SELECT count(*) FROM rm_builder_forms)::int AS forms,
            (SELECT count(*) FROM rm_builder_submissions)::int AS submissions`,
  );
  return rows[0] as { events: number; forms: number; submissions: number };
}

/** A call of `who`'s browser session that must answer `status`; its JSON. */
async function call(who: Person, method: string, path: string, body?: unknown, status = 200) {
  const r = await who.browser.call(method, path, body);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.json;
}

async function createForm(who: Person, extra: Loose = {}): Promise<Loose> {
  return (await call(who, 'POST', '/api/builder/forms', { name: 'Contact', fields: FIELDS, ...extra }, 201))
    .result.form;
}

/**
 * A site of `who` holding the form on its home page: the draft saved, given an address, published by
 * the publish operation, then known to the instance's site server.
 */
async function publishedSiteWith(who: Person, formId: string): Promise<{ siteId: string; label: string }> {
  const site = (await call(who, 'POST', '/api/builder/sites', { title: 'Shop' }, 201)).result;
  const siteId: string = site.siteId ?? site.site?.siteId;
  const draft = (await call(who, 'GET', `/api/builder/draft?siteId=${siteId}`)).result;
  const document = structuredClone(draft.document);
  document.pages[0].blocks.push({ type: 'form', formId });
  await call(who, 'PUT', '/api/builder/draft', { siteId, revision: draft.revision, document }, 201);
  // Claimed first: a publish without an address would claim one from the title (shop, shop-2, …).
  const label = `shop-${++labelCount}-${randomUUID().slice(0, 8)}`;
  await call(who, 'POST', '/api/builder/address', { siteId, label }, 201);
  await call(who, 'POST', '/api/ops/svc.builder.publish', { siteId }, 201);
  await instance.sites.refresh(siteId);
  return { siteId, label };
}

type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** A raw HTTP request (fetch can neither set Host nor send a body that lies about its length). */
function post(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return raw('POST', path, body, {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
}

/** A raw GET (or HEAD), e.g. of where a submission was redirected, by the site's own Host when given. */
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  raw(method, path, '', headers);

function raw(
  method: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const url = new URL(path, instance.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
    });
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
});

afterAll(async () => {
  await instance?.destroy();
});

describe('the owner’s operations over REST', () => {
  test('given a form, then GET lists it, PATCH changes only the parts given, DELETE removes it', async () => {
    const form = await createForm(ada);
    assert.equal(form.submissionCount, 0);
    const listed = (await call(ada, 'GET', '/api/builder/forms')).result.forms;
    assert.ok(listed.some((f: Loose) => f.formId === form.formId));
    const patched = (
      await call(ada, 'PATCH', '/api/builder/forms', { formId: form.formId, successMessage: 'Got it.' })
    ).result.form;
    assert.equal(patched.successMessage, 'Got it.');
    assert.equal(patched.name, 'Contact');
    assert.equal(patched.fields.length, FIELDS.length);
    await call(ada, 'DELETE', `/api/builder/forms?formId=${form.formId}`);
    const after = (await call(ada, 'GET', '/api/builder/forms')).result.forms;
    assert.ok(!after.some((f: Loose) => f.formId === form.formId));
    const again = await ada.browser.call('DELETE', '/api/builder/forms', { formId: form.formId });
    assert.equal(again.status, 404);
    assert.equal(again.json.code, 'builder.form_not_found');
  });

  test('given bad definitions, then 400 input.invalid and nothing is written', async () => {
    const form = await createForm(ada);
    const before = await footprint();
    for (const fields of [
      [{ type: 'text', name: 'Name!', label: 'x' }],
      [{ type: 'select', name: 's', label: 'S', options: [] }],
      [{ type: 'text', name: 'website', label: 'taken by the honeypot' }],
      [{ type: 'iframe', name: 'x', label: 'X' }],
    ]) {
      for (const [method, body] of [
        ['POST', { name: 'F', fields }],
        ['PATCH', { formId: form.formId, fields }],
      ] as const) {
        const r = await ada.browser.call(method, '/api/builder/forms', body);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.code, 'input.invalid');
      }
    }
    const cross = await ada.browser.call(
      'POST',
      '/api/builder/forms',
      { name: 'F', fields: FIELDS },
      {
        origin: 'https://evil.example',
      },
    );
    assert.equal(cross.status, 403);
    assert.deepEqual(await footprint(), before);
  });

  test("given someone else's form, then every route on it is 404 builder.form_not_found, writing nothing", async () => {
    const form = await createForm(ada);
    const before = await footprint();
    for (const [method, path, body] of [
      ['PATCH', '/api/builder/forms', { formId: form.formId, name: 'Mine now' }],
      ['DELETE', '/api/builder/forms', { formId: form.formId }],
      ['GET', `/api/builder/forms/submissions?formId=${form.formId}`, undefined],
      ['GET', `/api/builder/forms/submissions.csv?formId=${form.formId}`, undefined],
    ] as const) {
      const r = await bob.browser.call(method, path, body);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.equal(r.json.code, 'builder.form_not_found');
    }
    const r = await bob.browser.get(`/api/builder/forms?targetAgentId=${ada.agentId}`);
    assert.equal(r.status, 404);
    assert.equal(r.json.code, 'agent.not_found');
    const anonymous = await fetch(`${instance.url}/api/builder/forms`);
    assert.equal(anonymous.status, 401);
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
  test('given a published form, when a visitor posts it, then 303 to a thank-you page with the site’s headers, which a reload does not send again, and the owner reads the submission', async () => {
    const form = await createForm(ada, { successMessage: 'Thanks — we <3 mail.' });
    const { label } = await publishedSiteWith(ada, form.formId);
    const posted = await submitTo(label, form.formId, { ...good, message: 'Hello\r\nthere' });
    // POST/redirect/GET: the thank-you page has its own address, holding nothing the visitor typed.
    assert.equal(posted.status, 303, posted.text);
    assert.equal(posted.headers.location, `/sites/${label}/_forms/${form.formId}/sent`);
    assert.equal(posted.headers['cache-control'], 'no-store');
    assert.match(String(posted.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(posted.headers['set-cookie'], undefined);
    assert.equal(posted.text, '');

    const r = await get(String(posted.headers.location));
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^text\/html; charset=utf-8/);
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
    assert.doesNotMatch(String(r.headers['content-security-policy']), /script-src/);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.equal(r.headers['set-cookie'], undefined);
    assert.ok(r.text.includes('Thanks — we &lt;3 mail.'), r.text);
    assert.ok(!r.text.includes('<script'), 'no script');
    // The site's own frame: its stylesheet, header and title, linked from two folders down (_forms/<id>/).
    assert.match(r.text, /href="\.\.\/\.\.\/_assets\/site\.[0-9a-f]+\.css"/, 'the site’s stylesheet');
    assert.match(
      r.text,
      /<header class="site-header">[\s\S]*<a class="site-title" href="\.\.\/\.\.\/">Shop<\/a>/,
    );
    assert.match(r.text, /<title>Thank you – Shop<\/title>/);
    assert.match(r.text, /<meta name="robots" content="noindex">/);
    assert.ok(r.text.includes('<a href="../../">Back to the site</a>'), 'a way back');
    assert.equal((r.text.match(/<main /g) ?? []).length, 1, 'one main');
    // Reloading it (or coming back to it) is a GET: it shows the same page and keeps nothing more.
    const kept = await footprint();
    const reload = await get(String(posted.headers.location));
    assert.equal(reload.status, 200);
    assert.equal(reload.text, r.text);
    const head = await get(String(posted.headers.location), {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal((await post(String(posted.headers.location), '')).status, 405, 'it takes no posts');
    assert.equal(
      (await get(`/sites/${label}/_forms/${form.formId}`)).status,
      405,
      'the form takes posts only',
    );
    assert.equal((await get(`/sites/${label}/_forms/${randomUUID()}/sent`)).status, 404, 'no such form');
    assert.deepEqual(await footprint(), kept, 'a reload sends nothing again');

    // The same form by the site's own host name: the same relative links resolve there.
    const host = { host: `${label}.sites.test` };
    const byHost = await post(`/_forms/${form.formId}`, new URLSearchParams(good).toString(), host);
    assert.equal(byHost.status, 303, byHost.text);
    assert.equal(byHost.headers.location, `/_forms/${form.formId}/sent`);
    const thanksByHost = await get(String(byHost.headers.location), host);
    assert.equal(thanksByHost.status, 200, thanksByHost.text);
    assert.ok(
      thanksByHost.text.includes('<a href="../../">Back to the site</a>'),
      'a way back on the site’s own host',
    );

    const page = (await call(ada, 'GET', `/api/builder/forms/submissions?formId=${form.formId}`)).result;
    assert.equal(page.submissions.length, 2);
    page.submissions.reverse();
    assert.deepEqual(page.submissions[0].values, {
      name: 'Vera <Visitor>',
      email: 'vera@example.org',
      message: 'Hello\nthere',
      consent: true,
    });
    const { rows } = await instance.instance.pool.query(
      `SELECT actor_id FROM events WHERE type = 'form.submission_received' ORDER BY position DESC LIMIT 1`,
    );
    const primary = (await instance.instance.services.instance.read.get())!.primaryAgentId;
    assert.equal(rows[0].actor_id, primary, 'written by the instance, never as the owner');
  });

  test('given the honeypot filled, then the same thank-you page and nothing kept', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    const before = await footprint();
    const r = await submitTo(label, form.formId, { ...good, website: 'http://spam.example' });
    assert.equal(r.status, 303);
    const thanks = await get(String(r.headers.location));
    assert.equal(thanks.status, 200);
    assert.ok(thanks.text.includes('Thank you'));
    assert.deepEqual(await footprint(), before);
  });

  test('given bad fields, a body over the limit, another media type or an unknown form, then 400, 413, 415, 404 and nothing kept', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    const bobsForm = await createForm(bob);
    const before = await footprint();
    const invalid = await submitTo(label, form.formId, {
      name: '',
      email: 'not mail',
      message: 'Keep <this> text',
      website: '',
    });
    assert.equal(invalid.status, 400);
    assert.ok(invalid.text.includes('Your name: please fill this in'), invalid.text);
    assert.ok(invalid.text.includes('Email: not an email address'), invalid.text);
    assert.ok(invalid.text.includes('I agree: please fill this in'), invalid.text);
    // The form again, in the site's frame, with what the visitor typed and each problem beside its field.
    assert.match(invalid.text, /<header class="site-header">/);
    assert.match(invalid.text, new RegExp(`<form class="site-form" method="post" action="${form.formId}"`));
    assert.match(
      invalid.text,
      /name="email" value="not mail"[^>]*aria-describedby="again-f\d-error" aria-invalid="true"/,
    );
    assert.match(invalid.text, />Keep &lt;this&gt; text<\/textarea>/);
    assert.match(
      invalid.text,
      /<input type="text" id="again-website" name="website" tabindex="-1" autocomplete="off">/,
    );

    const big = await post(`/sites/${label}/_forms/${form.formId}`, `name=${'x'.repeat(40 * 1024)}`);
    assert.equal(big.status, 413);
    // No Content-Length to go by: counted as it arrives, in chunks.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(new URL(`/sites/${label}/_forms/${form.formId}`, instance.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < 40; i++) req.write(i === 0 ? `name=${'y'.repeat(1023)}` : 'y'.repeat(1024));
      req.end();
    });
    assert.equal(chunked, 413);
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
    for (let i = 0; i < 5; i++)
      assert.equal((await submitTo(label, form.formId, { ...good, name: `V${i}` })).status, 303);
    const before = await footprint();
    const limited = await submitTo(label, form.formId, good, { 'x-forwarded-for': '203.0.113.9' });
    assert.equal(limited.status, 429);
    const wait = Number(limited.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.deepEqual(await footprint(), before);
  });

  test('given submissions, then the CSV download has the fields and received_at, formulas neutralized, paged by Link', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    await submitTo(label, form.formId, { ...good, name: '=cmd|calc', message: 'a,b\n"c"' });
    const received = (await call(ada, 'GET', `/api/builder/forms/submissions?formId=${form.formId}`)).result
      .submissions[0].receivedAt;
    const csv = await ada.browser.get(`/api/builder/forms/submissions.csv?formId=${form.formId}`);
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(
      csv.headers.get('content-disposition') ?? '',
      /^attachment; filename="contact-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.equal(csv.headers.get('link'), null);
    assert.equal(
      csv.text,
      `name,email,message,consent,received_at\r\n'=cmd|calc,vera@example.org,"a,b\n""c""",true,${received}\r\n`,
    );
    // Paged: one row a file, the rest linked.
    await submitTo(label, form.formId, { ...good, name: 'Second' });
    const first = await ada.browser.get(`/api/builder/forms/submissions.csv?formId=${form.formId}&limit=1`);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    assert.ok(next, 'a Link to the rest');
    assert.ok(first.text.includes('Second'));
    const rest = await ada.browser.get(next);
    assert.equal(rest.status, 200);
    assert.ok(rest.text.includes("'=cmd|calc"));
    assert.equal(rest.headers.get('link'), null);
  });
});

describe('unread submissions (docs/builder.md#unread)', () => {
  test('given two submissions, when the owner marks them seen up to the older, then one stays unread; another person is refused and nothing is written; seeing them all again writes nothing', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    for (const name of ['First', 'Second']) {
      const sent = await submitTo(
        label,
        form.formId,
        { ...good, name },
        { 'x-forwarded-for': '203.0.113.77' },
      );
      assert.equal(sent.status, 303, sent.text);
    }
    const unreadOf = async () =>
      (await call(ada, 'GET', '/api/builder/forms')).result.forms.find((f: Loose) => f.formId === form.formId)
        .unreadCount as number;
    assert.equal(await unreadOf(), 2, 'nothing seen yet: both are unread');
    // The home page counts every form of the person's (earlier tests left unread ones too).
    const total = async () =>
      ((await call(ada, 'GET', '/api/builder/forms')).result.forms as Loose[]).reduce(
        (n, f) => n + (f.unreadCount as number),
        0,
      );
    const home = await ada.browser.get('/home');
    assert.match(
      home.text,
      new RegExp(`data-field="unread-submissions"[^>]*>\\s*${await total()} new messages?`),
    );

    const subs = (await call(ada, 'GET', `/api/builder/forms/submissions?formId=${form.formId}`)).result
      .submissions as Loose[];
    const before = await footprint();
    const refused = await bob.browser.post('/api/builder/forms/submissions/seen', { formId: form.formId });
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.json.code, 'builder.form_not_found');
    const bad = await ada.browser.post('/api/builder/forms/submissions/seen', {
      formId: form.formId,
      through: 'yesterday',
    });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.code, 'input.invalid');
    assert.deepEqual(await footprint(), before);

    const older = subs[1]!.receivedAt;
    const marked = (
      await call(ada, 'POST', '/api/builder/forms/submissions/seen', { formId: form.formId, through: older })
    ).result;
    assert.equal(marked.unreadCount, 1);
    assert.equal(await unreadOf(), 1);
    const all = (await call(ada, 'POST', '/api/builder/forms/submissions/seen', { formId: form.formId }))
      .result;
    assert.equal(all.unreadCount, 0);
    assert.equal(all.seenThrough, subs[0]!.receivedAt);
    const seen = await footprint();
    await call(ada, 'POST', '/api/builder/forms/submissions/seen', { formId: form.formId, through: older });
    assert.deepEqual(await footprint(), seen, 'an older marker writes nothing');
    assert.match(
      (await ada.browser.get('/home')).text,
      new RegExp(`data-field="unread-submissions"[^>]*>\\s*${await total()} new messages?`),
      'the home page counts one form fewer',
    );

    const third = await submitTo(
      label,
      form.formId,
      { ...good, name: 'Third' },
      { 'x-forwarded-for': '203.0.113.78' },
    );
    assert.equal(third.status, 303, third.text);
    assert.equal(await unreadOf(), 1, 'what arrives after the marker is unread');
    const sitesPage = await ada.browser.get('/builder');
    assert.match(sitesPage.text, /data-field="unread-submissions"/);
    // Opening the form's page is looking at them: the count clears.
    const page = await ada.browser.get(`/builder/forms/${form.formId}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Third/);
    assert.equal(await unreadOf(), 0);
  });
});

describe('the read models', () => {
  test('given no mail server, then a submission queues no mail, and the home page and the setting say why', async () => {
    const form = await createForm(ada);
    const { label } = await publishedSiteWith(ada, form.formId);
    const r = await submitTo(label, form.formId, { ...good, name: 'No mail' });
    assert.equal(r.status, 303, r.text);
    await instance.instance.sequencer.drain();
    await instance.instance.mail!.drain();
    const { rows } = await instance.instance.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type LIKE 'mail.submission_notice_%'
          OR (type = 'mail.requested' AND envelope::jsonb #>> '{data,template}' = 'form_submission')`,
    );
    assert.equal(rows[0].n, 0);
    assert.equal((await call(ada, 'GET', '/api/builder/forms/mail')).result.delivery, 'no_mail_server');
    const home = await ada.browser.get('/home');
    assert.match(home.text, /this instance has no mail server set up/);
  });

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
