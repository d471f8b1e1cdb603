// Ids and nonces made by the running instance.
import { it } from 'vitest';
import assert from 'node:assert/strict';
import { nodeIds } from '../src/index.js';

it('given many nonces (across several refills of the pooled random bytes), when made, then each is 16 fresh bytes in base64url, never repeated', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const nonce = nodeIds.nonce();
    assert.match(nonce, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(Buffer.from(nonce, 'base64url').length, 16);
    seen.add(nonce);
  }
  assert.equal(seen.size, 2000);
});
