// Mail about a form submission is sent once across a crash of the notifier. The instance runs as a real
// process (`tributary start`) with SMTP_URL pointing at a real SMTP server on loopback; a visitor posts
// the form over HTTP, and a failpoint SIGKILLs the process right after the notifier committed the mail
// request with its decision, before its cursor moved and before anything was sent. Started again, the
// notifier reads the same submission again and finds it decided (nothing new is written), and the mail
// consumer sends the request: the SMTP server receives one mail (docs/builder.md#submission-mail).
import {
  browser,
  startTestInstance,
  startTestSmtpServer,
  type TestInstance,
  type TestSmtpServer,
} from '@tributary/test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ready, startProcess, type StartedProcess } from './start-helpers.js';

const password = 'correct horse battery staple';

describe('submission mail sent exactly once across a crash of the notifier', () => {
  let setup: TestInstance; // in-process, to make the owner and the site; stopped before the real process runs
  let smtp: TestSmtpServer;
  let proc: StartedProcess | undefined;
  let env: Record<string, string>;
  let formId: string;
  let label: string;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    const mailEnv = { SMTP_URL: smtp.url, MAIL_FROM: 'no-reply@inst.test', MAIL_POLL_MS: '100' };
    setup = await startTestInstance({ env: { SITES_DOMAIN: 'sites.test', ...mailEnv } });
    const ada = browser(setup.url);
    assert.equal(
      (await ada.post('/api/auth/signup', { email: 'ada@example.org', handle: 'ada', password })).status,
      201,
    );
    assert.equal((await ada.post('/api/auth/email/verification', {})).status, 202);
    await smtp.waitFor((m) => m.length === 1);
    const token = /token=([A-Za-z0-9_-]+)/.exec(smtp.messages[0]!.parsed.text ?? '')![1]!;
    assert.equal((await ada.post('/api/auth/email/verify', { token })).status, 200);
    const form = await ada.post('/api/builder/forms', {
      name: 'Contact',
      fields: [{ type: 'text', name: 'name', label: 'Your name', required: true }],
    });
    assert.equal(form.status, 201, form.text);
    formId = form.json.result.form.formId;
    const site = await ada.post('/api/builder/sites', { title: 'Shop' });
    assert.equal(site.status, 201, site.text);
    const siteId: string = site.json.result.siteId ?? site.json.result.site?.siteId;
    const draft = (await ada.get(`/api/builder/draft?siteId=${siteId}`)).json.result;
    const document = structuredClone(draft.document);
    document.pages[0].blocks.push({ type: 'form', formId });
    const saved = await ada.call('PUT', '/api/builder/draft', { siteId, revision: draft.revision, document });
    assert.equal(saved.status, 201, saved.text);
    label = 'crash-shop';
    assert.equal((await ada.post('/api/builder/address', { siteId, label })).status, 201);
    assert.equal((await ada.post('/api/ops/svc.builder.publish', { siteId })).status, 201);
    await setup.stop();
    env = {
      NODE_ENV: 'test',
      DATABASE_URL: setup.databaseUrl,
      TRIBUTARY_DATA_DIR: setup.dataDir,
      PORT: new URL(setup.url).port,
      BASE_URL: setup.url,
      LOG_LEVEL: 'warn',
      FEDERATION_SYNC: 'off',
      SITES_DOMAIN: 'sites.test',
      ...mailEnv,
    };
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await setup?.destroy();
    await smtp?.close();
  });

  const log = async () => {
    const client = new pg.Client({ connectionString: setup.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ type: string }>(
        `SELECT type FROM events WHERE stream = $1
            OR (type = 'mail.requested' AND envelope::jsonb #>> '{data,template}' = 'form_submission')
            OR (type LIKE 'mail.s%' AND stream IN (SELECT stream FROM events WHERE type = 'mail.requested'
                  AND envelope::jsonb #>> '{data,template}' = 'form_submission'))
          ORDER BY position`,
        [`mailnotice-${formId}`],
      );
      return rows.map((r) => r.type);
    } finally {
      await client.end();
    }
  };
  const aboutTheForm = () => smtp.messages.filter((m) => (m.parsed.text ?? '').includes(formId));

  test('given a process killed after the mail was asked for and before the cursor moved, when it starts again, then the mail is received once', async () => {
    proc = startProcess({ ...env, TRIBUTARY_FAILPOINTS: 'mail.notice.after-queue' });
    await ready(Number(env.PORT), proc);
    const posted = await fetch(`${setup.url}/sites/${label}/_forms/${formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Vera', website: '' }).toString(),
      // The answer is a 303 to the thank-you page; the process may be gone before it could be fetched.
      redirect: 'manual',
    }).catch((e: Error) => e);
    assert.ok(!(posted instanceof Error) && posted.status === 303, String(posted));
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
    // One commit: the request and its decision.
    assert.deepEqual(await log(), ['mail.requested', 'mail.submission_notice_queued']);
    assert.equal(aboutTheForm().length, 0, 'nothing was sent before the crash');

    proc = startProcess(env);
    await ready(Number(env.PORT), proc);
    await smtp.waitFor(() => aboutTheForm().length === 1, 60_000);
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0, proc.output());
    proc = undefined;
    assert.deepEqual(await log(), [
      'mail.requested',
      'mail.submission_notice_queued',
      'mail.sending',
      'mail.sent',
    ]);
    assert.equal(aboutTheForm().length, 1, 'received once');
  });
});
