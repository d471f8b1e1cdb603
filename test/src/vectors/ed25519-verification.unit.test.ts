// Bulk verification of peers' events answers exactly what node:crypto (OpenSSL) answers, though
// libsodium does the work (infra/src/signing/ed25519-verification.ts). That rests on one claim about the
// sodium-native binary installed here: whatever libsodium accepts, OpenSSL accepts. These cases try to
// break it where Ed25519 implementations are known to differ: torsion components in R or A (cofactored
// against cofactorless checks), small-order R and A, non-canonical S, A and R encodings, flipped bits.
// Points are built with @noble/ed25519's arithmetic, independent of both libraries.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { createHash, randomBytes, verify, type KeyObject } from 'node:crypto';
import * as ed from '@noble/ed25519';
import {
  createEd25519BulkVerify,
  loadSodium,
  publicKeyFromBase64url,
  type Ed25519VerifyItem,
} from '@tributary/infra';

ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;
const B = ed.Point.BASE;

const numberLE = (bytes: Uint8Array) => {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
};
const bytesLE = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 255n);
  return out;
};
const hram = (r: Uint8Array, a: Uint8Array, m: Uint8Array) =>
  numberLE(createHash('sha512').update(r).update(a).update(m).digest()) % L;
const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));

// A point of order 8 (libsodium's own blocklist has it); its multiples are the whole torsion subgroup.
const T8 = ed.Point.fromBytes(hex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'), false);
const torsion = Array.from({ length: 8 }, (_, k) =>
  k === 0 ? ed.Point.ZERO : Array.from({ length: k - 1 }).reduce<typeof T8>((p) => p.add(T8), T8),
);

interface Case {
  name: string;
  message: Uint8Array;
  signature: Uint8Array;
  publicKey: Uint8Array;
}

/** A signature under scalar `a` (public bytes `aBytes`) whose R is rB + `offset`, S computed honestly. */
function signWith(a: bigint, aBytes: Uint8Array, message: Uint8Array, offset = ed.Point.ZERO, r?: bigint) {
  const nonce = r ?? numberLE(randomBytes(64)) % L;
  const R = B.multiply(nonce).add(offset).toBytes();
  const s = (nonce + hram(R, aBytes, message) * a) % L;
  return new Uint8Array([...R, ...bytesLE(s)]);
}

function keyPair() {
  const ext = ed.utils.getExtendedPublicKey(randomBytes(32));
  return { a: ext.scalar, A: ext.pointBytes };
}

/** y + p, where y + p < 2^255: the non-canonical spelling of a point with a small y (sign bit kept). */
function nonCanonical(encoding: Uint8Array): Uint8Array | null {
  const sign = encoding[31]! & 0x80;
  const y = numberLE(encoding.map((b, i) => (i === 31 ? b & 0x7f : b)));
  if (y + P >= 2n ** 255n) return null;
  const out = bytesLE(y + P);
  out[31]! |= sign;
  return out;
}

function cases(): Case[] {
  const out: Case[] = [];
  const message = () => randomBytes(1 + Math.floor(Math.random() * 300));
  for (let i = 0; i < 40; i++) {
    const { a, A } = keyPair();
    const m = message();
    const signature = signWith(a, A, m);
    out.push({ name: `honest ${i}`, message: m, signature, publicKey: A });
    // One flipped bit anywhere in R, in S, in the message and in the key.
    const flip = (bytes: Uint8Array, bit: number) => {
      const copy = new Uint8Array(bytes);
      copy[bit >> 3]! ^= 1 << (bit & 7);
      return copy;
    };
    const bit = (n: number) => Math.floor(Math.random() * n);
    out.push({ name: `R bit ${i}`, message: m, signature: flip(signature, bit(256)), publicKey: A });
    out.push({ name: `S bit ${i}`, message: m, signature: flip(signature, 256 + bit(256)), publicKey: A });
    out.push({ name: `message bit ${i}`, message: flip(m, bit(m.length * 8)), signature, publicKey: A });
    out.push({ name: `key bit ${i}`, message: m, signature, publicKey: flip(A, bit(256)) });
    // S + L: the same scalar, not in canonical form.
    const s = numberLE(signature.subarray(32));
    if (s + L < 2n ** 256n)
      out.push({
        name: `S + L ${i}`,
        message: m,
        signature: new Uint8Array([...signature.subarray(0, 32), ...bytesLE(s + L)]),
        publicKey: A,
      });
    // R off by each torsion point: valid only for a cofactored check.
    for (let k = 1; k < 8; k++)
      out.push({
        name: `R + T${k} ${i}`,
        message: m,
        signature: signWith(a, A, m, torsion[k]),
        publicKey: A,
      });
    // A with a torsion component, and R chosen so the cofactorless equation holds (found by trying R's
    // torsion part until H(R‖A‖M) matches it mod 8): both kinds of check accept it.
    for (let k = 1; k < 8; k += 3) {
      const mixedA = B.multiply(a).add(torsion[k]!).toBytes();
      for (let j = 0; j < 64; j++) {
        const nonce = numberLE(randomBytes(64)) % L;
        const R = B.multiply(nonce)
          .add(torsion[(8 - ((j * k) % 8)) % 8]!)
          .toBytes();
        const h = hram(R, mixedA, m);
        if ((h * BigInt(k)) % 8n !== BigInt((j * k) % 8)) continue;
        const sig = new Uint8Array([...R, ...bytesLE((nonce + h * a) % L)]);
        out.push({ name: `mixed-order A (T${k}) ${i}`, message: m, signature: sig, publicKey: mixedA });
        break;
      }
    }
  }
  // Small-order keys and R: with S = 0 and R = −[h]A, the equation holds for every message.
  for (let k = 0; k < 8; k++) {
    const A = torsion[k]!.toBytes();
    for (let j = 0; j < 8; j++) {
      const R = torsion[j]!.toBytes();
      const m = message();
      const zeroS = new Uint8Array([...R, ...new Uint8Array(32)]);
      out.push({ name: `small-order A=T${k}, R=T${j}, S=0`, message: m, signature: zeroS, publicKey: A });
      const badA = nonCanonical(A);
      if (badA)
        out.push({ name: `non-canonical A=T${k}, R=T${j}`, message: m, signature: zeroS, publicKey: badA });
      const badR = nonCanonical(R);
      if (badR)
        out.push({
          name: `small-order A=T${k}, non-canonical R=T${j}`,
          message: m,
          signature: new Uint8Array([...badR, ...new Uint8Array(32)]),
          publicKey: A,
        });
    }
  }
  // An honest key, R small-order, S chosen for it: sB = R + hA needs R's logarithm, so only R = identity
  // with S = h·a works, and libsodium refuses the small-order R.
  {
    const { a, A } = keyPair();
    const m = message();
    const R = ed.Point.ZERO.toBytes();
    const s = (hram(R, A, m) * a) % L;
    out.push({
      name: 'identity R',
      message: m,
      signature: new Uint8Array([...R, ...bytesLE(s)]),
      publicKey: A,
    });
  }
  // Garbage.
  for (let i = 0; i < 20; i++)
    out.push({ name: `random ${i}`, message: message(), signature: randomBytes(64), publicKey: keyPair().A });
  return out;
}

/** node:crypto's verdict; a key it cannot import is a no (the peer verifier refuses such keys first). */
function openssl(c: Case): { verdict: boolean; key?: KeyObject } {
  let key;
  try {
    key = publicKeyFromBase64url(Buffer.from(c.publicKey).toString('base64url'));
  } catch {
    return { verdict: false };
  }
  try {
    return { verdict: verify(null, c.message, key, c.signature), key };
  } catch {
    return { verdict: false, key };
  }
}

describe('bulk Ed25519 verification: libsodium first, OpenSSL the verdict', () => {
  const loaded = loadSodium();
  if ('error' in loaded) throw new Error(`sodium-native must load on this platform: ${loaded.error.message}`);
  const sodium = loaded.sodium;
  const all = cases();

  it('given adversarial signatures, when libsodium accepts one, then OpenSSL accepts it too', () => {
    let sodiumAccepted = 0;
    for (const c of all) {
      if (!sodium.crypto_sign_verify_detached(c.signature, c.message, c.publicKey)) continue;
      sodiumAccepted += 1;
      assert.equal(openssl(c).verdict, true, `${c.name}: libsodium accepts what OpenSSL refuses`);
    }
    assert.ok(sodiumAccepted >= 40, 'the honest signatures at least are accepted');
  });

  it('given the same signatures, when verified in bulk, then every verdict is OpenSSL’s, with either library', async () => {
    const importable = all.flatMap((c) => {
      const { verdict, key } = openssl(c);
      return key
        ? [
            {
              c,
              verdict,
              item: { message: c.message, signature: c.signature, key: { object: key, raw: c.publicKey } },
            },
          ]
        : [];
    });
    const items: Ed25519VerifyItem[] = importable.map((x) => x.item);
    for (const library of ['libsodium', 'node-crypto'] as const) {
      const verifyAll = createEd25519BulkVerify(library);
      assert.equal(verifyAll.library, library);
      const verdicts = await verifyAll(items);
      importable.forEach((x, i) => assert.equal(verdicts[i], x.verdict, `${library}: ${x.c.name}`));
    }
    // The cases split both ways, and some are ones OpenSSL takes but libsodium does not: the verdicts
    // above come from OpenSSL there, not from libsodium.
    assert.ok(importable.some((x) => x.verdict));
    assert.ok(importable.some((x) => !x.verdict));
    const decidedByOpenssl = importable.filter(
      (x) => x.verdict && !sodium.crypto_sign_verify_detached(x.c.signature, x.c.message, x.c.publicKey),
    );
    assert.ok(decidedByOpenssl.length > 0, 'some signature OpenSSL accepts and libsodium refuses');
  });

  it('given a torsion point added to R, when verified, then neither library accepts it (both check cofactorless)', () => {
    const torsioned = all.filter((c) => c.name.startsWith('R + T'));
    assert.equal(torsioned.length, 40 * 7);
    for (const c of torsioned) {
      assert.equal(sodium.crypto_sign_verify_detached(c.signature, c.message, c.publicKey), false, c.name);
      assert.equal(openssl(c).verdict, false, c.name);
    }
  });

  it('given a key with a torsion component and a signature made to fit it, when verified, then both libraries accept it', () => {
    const mixed = all.filter((c) => c.name.startsWith('mixed-order A'));
    assert.ok(mixed.length >= 100, `only ${mixed.length} such signatures were found`);
    for (const c of mixed) {
      assert.equal(openssl(c).verdict, true, c.name);
      assert.equal(sodium.crypto_sign_verify_detached(c.signature, c.message, c.publicKey), true, c.name);
    }
  });
});
