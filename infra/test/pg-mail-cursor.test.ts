// The mail consumer's cursor over the log (docs/mail.md): `next` walks `limit` sequenced events and
// answers only the `mail.requested` streams among them, with how far it walked, so a log full of other
// events (a catch-up's imports) moves the cursor without sending them over the wire.
import { createPgMailCursor } from '../src/mail/pg-mail-ports.js';
import { appendNewAgents, eventually, openTestLog, unsignedEnvelope } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

describe('the mail cursor', () => {
  let log: Awaited<ReturnType<typeof openTestLog>>;
  beforeAll(async () => {
    log = await openTestLog();
  });
  afterAll(async () => log?.close());

  test('given one mail request among 1,500 other events, when the cursor walks in steps of 1,000, then it answers that request once, in its step, and then nothing', async () => {
    await appendNewAgents(log, 1_200, 'Before');
    const stream = 'mailreq-test-one';
    const data = {
      requestKey: 'test-one',
      requester: { kind: 'instance', purpose: 'test' },
      template: 'verification',
      to: ['someone@example.test'],
      variables: {},
      messageId: '<test-one@example.test>',
    };
    const request = unsignedEnvelope(log.signer, {
      stream,
      streamVersion: 1,
      type: 'mail.requested',
      actorId: log.origin,
      data,
    });
    await log.store.append([{ stream, expectedVersion: 0, envelopes: [log.signer.seal(request)] }]);
    await appendNewAgents(log, 300, 'After');
    // The sequencer numbers only below the cluster's oldest open transaction, which another suite on the
    // same server may hold: sequence until all 1,501 are numbered.
    await eventually('all 1,501 events numbered', async () => {
      await log.sequence();
      const r = await log.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event_sequence');
      return r.rows[0]!.n >= 1_501;
    });
    const cursor = createPgMailCursor(log.pool);

    assert.deepEqual(await cursor.next(0, 1_000), { requests: [], last: 1_000 });
    assert.deepEqual(await cursor.next(1_000, 1_000), { requests: [stream], last: 1_501 });
    assert.deepEqual(await cursor.next(1_501, 1_000), { requests: [], last: null });
    // Its position moves forward only.
    await cursor.advance(1_501);
    await cursor.advance(10);
    assert.equal(await cursor.position(), 1_501);
  });
});
