import {
  checkMailVariables,
  decideRequestMail,
  decideSendOutcome,
  decideStartSending,
  decideUseMailToken,
  fold,
  mailRequestStream,
  mailTokenStream,
  renderMail,
  type MailRequestState,
  type MailTokenState,
  type NewEvent,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const stream = mailRequestStream('d1');
const request = {
  requestKey: 'key-00000001',
  requester: { kind: 'peer' as const, peerId: 'p1' },
  template: 'verification',
  to: ['ada@example.org'],
  variables: { link: 'https://p.test/v' },
  messageId: '<d1@g.test>',
};
const stored = (events: NewEvent[]): StoredEventLike[] =>
  events.map(
    (e, i) => ({ type: e.type, data: e.data, stream: e.stream, streamVersion: i + 1 }) as StoredEventLike,
  );
const stateOf = (events: NewEvent[]) => fold<MailRequestState>(stream, stored(events));
const retry = { maxAttempts: 2, retryAt: () => new Date('2026-01-01T00:01:00Z') };
const now = new Date('2026-01-01T00:00:00Z');

describe('mail requests', () => {
  test('given a new request, then it is recorded; the same again decides nothing; the same key for another message is refused', () => {
    const first = decideRequestMail(stream, request, stateOf([]));
    assert.deepEqual(
      first.map((e) => e.type),
      ['mail.requested'],
    );
    assert.deepEqual(decideRequestMail(stream, request, stateOf(first)), []);
    assert.equal(
      codeOf(() => decideRequestMail(stream, { ...request, to: ['eve@example.org'] }, stateOf(first))),
      'mail.request_key_reused',
    );
  });

  test('given a pending request, then one attempt is claimed; a claimed one is not claimed again', () => {
    const log = decideRequestMail(stream, request, stateOf([]));
    const claim = decideStartSending(stream, stateOf(log), now);
    assert.deepEqual(
      claim.map((e) => [e.type, e.data]),
      [['mail.sending', { attempt: 1 }]],
    );
    assert.deepEqual(decideStartSending(stream, stateOf([...log, ...claim]), now), []);
  });

  test('given a transient failure, then a retry at the time given until the attempts run out, then a failure', () => {
    let log = decideRequestMail(stream, request, stateOf([]));
    log = [...log, ...decideStartSending(stream, stateOf(log), now)];
    const failed = decideSendOutcome(stream, stateOf(log), { kind: 'transient', error: '451' }, retry);
    assert.deepEqual(
      failed.map((e) => e.type),
      ['mail.attempt_failed'],
    );
    log = [...log, ...failed];
    assert.deepEqual(decideStartSending(stream, stateOf(log), now), [], 'not before its time');
    log = [...log, ...decideStartSending(stream, stateOf(log), new Date('2026-01-01T00:02:00Z'))];
    assert.equal(stateOf(log).attempts, 2);
    const last = decideSendOutcome(stream, stateOf(log), { kind: 'transient', error: '451' }, retry);
    assert.deepEqual(
      last.map((e) => e.type),
      ['mail.failed'],
    );
  });

  test('given an outcome that may have been delivered, then it is recorded as unknown and never claimed again', () => {
    let log = decideRequestMail(stream, request, stateOf([]));
    log = [...log, ...decideStartSending(stream, stateOf(log), now)];
    log = [...log, ...decideSendOutcome(stream, stateOf(log), { kind: 'unknown', reason: 'crash' }, retry)];
    assert.equal(stateOf(log).status, 'unknown');
    assert.deepEqual(decideStartSending(stream, stateOf(log), new Date('2030-01-01T00:00:00Z')), []);
    assert.deepEqual(
      decideSendOutcome(
        stream,
        stateOf(log),
        { kind: 'sent', via: 'smtp', accepted: [], rejected: [] },
        retry,
      ),
      [],
    );
  });
});

describe('mail templates', () => {
  test('given variables with markup, then the HTML escapes them and the text keeps them as text', () => {
    const m = renderMail(
      'notification',
      { title: 'Hi <i>there</i>', body: '<script>x</script> & more' },
      'Inst',
    );
    assert.equal(m.subject, 'Hi <i>there</i> (Inst)');
    assert.ok(m.text.includes('<script>x</script> & more'));
    assert.ok(m.html.includes('&lt;script&gt;x&lt;/script&gt; &amp; more'));
    assert.ok(!m.html.includes('<script>'));
  });

  test('given undeclared, missing or multi-line variables, then they are refused', () => {
    assert.equal(checkMailVariables('verification', { link: 'https://a.test/', extra: 'x' }).ok, false);
    assert.equal(checkMailVariables('verification', {}).ok, false);
    assert.equal(checkMailVariables('notification', { title: 'a\nb', body: 'x' }).ok, false);
    assert.equal(checkMailVariables('verification', { link: 'javascript:alert(1)' }).ok, false);
    assert.deepEqual(checkMailVariables('verification', { link: 'https://a.test/v' }), {
      ok: true,
      variables: { link: 'https://a.test/v' },
      links: ['https://a.test/v'],
    });
  });
});

describe('account tokens', () => {
  const t = mailTokenStream('h1');
  const issued = (expiresAt: string, used = false) =>
    fold<MailTokenState>(
      t,
      stored([
        {
          stream: t,
          type: 'mail.token_issued',
          data: { purpose: 'reset_password', accountId: 'a1', email: 'a@x.test', expiresAt },
        },
        ...(used ? [{ stream: t, type: 'mail.token_used', data: {} }] : []),
      ]),
    );
  test('given a live token, then it is used once; used, expired, unknown or another purpose get one code', () => {
    const ok = decideUseMailToken(t, issued('2026-01-01T01:00:00Z'), 'reset_password', now);
    assert.equal(ok.accountId, 'a1');
    assert.deepEqual(
      ok.events.map((e) => e.type),
      ['mail.token_used'],
    );
    for (const run of [
      () => decideUseMailToken(t, issued('2026-01-01T01:00:00Z', true), 'reset_password', now),
      () => decideUseMailToken(t, issued('2025-12-31T23:00:00Z'), 'reset_password', now),
      () => decideUseMailToken(t, fold<MailTokenState>(t, []), 'reset_password', now),
      () => decideUseMailToken(t, issued('2026-01-01T01:00:00Z'), 'verify_email', now),
    ])
      assert.equal(codeOf(run), 'mail.token_invalid');
  });
});
