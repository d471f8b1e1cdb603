// Mail to the owner about new form submissions (docs/builder.md#submission-mail), through real
// protocols: a visitor's HTTP form post to a site published with the real publish operation, and a real
// SMTP server on loopback receiving the mail. Covered: what the mail says and how (plain text data,
// escaped HTML, no visitor link made clickable, From fixed, Reply-To the validated email field), the
// quiet time batching a burst into one mail with a count, the per-form and per-site opt-out, another
// account refused on someone else's setting (nothing written), an unverified owner getting nothing, and
// exactly once across a restart whose notifier re-reads submissions it had already decided.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  browser,
  startTestInstance,
  startTestSmtpServer,
  type ReceivedMail,
  type TestInstance,
  type TestSmtpServer,
} from '../harness/index.js';
import { errorCodeOf, issueToken, mcpClient, structured } from './mcp-helpers.js';

const password = 'correct horse battery staple';
const FIELDS = [
  { type: 'text', name: 'name', label: 'Your name', required: true },
  { type: 'email', name: 'email', label: 'Email', required: true },
  { type: 'textarea', name: 'message', label: 'Message' },
  { type: 'checkbox', name: 'consent', label: 'I agree' },
];

type Browser = ReturnType<typeof browser>;
interface Owner {
  b: Browser;
  email: string;
  agentId: string;
}

/**
 * The instance's clock: the real time plus what the test moved it on by, so the quiet time can end
 * without the test waiting for it.
 */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
/** Moves the instance's clock past the quiet time (ten minutes and a second). */
const afterQuietTime = () => {
  offsetMs += 601_000;
};

let smtp: TestSmtpServer;
let t: TestInstance;
let ada: Owner;
let bob: Owner;
let labels = 0;

async function call(b: Browser, method: string, path: string, body?: unknown, status = 200) {
  const r = await b.call(method, path, body);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.json;
}

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);

/** An account with an email address, verified through the link the SMTP server received. */
async function owner(handle: string, verify = true): Promise<Owner> {
  const b = browser(t.url);
  const email = `${handle}-${randomUUID().slice(0, 6)}@example.org`;
  const r = await b.post('/api/auth/signup', { email, handle, password });
  assert.equal(r.status, 201, r.text);
  if (verify) {
    assert.equal((await b.post('/api/auth/email/verification', {})).status, 202);
    await smtp.waitFor((m) => m.some(to(email)));
    const text = smtp.messages.find(to(email))!.parsed.text ?? '';
    const token = /token=([A-Za-z0-9_-]+)/.exec(text)![1]!;
    assert.equal((await b.post('/api/auth/email/verify', { token })).status, 200);
  }
  return { b, email, agentId: r.json.agentId };
}

async function publishedForm(o: Owner, name = 'Contact') {
  const form = (await call(o.b, 'POST', '/api/builder/forms', { name, fields: FIELDS }, 201)).result.form;
  const site = (await call(o.b, 'POST', '/api/builder/sites', { title: 'Ada’s Bakery' }, 201)).result;
  const siteId: string = site.siteId ?? site.site?.siteId;
  const draft = (await call(o.b, 'GET', `/api/builder/draft?siteId=${siteId}`)).result;
  const document = structuredClone(draft.document);
  document.pages[0].blocks.push({ type: 'form', formId: form.formId });
  await call(o.b, 'PUT', '/api/builder/draft', { siteId, revision: draft.revision, document }, 201);
  const label = `mail-${++labels}-${randomUUID().slice(0, 8)}`;
  await call(o.b, 'POST', '/api/builder/address', { siteId, label }, 201);
  await call(o.b, 'POST', '/api/ops/svc.builder.publish', { siteId }, 201);
  await t.sites.refresh(siteId);
  return { formId: form.formId as string, siteId, label };
}

/** A visitor's browser posting the form on the published site (urlencoded, as a page sends it). */
async function visit(label: string, formId: string, values: Record<string, string>) {
  const r = await fetch(`${t.url}/sites/${label}/_forms/${formId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ website: '', ...values }).toString(),
    redirect: 'manual',
  });
  assert.ok(r.status < 400, `the submission was refused: ${r.status} ${await r.text()}`);
}

/** Every pass of the notifier and the sender over what is on the log now. */
async function settle() {
  await t.instance.sequencer.drain();
  await t.instance.mail!.drain();
}

const requestsFor = async (formId: string) =>
  (
    await t.instance.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'mail.requested'
         AND envelope::jsonb #>> '{data,template}' = 'form_submission'
         AND envelope::jsonb #>> '{data,variables,link}' LIKE '%' || $1`,
      [formId],
    )
  ).rows[0]!.n;

const mailsAbout = (formId: string) =>
  smtp.messages.filter((m) => (m.parsed.text ?? '').includes(`/builder/forms/${formId}`));

const vera = {
  name: 'Vera <b>Visitor</b>',
  email: 'vera@example.org',
  message: 'Hello!\n----------------------------------------\nSee all: https://evil.example/login',
  consent: 'on',
};

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await startTestInstance({
    env: {
      SITES_DOMAIN: 'sites.test',
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '100',
      MAIL_FROM: 'Tributary <no-reply@inst.test>',
      SUBMISSION_MAIL_QUIET_SECONDS: '600',
      MAIL_RATE_PER_RECIPIENT_PER_HOUR: '100',
    },
    clock,
  });
  ada = await owner('ada');
  bob = await owner('bob');
});

afterAll(async () => {
  await t?.destroy();
  await smtp?.close();
});

describe('mail about a new submission', () => {
  test('given a published form, when a visitor sends it over HTTP, then the owner gets one mail: plain data, escaped, with the link and the visitor as Reply-To', async () => {
    const { formId } = await publishedForm(ada).then(async (f) => {
      await visit(f.label, f.formId, vera);
      return f;
    });
    await smtp.waitFor(() => mailsAbout(formId).length === 1);
    const m = mailsAbout(formId)[0]!;
    assert.deepEqual(m.to, [ada.email]);
    assert.equal(m.parsed.from?.value[0]?.address, 'no-reply@inst.test', 'the From is never the visitor');
    assert.equal(m.parsed.replyTo?.value[0]?.address, 'vera@example.org');
    assert.equal(m.parsed.subject, 'New form submission: Contact on Ada’s Bakery');
    const text = m.parsed.text ?? '';
    assert.match(text, /Your name: Vera <b>Visitor<\/b>/);
    // The visitor's lines are indented: none of them passes for a rule or a line of the mail's own.
    assert.match(text, /\n {4}-{40}\n {4}See all: https:\/\/evil\.example\/login/);
    assert.match(text, /I agree: yes/);
    assert.ok(text.includes(`${t.url}/builder/forms/${formId}`));
    const html = String(m.parsed.html);
    assert.ok(html.includes('Vera &lt;b&gt;Visitor&lt;/b&gt;'), 'the visitor’s markup is escaped');
    assert.ok(!html.includes('<b>'), 'no markup of the visitor’s runs');
    assert.ok(!html.includes('href="https://evil.example'), 'a link the visitor typed is not made clickable');
    assert.ok(html.includes(`href="${t.url}/builder/forms/${formId}"`), 'the submissions page is a link');
    assert.equal(await requestsFor(formId), 1);
  });

  test('given a burst of submissions, then the first is mailed at once and the rest come in one mail with their count after the quiet time', async () => {
    const f = await publishedForm(ada, 'Orders');
    await visit(f.label, f.formId, { ...vera, name: 'First' });
    await smtp.waitFor(() => mailsAbout(f.formId).length === 1);
    for (const name of ['Second', 'Third', 'Fourth']) await visit(f.label, f.formId, { ...vera, name });
    // Within the quiet time they wait: no mail yet.
    await settle();
    assert.equal(mailsAbout(f.formId).length, 1);
    afterQuietTime();
    await smtp.waitFor(() => mailsAbout(f.formId).length === 2);
    const digest = mailsAbout(f.formId)[1]!;
    assert.equal(digest.parsed.subject, '3 new form submissions: Orders on Ada’s Bakery');
    assert.match(digest.parsed.text ?? '', /Your name: Fourth/);
    assert.equal(digest.parsed.replyTo, undefined, 'a mail about several visitors answers none of them');
    await settle();
    assert.equal(mailsAbout(f.formId).length, 2);
    const notes = await t.instance.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE stream = $1 ORDER BY stream_version`,
      [`mailnotice-${f.formId}`],
    );
    assert.deepEqual(
      notes.rows.map((r) => r.type),
      [
        'mail.submission_notice_queued',
        'mail.submission_notice_deferred',
        'mail.submission_notice_deferred',
        'mail.submission_notice_deferred',
        'mail.submission_notice_queued',
      ],
    );
  });
});

describe('the setting', () => {
  test('given the form or the site turned off, then no mail is asked for; on again, mail comes again', async () => {
    const off = await publishedForm(ada, 'Quiet form');
    const witness = await publishedForm(ada, 'Witness');
    const read = (await call(ada.b, 'GET', '/api/builder/forms/mail')).result;
    assert.equal(read.delivery, 'on');
    assert.equal(read.email, ada.email);
    assert.equal(read.forms.find((x: { formId: string }) => x.formId === off.formId).enabled, true);

    const set = await call(ada.b, 'PUT', '/api/builder/forms/mail', { formId: off.formId, enabled: false });
    assert.equal(set.result.forms.find((x: { formId: string }) => x.formId === off.formId).enabled, false);
    await visit(off.label, off.formId, vera);
    // The notifier reads the log in order: once the later submission's mail came, the earlier one was decided.
    await visit(witness.label, witness.formId, vera);
    await smtp.waitFor(() => mailsAbout(witness.formId).length === 1);
    await settle();
    assert.equal(await requestsFor(off.formId), 0);

    // The site off, the form on again: still none.
    await call(ada.b, 'PUT', '/api/builder/forms/mail', { formId: off.formId, enabled: true });
    await call(ada.b, 'PUT', '/api/builder/forms/mail', { siteId: off.siteId, enabled: false });
    await visit(off.label, off.formId, vera);
    await settle();
    assert.equal(await requestsFor(off.formId), 0);

    await call(ada.b, 'PUT', '/api/builder/forms/mail', { siteId: off.siteId, enabled: true });
    await visit(off.label, off.formId, vera);
    await smtp.waitFor(() => mailsAbout(off.formId).length === 1);
  });

  test("given someone else's site or form, then setting it is 404 and writes nothing; bad input is 400", async () => {
    const f = await publishedForm(ada, 'Private');
    const count = async () =>
      (await t.instance.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    await settle();
    const before = await count();
    const form = await bob.b.call('PUT', '/api/builder/forms/mail', { formId: f.formId, enabled: false });
    assert.equal(form.status, 404, form.text);
    assert.equal(form.json.code, 'builder.form_not_found');
    const site = await bob.b.call('PUT', '/api/builder/forms/mail', { siteId: f.siteId, enabled: false });
    assert.equal(site.status, 404, site.text);
    assert.equal(site.json.code, 'builder.site_not_found');
    const as = await bob.b.call('PUT', '/api/builder/forms/mail', {
      targetAgentId: ada.agentId,
      formId: f.formId,
      enabled: false,
    });
    assert.equal(as.status, 404, as.text);
    for (const body of [
      { enabled: false },
      { formId: f.formId, siteId: f.siteId, enabled: false },
      { formId: f.formId, enabled: 'no' },
    ]) {
      const r = await ada.b.call('PUT', '/api/builder/forms/mail', body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 'input.invalid');
    }
    assert.equal(await count(), before);
    const read = (await call(ada.b, 'GET', '/api/builder/forms/mail')).result;
    assert.equal(read.forms.find((x: { formId: string }) => x.formId === f.formId).enabled, true);
    assert.equal(read.sites.find((x: { siteId: string }) => x.siteId === f.siteId).enabled, true);
  });

  test('given the MCP SDK client, then the owner reads and sets the switch as tools, and another owner’s token is refused', async () => {
    const f = await publishedForm(ada, 'Over MCP');
    const scopes = ['svc.builder.read', 'svc.builder.write'];
    const as = (o: Owner) => ({ browser: o.b, accountId: '', agentId: o.agentId });
    const mine = await mcpClient(t.url, { bearer: (await issueToken(as(ada), { scopes })).token });
    const theirs = await mcpClient(t.url, { bearer: (await issueToken(as(bob), { scopes })).token });
    try {
      const read = structured(
        await mine.callTool({ name: 'svc.builder.read_submission_mail', arguments: {} }),
      );
      assert.equal(read.delivery, 'on');
      const set = structured(
        await mine.callTool({
          name: 'svc.builder.set_submission_mail',
          arguments: { siteId: f.siteId, enabled: false },
        }),
      );
      assert.equal(set.sites.find((x: { siteId: string }) => x.siteId === f.siteId).enabled, false);
      assert.equal(
        errorCodeOf(
          await theirs.callTool({
            name: 'svc.builder.set_submission_mail',
            arguments: { siteId: f.siteId, enabled: true },
          }),
        ),
        'builder.site_not_found',
      );
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  test('given an owner whose address is not verified, then nothing is asked for and the setting says why', async () => {
    const cy = await owner('cyril', false);
    const f = await publishedForm(cy, 'Unverified');
    assert.equal((await call(cy.b, 'GET', '/api/builder/forms/mail')).result.delivery, 'email_not_verified');
    const home = await cy.b.get('/home');
    assert.match(home.text, /Email: not sent<\/strong> —\s+your email address is not verified yet/);
    await visit(f.label, f.formId, vera);
    await settle();
    assert.equal(await requestsFor(f.formId), 0);
  });
});

describe('the pages', () => {
  test('given the form page, then it says where mail goes, and its switch turns the form off; the home page says nothing is wrong', async () => {
    const f = await publishedForm(ada, 'Page switch');
    const page = await ada.b.get(`/builder/forms/${f.formId}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`New submissions are emailed to`), 'the page says where mail goes');
    assert.ok(page.text.includes(ada.email));
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const r = await ada.b.call(
      'POST',
      `/builder/forms/${f.formId}/mail`,
      new URLSearchParams({ csrf, formId: f.formId, enabled: 'false' }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
    );
    assert.ok(r.status === 200 || r.status === 303, r.text);
    const read = (await call(ada.b, 'GET', '/api/builder/forms/mail')).result;
    assert.equal(read.forms.find((x: { formId: string }) => x.formId === f.formId).enabled, false);
    const home = await ada.b.get('/home');
    assert.equal(home.status, 200);
    assert.ok(!home.text.includes('data-field="submission-mail"'), 'mail works: no warning');
  });
});

describe('exactly once', () => {
  test('given a restart whose notifier reads again submissions it had decided, then none is mailed twice and the next is mailed once', async () => {
    const f = await publishedForm(ada, 'Restart');
    await visit(f.label, f.formId, vera);
    await smtp.waitFor(() => mailsAbout(f.formId).length === 1);
    await settle();
    const requests = await t.instance.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'mail.requested'`,
    );
    // As after a crash between the decisions and the cursor's move: the cursor back at the start.
    await t.instance.pool.query(`UPDATE mail_consumer_cursor SET seq = 0 WHERE name = 'form-submissions'`);
    t = await t.restart();
    await settle();
    const again = await t.instance.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'mail.requested'`,
    );
    assert.equal(again.rows[0]!.n, requests.rows[0]!.n, 'no submission decided before is asked for again');
    assert.equal(mailsAbout(f.formId).length, 1);
    // Past the quiet time, so the next one is mailed at once.
    afterQuietTime();
    await visit(f.label, f.formId, { ...vera, name: 'After the restart' });
    await smtp.waitFor(() => mailsAbout(f.formId).length === 2);
    await settle();
    assert.equal(mailsAbout(f.formId).length, 2);
    assert.equal(await requestsFor(f.formId), 2);
  });
});
