// generateSigningKey makes keys that never share a lock with a key-generation job. On Node 20 a key from
// generateKeyPairSync, exported as JWK while a garbage collection frees the job that made it, deadlocks
// its thread for good (ed25519-keys.ts): a test worker hung on it in a full run, and a loop of keygen and
// export under a tiny young generation stops within 4,000–35,000 keys. The same loop over
// generateSigningKey and publicKeyRaw finishes. In a child process, so a deadlock fails this test by its
// deadline instead of stopping the run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createPublicKey, sign, verify } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';
import { generateSigningKey, publicKeyBase64url, publicKeyRaw } from '../src/index.js';

const KEYS = 20_000;

describe('generateSigningKey', () => {
  test('given new keys, then each is an Ed25519 pair: it signs and verifies, its raw public key is 32 bytes and its JWK x, and no two are the same', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { privateKey, publicKey } = generateSigningKey();
      assert.equal(privateKey.asymmetricKeyType, 'ed25519');
      const message = Buffer.from(`message ${i}`);
      assert.ok(verify(null, message, publicKey, sign(null, message, privateKey)));
      const raw = publicKeyRaw(privateKey);
      assert.equal(raw.length, 32);
      assert.equal(
        Buffer.from(raw).toString('base64url'),
        createPublicKey(privateKey).export({ format: 'jwk' }).x,
      );
      seen.add(publicKeyBase64url(publicKey));
    }
    assert.equal(seen.size, 50);
  });

  test(`given ${KEYS} keys made and exported under constant garbage collection, then the loop finishes (no deadlock)`, async () => {
    const keys = fileURLToPath(new URL('../src/signing/ed25519-keys.ts', import.meta.url));
    const script =
      `const { generateSigningKey, publicKeyRaw } = await import(${JSON.stringify(keys)});` +
      `let kept = []; for (let i = 0; i < ${KEYS}; i++) { kept.push(publicKeyRaw(generateSigningKey().publicKey));` +
      ` if (kept.length > 500) kept = []; } console.log('made ${KEYS}');`;
    const child = spawn(
      process.execPath,
      ['--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 240_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(deadline);
    assert.equal(code, 0, `the loop did not finish (deadlocked?): ${out}`);
    assert.match(out, new RegExp(`made ${KEYS}`));
  }, 300_000);
});
