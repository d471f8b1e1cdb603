// Email verification and password reset for local accounts, through HTTP and a real SMTP server on
// loopback: the link is read from the message the server received, its token redeemed once; a reset
// replaces the password and ends the account's sessions; asking for a reset answers the same whether or
// not the address has an account.
import {
  browser,
  startTestInstance,
  startTestSmtpServer,
  type TestInstance,
  type TestSmtpServer,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';

describe('email verification and password reset', () => {
  let smtp: TestSmtpServer;
  let t: TestInstance;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await startTestInstance({
      env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100', MAIL_FROM: 'no-reply@inst.test' },
    });
  });
  afterAll(async () => {
    await t?.destroy();
    await smtp?.close();
  });

  const linkTo = async (address: string, n: number) => {
    await smtp.waitFor((m) => m.filter((x) => x.to.includes(address)).length >= n);
    const mail = smtp.messages.filter((x) => x.to.includes(address))[n - 1]!;
    const link = /https?:\/\/\S+token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '');
    assert.ok(link, mail.parsed.text);
    assert.ok(link[0].startsWith(t.url), 'the link points at this instance');
    return { token: link[1]!, mail };
  };
  const countEvents = async (type: string) =>
    Number(
      (await t.instance.pool.query('SELECT count(*) AS n FROM events WHERE type = $1', [type])).rows[0].n,
    );

  /** The token is in no event and no table: only its digest is kept, the link is made just before SMTP. */
  const assertStoredNowhere = async (token: string) => {
    const events = await t.instance.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE envelope::text LIKE '%' || $1 || '%'`,
      [token],
    );
    assert.deepEqual(events.rows, [], 'no event holds the token');
    const tables = await t.instance.pool.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    assert.ok(
      tables.rows.some((r) => r.name.endsWith('.events')),
      'the events table was searched',
    );
    for (const { name } of tables.rows) {
      const hit = await t.instance.pool.query(
        `SELECT 1 FROM ${name} AS r WHERE r::text LIKE '%' || $1 || '%' LIMIT 1`,
        [token],
      );
      assert.equal(hit.rowCount, 0, `${name} holds the token`);
    }
  };

  test('given a signed-in person, when they ask for a verification email, then the link in the received mail verifies the address, once', async () => {
    const ada = browser(t.url);
    assert.equal(
      (await ada.post('/api/auth/signup', { email: 'ada@example.org', handle: 'ada', password })).status,
      201,
    );
    const r = await ada.post('/api/auth/email/verification', {});
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.json.result, { sentTo: 'ada@example.org', alreadyVerified: false });
    const { token, mail } = await linkTo('ada@example.org', 1);
    assert.equal(mail.parsed.subject?.startsWith('Confirm your email address'), true);
    await assertStoredNowhere(token);

    const v = await browser(t.url).post('/api/auth/email/verify', { token });
    assert.equal(v.status, 200, v.text);
    const row = await t.instance.pool.query(
      `SELECT email_verified_at FROM rm_accounts WHERE email = 'ada@example.org'`,
    );
    assert.ok(row.rows[0].email_verified_at);
    const again = await browser(t.url).post('/api/auth/email/verify', { token });
    assert.equal(again.status, 400);
    assert.equal(again.json.code, 'mail.token_invalid');
    const already = await ada.post('/api/auth/email/verification', {});
    assert.equal(already.json.result.alreadyVerified, true);
    // Without a session: refused.
    const anon = await browser(t.url).post('/api/auth/email/verification', {});
    assert.equal(anon.status, 401, anon.text);
  });

  test('given a reset link from the received mail, then the new password works, the old one does not, the sessions ended and the link works once', async () => {
    const bob = browser(t.url);
    assert.equal(
      (await bob.post('/api/auth/signup', { email: 'bob@example.org', handle: 'bob', password })).status,
      201,
    );
    const other = browser(t.url);
    assert.equal((await other.post('/api/auth/signin', { identifier: 'bob', password })).status, 200);
    assert.equal((await bob.get('/api/auth/me')).status, 200);

    const asked = await browser(t.url).post('/api/auth/password-reset', { email: 'Bob@Example.org' });
    assert.equal(asked.status, 202, asked.text);
    const { token, mail } = await linkTo('bob@example.org', 1);
    assert.equal(mail.parsed.subject?.startsWith('Reset your password'), true);
    await assertStoredNowhere(token);

    const weak = await browser(t.url).post('/api/auth/password-reset/confirm', { token, password: 'short' });
    assert.equal(weak.status, 400);
    const done = await browser(t.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'a whole new password',
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.result.sessionsEnded, 2);
    assert.equal((await bob.get('/api/auth/me')).status, 401, 'the sessions ended');
    assert.equal((await other.get('/api/auth/me')).status, 401);
    assert.equal(
      (await browser(t.url).post('/api/auth/signin', { identifier: 'bob', password })).status,
      401,
    );
    assert.equal(
      (await browser(t.url).post('/api/auth/signin', { identifier: 'bob', password: 'a whole new password' }))
        .status,
      200,
    );
    const replay = await browser(t.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'yet another password',
    });
    assert.equal(replay.status, 400);
    assert.equal(replay.json.code, 'mail.token_invalid');
    const forged = await browser(t.url).post('/api/auth/password-reset/confirm', {
      token: 'A'.repeat(43),
      password: 'yet another password',
    });
    assert.equal(forged.json.code, 'mail.token_invalid');
  });

  test('given an address with no account, then the same answer and nothing written or sent', async () => {
    const before = {
      requested: await countEvents('mail.requested'),
      tokens: await countEvents('mail.token_issued'),
    };
    const received = smtp.messages.length;
    const r = await browser(t.url).post('/api/auth/password-reset', { email: 'nobody@example.org' });
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.json, { result: { accepted: true } });
    const known = await browser(t.url).post('/api/auth/password-reset', { email: 'ada@example.org' });
    assert.deepEqual(known.json, r.json, 'the same answer');
    await linkTo('ada@example.org', 2);
    assert.equal(await countEvents('mail.requested'), before.requested + 1);
    assert.equal(await countEvents('mail.token_issued'), before.tokens + 1);
    assert.equal(smtp.messages.filter((m) => m.to.includes('nobody@example.org')).length, 0);
    assert.ok(smtp.messages.length >= received + 1);
    const bad = await browser(t.url).post('/api/auth/password-reset', { email: 'not an address' });
    assert.equal(bad.status, 400);
  });
});
