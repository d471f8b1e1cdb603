// The range a push names in its import request's query (receive-push.ts): absent when it names none, else
// two whole numbers with after < through, or federation.bad_push_range (the import then runs not at all).
import { pushedRangeOf } from '@tributary/services';
import { isDomainError } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const refused = (query: Record<string, unknown>) =>
  assert.throws(
    () => pushedRangeOf(query),
    (e: unknown) => isDomainError(e) && e.code === 'federation.bad_push_range',
  );

describe('a push names its range of the sender’s feed', () => {
  test('given no after and no through, then the batch names no range', () => {
    assert.equal(pushedRangeOf({}), undefined);
  });
  test('given after=0&through=30, then the range is 0 to 30', () => {
    assert.deepEqual(pushedRangeOf({ after: '0', through: '30' }), { after: 0, through: 30 });
  });
  test('given one of the two, a range that does not move forward, or words, then federation.bad_push_range', () => {
    refused({ after: '5' });
    refused({ through: '5' });
    refused({ after: '5', through: '5' });
    refused({ after: '9', through: '5' });
    refused({ after: '-1', through: '5' });
    refused({ after: 'one', through: '5' });
    refused({ after: '1.5', through: '5' });
    refused({ after: '1', through: '5', extra: '1' });
  });
});
