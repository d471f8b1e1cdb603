// Mail is sent once across a crash of the sending process. The instance runs as a real process
// (`tributary start`) with SMTP_URL pointing at a real SMTP server on loopback and a failpoint that
// SIGKILLs it at a chosen point of the mail consumer; started again, the consumer resumes from its
// cursor and the request's own stream. The SMTP server and the log are the witnesses.
//   - killed after the SMTP server accepted the message and before the outcome was recorded: the
//     message was received once; the restarted consumer finds `mail.sending` without an outcome, records
//     `mail.outcome_unknown` and does not send it again;
//   - killed after the request was recorded and before the consumer claimed it: nothing was sent; the
//     restarted consumer sends it, once.
import {
  browser,
  startTestInstance,
  startTestSmtpServer,
  type TestInstance,
  type TestSmtpServer,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, signedPost, startNode, type Loose, type Node } from '../federation/federation-helpers.js';
import { ready, startProcess, type StartedProcess } from './start-helpers.js';

describe('mail sent exactly once across a crash of the sending process', () => {
  let setup: TestInstance; // in-process, to register the peer; stopped before the real process runs
  let peer: Node;
  let smtp: TestSmtpServer;
  let proc: StartedProcess | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    [setup, peer] = await Promise.all([
      startTestInstance({ env: { INSTANCE_ROLE: 'global', FEDERATION_SYNC: 'off' } }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off' }),
    ]);
    const operator = browser(setup.url);
    const signup = await operator.post('/api/auth/signup', {
      handle: 'opal',
      password: 'correct horse battery staple',
    });
    assert.equal(signup.status, 201, signup.text);
    await register({ operator } as Node, peer);
    await setup.stop();
    env = {
      NODE_ENV: 'test',
      DATABASE_URL: setup.databaseUrl,
      TRIBUTARY_DATA_DIR: setup.dataDir,
      PORT: new URL(setup.url).port,
      BASE_URL: setup.url,
      LOG_LEVEL: 'warn',
      INSTANCE_ROLE: 'global',
      FEDERATION_SYNC: 'off',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@global.test',
      MAIL_POLL_MS: '100',
    };
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await peer?.instance.destroy();
    await setup?.destroy();
    await smtp?.close();
  });

  const mailLog = async (requestKey: string) => {
    const client = new pg.Client({ connectionString: setup.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ type: string; data: Record<string, unknown> }>(
        `SELECT type, envelope::jsonb -> 'data' AS data FROM events
          WHERE stream = (SELECT stream FROM events WHERE type = 'mail.requested'
                            AND envelope::jsonb -> 'data' ->> 'requestKey' = $1)
          ORDER BY position`,
        [requestKey],
      );
      return rows;
    } finally {
      await client.end();
    }
  };
  const waitForLog = async (requestKey: string, type: string) => {
    const until = Date.now() + 60_000;
    for (;;) {
      const rows = await mailLog(requestKey);
      if (rows.some((r) => r.type === type)) return rows;
      if (Date.now() > until) throw new Error(`no ${type}: ${JSON.stringify(rows)}\n${proc?.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const request = (requestKey: string, to: string) =>
    signedPost(
      peer,
      `${setup.url}/api/federation/email/send`,
      JSON.stringify({
        requestKey,
        template: 'notification',
        to: [to],
        variables: { title: 'Once only', body: 'This message must arrive exactly once.' },
      }),
    ).catch((e: Error) => e);
  const restart = async () => {
    proc = startProcess(env);
    await ready(Number(env.PORT), proc);
  };
  const stop = async () => {
    proc!.child.kill('SIGTERM');
    assert.equal(await proc!.exited, 0, proc!.output());
    proc = undefined;
  };

  test('given a process killed after the SMTP server accepted the message, when it starts again, then the message was received once and is not sent again', async () => {
    proc = startProcess({ ...env, TRIBUTARY_FAILPOINTS: 'mail.send.after-accept' });
    await ready(Number(env.PORT), proc);
    const requestKey = `crash-${randomBytes(6).toString('hex')}`;
    const r = await request(requestKey, 'once@example.org');
    assert.ok(!(r instanceof Error) && r.status === 202, String(r instanceof Error ? r : r.text));
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
    const messageId = (r as { json: Loose }).json.result.messageId as string;
    assert.equal(smtp.messages.filter((m) => m.parsed.messageId === messageId).length, 1);
    assert.deepEqual(
      (await mailLog(requestKey)).map((e) => e.type),
      ['mail.requested', 'mail.sending'],
      'the claim is on the log, the outcome is not',
    );

    await restart();
    const rows = await waitForLog(requestKey, 'mail.outcome_unknown');
    assert.deepEqual(
      rows.map((e) => [e.type, e.data.attempt ?? null]),
      [
        ['mail.requested', null],
        ['mail.sending', 1],
        ['mail.outcome_unknown', 1],
      ],
    );
    // Another request after it goes out: the consumer is past the crashed one and running.
    const next = `after-${randomBytes(6).toString('hex')}`;
    const r2 = await request(next, 'next@example.org');
    assert.ok(!(r2 instanceof Error) && r2.status === 202);
    await waitForLog(next, 'mail.sent');
    assert.equal(smtp.messages.filter((m) => m.parsed.messageId === messageId).length, 1, 'never sent twice');
    await stop();
  });

  test('given a process killed after a request was recorded and before the consumer claimed it, when it starts again, then the message is sent once', async () => {
    proc = startProcess({ ...env, TRIBUTARY_FAILPOINTS: 'mail.send.before-claim' });
    await ready(Number(env.PORT), proc);
    const requestKey = `crash-${randomBytes(6).toString('hex')}`;
    // The answer may or may not leave before the consumer's kill: the log says what was recorded.
    await request(requestKey, 'later@example.org');
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
    assert.deepEqual(
      (await mailLog(requestKey)).map((e) => e.type),
      ['mail.requested'],
    );
    assert.equal(smtp.messages.filter((m) => m.to.includes('later@example.org')).length, 0);

    await restart();
    const rows = await waitForLog(requestKey, 'mail.sent');
    assert.deepEqual(
      rows.map((e) => e.type),
      ['mail.requested', 'mail.sending', 'mail.sent'],
    );
    await smtp.waitFor((m) => m.some((x) => x.to.includes('later@example.org')));
    // Asking again with the same key changes nothing and sends nothing.
    const again = await request(requestKey, 'later@example.org');
    assert.ok(
      !(again instanceof Error) && again.status === 200,
      String(again instanceof Error ? again : again.text),
    );
    assert.equal((again as { json: Loose }).json.result.status, 'sent');
    await stop();
    assert.equal(smtp.messages.filter((m) => m.to.includes('later@example.org')).length, 1);
    assert.equal((await mailLog(requestKey)).length, 3);
  });
});
