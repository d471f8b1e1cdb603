// A worker thread that runs libsodium's Ed25519 verification, so a large batch from a peer is checked
// off the event loop: during an import the event loop is the busy part, verifying most of the time,
// while the second core is half idle (docs/benchmarks.md).
//
// The worker only says which signatures libsodium accepts; the caller still asks OpenSSL about every one
// it refused (ed25519-verification.ts), so the verdicts are the same wherever the work runs.
//
// The worker's source is plain JavaScript evaluated in the thread (no TypeScript loader needed there),
// and it loads the same sodium-native file as the main thread. One worker serves the whole process: the
// work is stateless, and batches queue in its message port. While idle it does not keep the process
// alive.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** One signature to check: the message, the 64-byte signature and the 32-byte public key. */
interface SodiumCheck {
  message: Uint8Array;
  signature: Uint8Array;
  publicKey: Uint8Array;
}

// Layout of a request, all in one transferred buffer: per item a 4-byte little-endian message length,
// the message, the signature (64) and the key (32). The answer is one byte per item: 1 accepted, 0 not.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sodium = require(workerData.sodiumPath);
parentPort.on('message', ({ id, buffer, count }) => {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  const verdicts = new Uint8Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(at, true);
    at += 4;
    const message = bytes.subarray(at, (at += length));
    const signature = bytes.subarray(at, (at += 64));
    const publicKey = bytes.subarray(at, (at += 32));
    try {
      verdicts[i] = sodium.crypto_sign_verify_detached(signature, message, publicKey) ? 1 : 0;
    } catch {
      verdicts[i] = 0;
    }
  }
  parentPort.postMessage({ id, verdicts }, [verdicts.buffer]);
});
`;

interface SodiumVerifyWorker {
  /** For each check, whether libsodium accepts it. Rejects if the worker failed. */
  check(items: readonly SodiumCheck[]): Promise<Uint8Array>;
  /** Stops the thread; checks it held are refused, and the next check starts a new one. */
  terminate(): Promise<void>;
}

let shared: SodiumVerifyWorker | null | undefined;

/** The process's verification worker; null when none can run here (the caller verifies in-thread). */
export function sodiumVerifyWorker(): SodiumVerifyWorker | null {
  if (shared === undefined) {
    try {
      shared = startWorker(createRequire(import.meta.url).resolve('sodium-native'));
    } catch {
      shared = null;
    }
  }
  return shared;
}

function startWorker(sodiumPath: string): SodiumVerifyWorker {
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(v: Uint8Array): void; reject(e: unknown): void }>();
  // A worker that failed fails every check it held; the next check starts a new one. (Its 'exit' after
  // its 'error' must not touch the worker started since.)
  const failed = (w: Worker) => (error: unknown) => {
    if (worker !== w) return;
    worker = null;
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  const ensure = () => {
    if (worker) return worker;
    // No inherited execArgv: the source is plain JavaScript, and a loader the parent was started with
    // (`--import tsx` in tests and benchmarks) would only add a hooks thread to the worker's start.
    const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { sodiumPath } });
    w.on('message', ({ id, verdicts }: { id: number; verdicts: Uint8Array }) => {
      const pending = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) w.unref();
      pending?.resolve(verdicts);
    });
    w.on('error', failed(w));
    w.on('exit', (code) => failed(w)(new Error(`the verification worker exited (${code})`)));
    // After the listeners (adding a 'message' listener refs the worker again): idle, it does not keep
    // the process alive; while a check is pending, it does (`check` refs it).
    w.unref();
    worker = w;
    return w;
  };
  return {
    async terminate() {
      await worker?.terminate();
    },
    check(items) {
      let size = 0;
      for (const it of items) size += 4 + it.message.length + 64 + 32;
      const buffer = new ArrayBuffer(size);
      const bytes = new Uint8Array(buffer);
      const view = new DataView(buffer);
      let at = 0;
      for (const it of items) {
        if (it.signature.length !== 64 || it.publicKey.length !== 32)
          throw new TypeError('sodium check: a signature is 64 bytes and a key 32');
        view.setUint32(at, it.message.length, true);
        bytes.set(it.message, (at += 4));
        bytes.set(it.signature, (at += it.message.length));
        bytes.set(it.publicKey, (at += 64));
        at += 32;
      }
      const id = nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        try {
          const w = ensure();
          w.ref();
          w.postMessage({ id, buffer, count: items.length }, [buffer]);
        } catch (error) {
          waiting.delete(id);
          reject(error);
        }
      });
    },
  };
}
