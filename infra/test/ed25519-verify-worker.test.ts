// The verification worker (libsodium off the event loop) answers exactly what libsodium answers in the
// calling thread, batch by batch, with batches in flight at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, sign } from 'node:crypto';
import { generateSigningKey, loadSodium, publicKeyRaw, sodiumVerifyWorker } from '../src/index.js';

function mixedBatch(size: number) {
  const { privateKey, publicKey } = generateSigningKey();
  const raw = publicKeyRaw(publicKey);
  return Array.from({ length: size }, (_, i) => {
    const message = randomBytes(i % 7 === 0 ? 0 : 50 + (i % 900));
    const signature = sign(null, message, privateKey);
    // Every third signature is spoiled in one byte, every fifth checked under another key.
    if (i % 3 === 1) signature[i % 64]! ^= 0x40;
    const key = i % 5 === 2 ? publicKeyRaw(generateSigningKey().publicKey) : raw;
    return { message, signature, publicKey: key };
  });
}

describe('Ed25519 verification worker', () => {
  const loaded = loadSodium();
  if ('error' in loaded) throw new Error(`sodium-native must load on this platform: ${loaded.error.message}`);
  const sodium = loaded.sodium;

  it('given mixed batches in flight together, when the worker checks them, then each answer is libsodium’s in-thread answer', async () => {
    const worker = sodiumVerifyWorker();
    assert.ok(worker, 'a worker starts on this platform');
    const batches = [mixedBatch(300), mixedBatch(1), mixedBatch(77), mixedBatch(500)];
    const answers = await Promise.all(batches.map((b) => worker.check(b)));
    batches.forEach((batch, k) => {
      assert.equal(answers[k]!.length, batch.length);
      batch.forEach((it, i) => {
        const expected = sodium.crypto_sign_verify_detached(it.signature, it.message, it.publicKey);
        assert.equal(answers[k]![i], expected ? 1 : 0, `batch ${k}, item ${i}`);
      });
    });
    // The spoiled and foreign-key ones are there, and were refused.
    assert.ok(answers[0]!.includes(0) && answers[0]!.includes(1));
  });

  it('given a signature or key of the wrong size, when it is checked, then the call is refused before anything is sent', () => {
    const worker = sodiumVerifyWorker()!;
    const [good] = mixedBatch(1);
    assert.throws(() => worker.check([{ ...good!, signature: good!.signature.subarray(0, 63) }]), TypeError);
    assert.throws(() => worker.check([{ ...good!, publicKey: new Uint8Array(31) }]), TypeError);
  });

  it('given an empty batch, when it is checked, then the answer is empty', async () => {
    assert.equal((await sodiumVerifyWorker()!.check([])).length, 0);
  });
});
