// The operator's run-time settings (docs/operations.md#run-time-settings) in a real browser, with two
// processes of one instance (one database) and a real SMTP server on loopback: the operator changes the
// settings on /operator/settings in process A, and process B applies them within the stated bound — the
// notice on its pages, sign-up refused (account.signup_closed), mail held while paused and sent, once,
// after. Bad values are refused with their codes and write nothing; a non-operator is refused.
import {
  browser as apiClient,
  eventually,
  startTestInstance,
  startTestSmtpServer,
  type TestInstance,
  type TestSmtpServer,
} from '@tributary/test';
import { SETTINGS_REFRESH_MS } from '@tributary/services';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { checkPage, PASSWORD, signUpInBrowser, webSuite, type WebSuiteOptions } from './web-kit.js';

let smtp: TestSmtpServer;
const mailEnv = () => ({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100', MAIL_FROM: 'no-reply@inst.test' });
const withMailServer: WebSuiteOptions = {
  instance: async () => {
    smtp = await startTestSmtpServer();
    return { env: mailEnv() };
  },
};

// `web.t` is the instance's first process (a); b is its second.
webSuite('the operator’s run-time settings across two processes', withMailServer, (web) => {
  let b: TestInstance;
  beforeAll(async () => {
    // A second process of the same instance: same database, same data folder (keys), its own port.
    const a = web.t;
    b = await startTestInstance({
      env: mailEnv(),
      reuse: { databaseUrl: a.databaseUrl, dataDir: a.dataDir, drop: async () => undefined },
    });
  });
  afterAll(async () => {
    // The suite stopped the first process; the database goes once the second has stopped too.
    await b?.stop();
    if (b) await web.t.destroy(); // b started, so the suite's instance had
    await smtp?.close();
  });

  const settingsEvents = async () =>
    Number(
      (
        await web.t.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type = 'instance.settings_updated'`,
        )
      ).rows[0].n,
    );
  /** The status of each mail request (this test asks for one only). */
  const mailStatus = async () =>
    (await web.t.instance.pool.query<{ status: string }>(`SELECT status FROM rm_mail_requests`)).rows.map(
      (r) => r.status,
    );
  // The bound the settings promise, with room for a loaded machine's request latency.
  const BOUND = SETTINGS_REFRESH_MS + 8_000;

  test('given an operator on process A, when they change the settings on the page, then process B applies each one within the bound', async () => {
    const w = await web.page();
    const { page } = w;
    await signUpInBrowser(page, web.t.url, 'ada');
    await page.goto(`${web.t.url}/operator/settings`);
    await page.getByText('never: the defaults').waitFor();
    await checkPage(w, 'operator-settings');

    // A member (not an operator) is refused, on the page and over REST, and nothing is written.
    const bob = apiClient(web.t.url);
    assert.equal(
      (await bob.post('/api/auth/signup', { handle: 'bob', email: 'bob@example.org', password: PASSWORD }))
        .status,
      201,
    );
    const refused = await bob.post('/api/ops/svc.instance.update_settings', { signupOpen: false });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.code, 'auth.controller_only');
    assert.equal((await bob.get('/operator/settings')).status, 403);

    // Bad values: a notice with a control character (instance.bad_setting) or too long (input.invalid).
    const ada = apiClient(web.t.url);
    assert.equal((await ada.post('/api/auth/signin', { identifier: 'ada', password: PASSWORD })).status, 200);
    const bell = await ada.post('/api/ops/svc.instance.update_settings', { notice: 'ring\u0007' });
    assert.equal(bell.status, 400, bell.text);
    assert.equal(bell.json.code, 'instance.bad_setting');
    const long = await ada.post('/api/ops/svc.instance.update_settings', { notice: 'x'.repeat(281) });
    assert.equal(long.json.code, 'input.invalid');
    const unknown = await ada.post('/api/ops/svc.instance.update_settings', { maintenance: true });
    assert.equal(unknown.json.code, 'input.invalid');
    assert.equal(await settingsEvents(), 0, 'nothing written');

    // B has read the defaults (and holds them in its copy): a page there, no notice.
    await page.goto(`${b.url}/signin`);
    assert.equal(await page.locator('.instance-notice').count(), 0);

    // On A's page: close sign-up, pause mail, set a notice.
    await page.goto(`${web.t.url}/operator/settings`);
    await page.getByLabel('Sign-up is open').uncheck();
    await page.getByLabel('Pause mail sending').check();
    await page.getByLabel('Notice on every page').fill('Planned maintenance on Sunday from 08:00 UTC.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const saved = Date.now();
    await page.locator('.instance-notice', { hasText: 'Planned maintenance' }).waitFor();
    await checkPage(w, 'operator-settings-saved');
    assert.equal(await settingsEvents(), 1, 'one event for the three changes');
    const read = await ada.post('/api/ops/svc.instance.read_settings', {});
    assert.deepEqual(
      {
        signupOpen: read.json.result.signupOpen,
        mailPaused: read.json.result.mailPaused,
        notice: read.json.result.notice,
        revision: read.json.result.revision,
      },
      {
        signupOpen: false,
        mailPaused: true,
        notice: 'Planned maintenance on Sunday from 08:00 UTC.',
        revision: 1,
      },
    );

    // Process B: the notice on its pages and sign-up refused, within the bound.
    await eventually(
      'the notice on process B',
      async () => (await (await fetch(`${b.url}/docs`)).text()).includes('Planned maintenance on Sunday'),
      BOUND,
    );
    const carol = await eventually(
      'sign-up refused on process B',
      async () => {
        const r = await apiClient(b.url).post('/api/auth/signup', { handle: 'carol', password: PASSWORD });
        return r.status === 403 ? r : false;
      },
      BOUND,
    );
    assert.equal(carol.json.code, 'account.signup_closed');
    assert.ok(Date.now() - saved < BOUND);
    assert.equal(await web.t.instance.services.accounts.read.accountByIdentifier('carol'), null);
    const visitor = await web.page();
    await visitor.page.goto(`${b.url}/signup`);
    await visitor.page.getByText('Sign-up is closed on this instance.').waitFor();
    await checkPage(visitor, 'signup-closed');
    await visitor.context.close();

    // Mail paused: a reset asked on B is on the log but not sent, pass after pass.
    const asked = await apiClient(b.url).post('/api/auth/password-reset', { email: 'bob@example.org' });
    assert.equal(asked.status, 202);
    await eventually('the request on the log', async () => (await mailStatus()).length === 1);
    await new Promise((r) => setTimeout(r, 2_000)); // twenty passes of MAIL_POLL_MS on each process
    assert.deepEqual(await mailStatus(), ['pending']);
    assert.equal(smtp.messages.filter((m) => m.to.includes('bob@example.org')).length, 0);

    // Resume on the page (and open sign-up, clear the notice): the waiting mail goes once.
    await page.goto(`${web.t.url}/operator/settings`);
    await page.getByLabel('Sign-up is open').check();
    await page.getByLabel('Pause mail sending').uncheck();
    await page.getByLabel('Notice on every page').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    assert.equal(await page.locator('.instance-notice').count(), 0);
    await smtp.waitFor((m) => m.some((x) => x.to.includes('bob@example.org')), BOUND);
    await eventually('the request sent', async () => (await mailStatus())[0] === 'sent');
    const carolAgain = await eventually(
      'sign-up open again on process B',
      async () => {
        const r = await apiClient(b.url).post('/api/auth/signup', { handle: 'carol', password: PASSWORD });
        return r.status === 201 ? r : false;
      },
      BOUND,
    );
    assert.ok(carolAgain);
    assert.equal(await settingsEvents(), 2);
    assert.equal(smtp.messages.filter((m) => m.to.includes('bob@example.org')).length, 1, 'sent once');

    // Saving the same values again writes nothing.
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    assert.equal(await settingsEvents(), 2);
    await w.context.close();
  });
});
