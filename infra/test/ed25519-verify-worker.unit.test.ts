// The verification worker (libsodium off the event loop) answers exactly what libsodium answers in the
// calling thread, batch by batch, with batches in flight at once.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { randomBytes, sign, verify } from 'node:crypto';
import {
  createEd25519BulkVerify,
  generateSigningKey,
  loadSodium,
  publicKeyRaw,
  sodiumVerifyWorker,
} from '../src/index.js';

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

  it('given the worker stops with a check pending, when checks go on, then the pending one is refused and a new worker answers the next', async () => {
    const worker = sodiumVerifyWorker()!;
    const batch = mixedBatch(2000);
    const pending = worker.check(batch);
    await worker.terminate();
    await assert.rejects(pending, /exited/);
    const answers = await worker.check(batch);
    batch.forEach((it, i) =>
      assert.equal(
        answers[i],
        sodium.crypto_sign_verify_detached(it.signature, it.message, it.publicKey) ? 1 : 0,
      ),
    );
  });

  it('given a small mixed batch checked off the event loop, when the verdicts come, then each is OpenSSL’s', async () => {
    const { privateKey, publicKey } = generateSigningKey();
    const other = generateSigningKey().publicKey;
    const items = Array.from({ length: 10 }, (_, i) => {
      const message = randomBytes(100 + i);
      const signature = sign(null, message, privateKey);
      if (i % 3 === 0) signature[7]! ^= 2;
      const key = i % 4 === 1 ? other : publicKey;
      return { message, signature, key: { object: key, raw: publicKeyRaw(key) } };
    });
    const verdicts = await createEd25519BulkVerify('libsodium')(items, { offLoop: true });
    items.forEach((it, i) =>
      assert.equal(verdicts[i], verify(null, it.message, it.key.object, it.signature)),
    );
    assert.ok(verdicts.includes(true) && verdicts.includes(false));
  });

  it('given the worker stops while a bulk verification waits on it, when the verdicts come, then they are still OpenSSL’s', async () => {
    const { privateKey, publicKey } = generateSigningKey();
    const items = Array.from({ length: 4000 }, (_, i) => {
      const message = randomBytes(200);
      const signature = sign(null, message, privateKey);
      if (i % 4 === 0) signature[5]! ^= 1;
      return { message, signature, key: { object: publicKey, raw: publicKeyRaw(publicKey) } };
    });
    const verifying = createEd25519BulkVerify('libsodium')(items);
    await sodiumVerifyWorker()!.terminate();
    const verdicts = await verifying;
    items.forEach((it, i) =>
      assert.equal(verdicts[i], verify(null, it.message, it.key.object, it.signature)),
    );
  });
});
