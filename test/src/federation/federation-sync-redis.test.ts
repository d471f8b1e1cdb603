// The BullMQ executor when Redis is not there: the start fails with one clear error (ioredis would
// otherwise retry for ever and the start would hang).
import { startTestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

describe('federation sync on BullMQ without Redis', () => {
  test('given REDIS_URL pointing at nothing, when the instance starts, then it fails with a clear error', async () => {
    // A privileged port nothing here serves (the tests listen on port 0 only): the connection is refused.
    const port = 1;
    const started = Date.now();
    await assert.rejects(
      startTestInstance({
        env: { FEDERATION_SYNC: 'on', FEDERATION_QUEUE: 'bullmq', REDIS_URL: `redis://127.0.0.1:${port}` },
      }),
      new RegExp(`REDIS_URL redis://127\\.0\\.0\\.1:${port}/? is unreachable \\(.*ECONNREFUSED`),
    );
    assert.ok(Date.now() - started < 60_000);
  });
});
