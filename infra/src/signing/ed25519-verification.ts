// Bulk Ed25519 verification of peers' events (imports, pulled pages): OpenSSL's verdict, computed by
// libsodium where libsodium can give it.
//
// Peers must agree on which events verify, and node:crypto (OpenSSL) is the verdict the rest of the
// system and other instances use. libsodium verifies about twice as fast (figures: docs/log.md#signing),
// and it is strictly stricter than OpenSSL:
//
// - both refuse a signature whose S is not below the group order L, hash the R and A bytes as given,
//   and accept only when R is [S]B − [H(R‖A‖M)]A itself (the cofactorless check: libsodium 1.0.21, the
//   version sodium-native bundles, refuses an R off by a torsion point, as OpenSSL does);
// - libsodium also refuses small-order R or A and non-canonical encodings of A, which OpenSSL may take.
//
// So when libsodium says yes, OpenSSL says yes; when libsodium says no, OpenSSL is asked (on the thread
// pool) and its answer is the verdict. The result is OpenSSL's answer in every case, at libsodium's cost
// for every honest event. A large batch is checked by libsodium on two threads at once. `ed25519-verification.unit.test.ts` checks the first claim against this very
// binary on the adversarial cases (torsion, small order, non-canonical S, A and R, flipped bits), so an
// upgrade of sodium-native that loosened it would fail the suite.
import { verify, type KeyObject } from 'node:crypto';
import type { SigningLibrary, SigningLibraryChoice } from './ed25519-signing.js';
import { loadSodium, type Sodium } from './sodium-native-binding.js';
import { sodiumVerifyWorker } from './ed25519-verify-worker.js';

/** A public key in both forms: node:crypto's KeyObject and its 32 raw bytes. */
export interface Ed25519PublicKey {
  object: KeyObject;
  raw: Uint8Array;
}

export interface Ed25519VerifyItem {
  message: Uint8Array;
  signature: Uint8Array;
  key: Ed25519PublicKey;
}

/** Verifies many signatures: OpenSSL's verdict for each, in order; `library` says what does the work. */
interface Ed25519BulkVerify {
  /**
   * `offLoop`: the caller is not waiting on these (a page checked ahead while another commits), so all of
   * libsodium's work goes to the worker, leaving the event loop to what is waited on.
   */
  (items: readonly Ed25519VerifyItem[], options?: { offLoop?: boolean }): Promise<boolean[]>;
  readonly library: SigningLibrary;
}

/** libsodium verifies this many in one go before the event loop gets a turn (~7 ms here). */
const SODIUM_RUN = 128;
/**
 * From this many signatures on, half go to the verification worker (ed25519-verify-worker.ts): an import
 * runs fastest half and half, the event loop being the busy part (figures: docs/benchmarks.md).
 */
const WORKER_MIN_BATCH = 64;

/**
 * The bulk verifier: libsodium first when it loads (`auto`) or when required (`libsodium`: an error if
 * it cannot load), node:crypto on the thread pool for everything otherwise (`node-crypto`).
 */
export function createEd25519BulkVerify(choice: SigningLibraryChoice = 'auto'): Ed25519BulkVerify {
  if (choice === 'node-crypto') return Object.assign(opensslAll, { library: 'node-crypto' as const });
  const loaded = loadSodium();
  if ('error' in loaded) {
    if (choice === 'libsodium')
      throw new Error(`SIGNING_LIBRARY=libsodium, but sodium-native cannot load: ${loaded.error.message}`);
    return Object.assign(opensslAll, { library: 'node-crypto' as const });
  }
  const sodium = loaded.sodium;
  return Object.assign(
    (items: readonly Ed25519VerifyItem[], options?: { offLoop?: boolean }) =>
      sodiumFirst(sodium, items, options?.offLoop ?? false),
    {
      library: 'libsodium' as const,
    },
  );
}

/**
 * libsodium on the event loop and, for a large batch, on the verification worker at the same time (half
 * each; all of it `offLoop`); then OpenSSL for every signature libsodium refused. If the worker fails,
 * its part is checked here instead.
 */
async function sodiumFirst(
  sodium: Sodium,
  items: readonly Ed25519VerifyItem[],
  offLoop: boolean,
): Promise<boolean[]> {
  const worker = offLoop || items.length >= WORKER_MIN_BATCH ? sodiumVerifyWorker() : null;
  const offloaded = worker ? (offLoop ? items.length : Math.floor(items.length / 2)) : 0;
  const workerAnswers = worker
    ? worker
        .check(
          items
            .slice(0, offloaded)
            .map(({ message, signature, key }) => ({ message, signature, publicKey: key.raw })),
        )
        .catch(() => null)
    : null;
  const sodiumAccepts: boolean[] = new Array(items.length);
  for (let i = offloaded; i < items.length; i++) {
    if (i > offloaded && (i - offloaded) % SODIUM_RUN === 0)
      await new Promise<void>((resolve) => setImmediate(resolve));
    sodiumAccepts[i] = sodiumSaysYes(sodium, items[i]!);
  }
  if (offloaded > 0) {
    const answers = await workerAnswers;
    for (let i = 0; i < offloaded; i++)
      sodiumAccepts[i] = answers ? answers[i] === 1 : sodiumSaysYes(sodium, items[i]!);
  }
  // Where libsodium said no, OpenSSL decides (rare: a forged, corrupted or deliberately odd signature).
  return Promise.all(items.map((item, i) => sodiumAccepts[i] || opensslVerify(item)));
}

function sodiumSaysYes(sodium: Sodium, { message, signature, key }: Ed25519VerifyItem): boolean {
  if (signature.length !== 64 || key.raw.length !== 32) return false;
  try {
    return sodium.crypto_sign_verify_detached(signature, message, key.raw);
  } catch {
    return false;
  }
}

/** node:crypto's verdict, computed on libuv's thread pool; any error is a no. */
function opensslVerify({ message, signature, key }: Ed25519VerifyItem): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    try {
      verify(null, message, key.object, signature, (err, ok) => resolve(!err && ok));
    } catch {
      resolve(false);
    }
  });
}

function opensslAll(items: readonly Ed25519VerifyItem[]): Promise<boolean[]> {
  return Promise.all(items.map(opensslVerify));
}
