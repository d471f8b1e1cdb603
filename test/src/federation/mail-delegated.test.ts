// Delegated email between real instances on loopback: a global instance G with SMTP_URL pointing at a
// real SMTP server on loopback, and a person instance P registered on G as a peer. P's signed requests
// name one of G's templates; G's mail consumer sends each through SMTP once, retries a temporary
// refusal with backoff, and refuses bad input with a stable code and nothing written. P itself has no
// SMTP_URL: what G asks of it is only logged, and its status says so.
import { generateSigningKey } from '@tributary/infra';
import { eventually, startTestSmtpServer, type TestSmtpServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, signedPost, startNode, type Loose, type Node } from './federation-helpers.js';

const PER_PEER = 12;
const PER_RECIPIENT = 2;

describe('delegated email (POST /api/federation/email/send)', () => {
  let smtp: TestSmtpServer;
  let g: Node;
  let p: Node;
  const send = (body: Loose, from: Pick<Node, 'keyId' | 'privateKey'> = p) =>
    signedPost(from, `${g.url}/api/federation/email/send`, JSON.stringify(body));
  const key = () => `k-${randomBytes(8).toString('hex')}`;
  const mailEvents = async (n: Node, stream?: string) => {
    const { rows } = await n.instance.instance.pool.query<{ type: string; stream: string; data: Loose }>(
      `SELECT type, stream, envelope::jsonb -> 'data' AS data FROM events
       WHERE type LIKE 'mail.%' AND ($1::text IS NULL OR stream = $1) ORDER BY position`,
      [stream ?? null],
    );
    return rows;
  };
  const streamOf = async (n: Node, requestKey: string) =>
    (await mailEvents(n)).find((e) => e.type === 'mail.requested' && e.data.requestKey === requestKey)
      ?.stream;
  const waitForStatus = async (n: Node, requestKey: string, type: string) => {
    const until = Date.now() + 20_000;
    for (;;) {
      const stream = await streamOf(n, requestKey);
      if (stream && (await mailEvents(n, stream)).some((e) => e.type === type)) return mailEvents(n, stream);
      if (Date.now() > until)
        throw new Error(`no ${type} for ${requestKey}: ${JSON.stringify(await mailEvents(n))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    [g, p] = await Promise.all([
      startNode('global', 'Global', {
        FEDERATION_SYNC: 'off',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Global <no-reply@global.test>',
        MAIL_RATE_PER_PEER_PER_HOUR: String(PER_PEER),
        MAIL_RATE_PER_RECIPIENT_PER_HOUR: String(PER_RECIPIENT),
        MAIL_RETRY_BASE_MS: '200',
        MAIL_POLL_MS: '100',
      }),
      startNode('person', 'Pine', { FEDERATION_SYNC: 'off', MAIL_POLL_MS: '100' }),
    ]);
    await register(g, p);
    await register(p, g);
  });
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), p?.instance.destroy()]);
    await smtp?.close();
  });

  test('given a signed request for the verification template, then G sends it through SMTP once, with its Message-ID, its link and the variables escaped', async () => {
    const requestKey = key();
    const link = `${p.url}/verify?token=abc&x=1`;
    const r = await send({
      requestKey,
      template: 'verification',
      to: ['Ada@Example.org'],
      variables: { name: 'Ada <b>Lovelace</b>', link },
    });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.json.result.delivery, 'smtp');
    assert.equal(r.json.result.duplicate, false);
    const messageId = r.json.result.messageId as string;
    assert.match(messageId, /^<[0-9a-f]{40}@/);
    await smtp.waitFor((m) => m.some((x) => x.parsed.messageId === messageId));
    const got = smtp.messages.filter((x) => x.parsed.messageId === messageId);
    assert.equal(got.length, 1);
    const mail = got[0]!;
    assert.deepEqual(mail.to, ['ada@example.org']);
    assert.equal(mail.from, 'no-reply@global.test');
    assert.equal(mail.parsed.subject, 'Confirm your email address for Global');
    assert.ok(mail.parsed.text?.includes(link), mail.parsed.text);
    assert.ok(mail.parsed.text?.includes('Hello Ada <b>Lovelace</b>,'));
    const html = String(mail.parsed.html);
    assert.ok(html.includes('Ada &lt;b&gt;Lovelace&lt;/b&gt;'), html);
    assert.ok(!html.includes('<b>'), 'no markup of a variable reaches the HTML');

    const events = await waitForStatus(g, requestKey, 'mail.sent');
    assert.deepEqual(
      events.map((e) => e.type),
      ['mail.requested', 'mail.sending', 'mail.sent'],
    );
    assert.deepEqual(events[0]!.data.requester, { kind: 'peer', peerId: p.id });
    assert.equal(events[2]!.data.via, 'smtp');

    // The same request again: the same answer, nothing new written, nothing sent again.
    const again = await send({
      requestKey,
      template: 'verification',
      to: ['ada@example.org'],
      variables: { name: 'Ada <b>Lovelace</b>', link },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.result.duplicate, true);
    assert.equal(again.json.result.status, 'sent');
    assert.equal(again.json.result.messageId, messageId);
    // The same key for another message is refused.
    const reused = await send({
      requestKey,
      template: 'verification',
      to: ['eve@example.org'],
      variables: { link },
    });
    assert.equal(reused.status, 409, reused.text);
    assert.equal(reused.json.code, 'mail.request_key_reused');
    await g.instance.instance.mail!.drain();
    assert.equal(smtp.messages.filter((x) => x.parsed.messageId === messageId).length, 1);
    assert.equal((await mailEvents(g, events[0]!.stream)).length, 3);
  });

  test('given a temporary SMTP refusal, then the consumer retries with backoff and the message goes out once', async () => {
    smtp.refuseRecipient((address, n) => (address === 'busy@example.org' && n === 1 ? 451 : null));
    try {
      const requestKey = key();
      const r = await send({
        requestKey,
        template: 'notification',
        to: ['busy@example.org'],
        variables: { title: 'Your export is ready', body: 'It is waiting for you.' },
      });
      assert.equal(r.status, 202, r.text);
      const events = await waitForStatus(g, requestKey, 'mail.sent');
      assert.deepEqual(
        events.map((e) => [e.type, e.data.attempt ?? null]),
        [
          ['mail.requested', null],
          ['mail.sending', 1],
          ['mail.attempt_failed', 1],
          ['mail.sending', 2],
          ['mail.sent', 2],
        ],
      );
      assert.match(String(events[2]!.data.error), /451/);
      assert.ok(Date.parse(events[2]!.data.retryAt) > 0);
      assert.equal(smtp.messages.filter((x) => x.to.includes('busy@example.org')).length, 1);
    } finally {
      smtp.refuseRecipient(null);
    }
  });

  test('given the SMTP server down while requests arrive, when it comes back, then each message is sent once', async () => {
    await g.instance.instance.mail!.drain();
    const attemptsFailed = async (requestKey: string) => {
      const stream = await streamOf(g, requestKey);
      return stream
        ? (await mailEvents(g, stream)).filter((e) => e.type === 'mail.attempt_failed').length
        : 0;
    };
    const asked: { requestKey: string; messageId: string }[] = [];
    await smtp.stop();
    try {
      for (const to of ['away1@example.org', 'away2@example.org', 'away3@example.org']) {
        const requestKey = key();
        const r = await send({
          requestKey,
          template: 'notification',
          to: [to],
          variables: { title: 'Sent while the mail server was away', body: 'Once.' },
        });
        assert.equal(r.status, 202, r.text);
        asked.push({ requestKey, messageId: r.json.result.messageId as string });
      }
      // Each is tried, refused (no connection) and scheduled again, twice, while the server is away.
      for (const { requestKey } of asked)
        await eventually(
          `two refused attempts of ${requestKey}`,
          async () => (await attemptsFailed(requestKey)) >= 2,
        );
    } finally {
      await smtp.start();
    }
    for (const { requestKey, messageId } of asked) {
      const events = await waitForStatus(g, requestKey, 'mail.sent');
      assert.equal(events.filter((e) => e.type === 'mail.sent').length, 1);
      assert.equal(
        events.filter((e) => e.type === 'mail.outcome_unknown' || e.type === 'mail.failed').length,
        0,
      );
      await smtp.waitFor((m) => m.some((x) => x.parsed.messageId === messageId));
    }
    // Once back, nothing is sent a second time: each message reached the server once.
    await g.instance.instance.mail!.drain();
    for (const { messageId } of asked)
      assert.equal(smtp.messages.filter((x) => x.parsed.messageId === messageId).length, 1, messageId);
  });

  test('given bad input or a bad signature, then a stable code and nothing written', async () => {
    const before = (await mailEvents(g)).length;
    const link = `${p.url}/x`;
    const cases: [Loose, number, string][] = [
      [
        { requestKey: key(), template: 'invoice', to: ['a@example.org'], variables: {} },
        400,
        'mail.unknown_template',
      ],
      [
        {
          requestKey: key(),
          template: 'verification',
          to: Array.from({ length: 11 }, (_, i) => `r${i}@example.org`),
          variables: { link },
        },
        400,
        'mail.too_many_recipients',
      ],
      [
        { requestKey: key(), template: 'verification', to: ['not an address'], variables: { link } },
        400,
        'mail.bad_address',
      ],
      [
        {
          requestKey: key(),
          template: 'verification',
          to: ['a@example.org, b@example.org'],
          variables: { link },
        },
        400,
        'mail.bad_address',
      ],
      [{ requestKey: key(), template: 'verification', to: [], variables: { link } }, 400, 'mail.bad_address'],
      [
        {
          requestKey: key(),
          template: 'verification',
          to: ['a@example.org'],
          variables: { link, html: '<p>hi</p>' },
        },
        400,
        'mail.bad_variables',
      ],
      [
        { requestKey: key(), template: 'verification', to: ['a@example.org'], variables: {} },
        400,
        'mail.bad_variables',
      ],
      [
        {
          requestKey: key(),
          template: 'notification',
          to: ['a@example.org'],
          variables: { title: 'a\r\nBcc: x@evil.test', body: 'b' },
        },
        400,
        'mail.bad_variables',
      ],
      [
        {
          requestKey: key(),
          template: 'verification',
          to: ['a@example.org'],
          variables: { link: 'https://phish.test/login' },
        },
        400,
        'mail.link_off_origin',
      ],
      [
        { requestKey: key(), template: 'password_reset', to: ['a@example.org'], variables: { link } },
        403,
        'mail.template_not_allowed',
      ],
      [
        { requestKey: 'short', template: 'verification', to: ['a@example.org'], variables: { link } },
        400,
        'mail.bad_request_key',
      ],
      [
        {
          requestKey: key(),
          template: 'verification',
          to: ['a@example.org'],
          variables: { link },
          html: '<p>',
        },
        400,
        'input.invalid',
      ],
    ];
    for (const [body, status, code] of cases) {
      const r = await send(body);
      assert.equal(r.status, status, `${code}: ${r.text}`);
      assert.equal(r.json.code, code, r.text);
    }
    // Unsigned, signed by a key no peer holds, and a body changed after signing.
    const body = JSON.stringify({
      requestKey: key(),
      template: 'verification',
      to: ['a@example.org'],
      variables: { link },
    });
    const unsigned = await fetch(`${g.url}/api/federation/email/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(unsigned.status, 401);
    assert.equal(((await unsigned.json()) as Loose).code, 'federation.signature_required');
    const stranger = { keyId: 'stranger-key', privateKey: generateSigningKey().privateKey };
    const unknown = await signedPost(stranger, `${g.url}/api/federation/email/send`, body);
    assert.equal(unknown.status, 401, unknown.text);
    assert.equal(unknown.json.code, 'federation.unknown_peer');
    const forged = await signedPost(
      { keyId: p.keyId, privateKey: stranger.privateKey },
      `${g.url}/api/federation/email/send`,
      body,
    );
    assert.equal(forged.status, 401, forged.text);
    assert.equal(forged.json.code, 'federation.bad_signature');
    const tampered = await signedPost(p, `${g.url}/api/federation/email/send`, body, {
      sentBody: body.replace('a@example.org', 'b@example.org'),
    });
    assert.equal(tampered.status, 401, tampered.text);
    assert.equal(tampered.json.code, 'federation.digest_mismatch');
    // A session is not a peer.
    const session = await g.operator.post('/api/federation/email/send', JSON.parse(body));
    assert.equal(session.status, 401, session.text);
    assert.equal((await mailEvents(g)).length, before, 'nothing written');
  });

  test('given the rates, then a recipient and a peer over their hourly allowance are refused 429 mail.rate_limited with Retry-After, and nothing is written', async () => {
    const link = `${p.url}/x`;
    const mailTo = (to: string) =>
      send({ requestKey: key(), template: 'verification', to: [to], variables: { link } });
    for (let i = 0; i < PER_RECIPIENT; i++) assert.equal((await mailTo('popular@example.org')).status, 202);
    // Requests only: the consumer keeps recording the accepted ones' sends meanwhile.
    const requested = async () => (await mailEvents(g)).filter((e) => e.type === 'mail.requested').length;
    const before = await requested();
    const over = await mailTo('popular@example.org');
    assert.equal(over.status, 429, over.text);
    assert.equal(over.json.code, 'mail.rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.equal(await requested(), before);

    const asked = (await mailEvents(g)).filter((e) => e.type === 'mail.requested').length;
    for (let i = asked; i < PER_PEER; i++) {
      const r = await mailTo(`someone${i}@example.org`);
      assert.equal(r.status, 202, r.text);
    }
    const peerOver = await mailTo('fresh@example.org');
    assert.equal(peerOver.status, 429, peerOver.text);
    assert.equal(peerOver.json.code, 'mail.rate_limited');
    assert.equal((await mailEvents(g)).filter((e) => e.type === 'mail.requested').length, PER_PEER);
  });

  test('given an instance without SMTP_URL, then what a peer asks of it is logged, not sent, and its status says so', async () => {
    const status = await fetch(`${p.url}/api/federation/status`).then((r) => r.json() as Promise<Loose>);
    assert.deepEqual(status.mail, { delivery: 'log' });
    const atG = await fetch(`${g.url}/api/federation/status`).then((r) => r.json() as Promise<Loose>);
    assert.deepEqual(atG.mail, { delivery: 'smtp' });
    const operator = await g.operator.get('/api/federation/status');
    assert.ok(operator.json.mail.requests.sent >= 2, operator.text);

    const requestKey = key();
    // G's own sending (the earlier tests') is finished first: only P's counts below.
    await g.instance.instance.mail!.drain();
    const received = smtp.messages.length;
    const r = await signedPost(
      g,
      `${p.url}/api/federation/email/send`,
      JSON.stringify({
        requestKey,
        template: 'sign_in_link',
        to: ['ada@example.org'],
        variables: { link: `${g.url}/in` },
      }),
    );
    assert.equal(r.status, 202, r.text);
    assert.equal(r.json.result.delivery, 'log');
    const events = await waitForStatus(p, requestKey, 'mail.sent');
    assert.equal(events.at(-1)!.data.via, 'log');
    assert.equal(smtp.messages.length, received, 'nothing reached the SMTP server');
  });
});
