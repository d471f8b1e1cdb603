// The builder's HEIC/HEIF decoder (docs/builder.md#media) on heic-decode, the maintained wrapper of
// libheif-js (libheif with libde265 compiled to WebAssembly). sharp's prebuilt libvips reads a HEIC's
// header but has no HEVC decoder (patents keep it out of the prebuilt binaries), and a native libheif
// would be an install step outside npm.
// - Each decode runs in a worker thread of its own, ended once it answers: WebAssembly memory only
//   grows, so a 48-megapixel photo decoded in the main thread would keep its ~0.5 GB for the life of the
//   process; ended with the worker, it is given back. A decode that runs past its time is ended too.
// - The primary image's size is read from the file before any pixel is decoded, and a file claiming
//   more than `maxPixels` is refused there (the decompression guard).
import type { HeifDecodeResult, HeifDecoder } from '@tributary/services';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Decoding a photo of 48 megapixels takes about 3 s on one core; past this it is ended. */
const DEFAULT_TIMEOUT_MS = 60_000;

// The worker's code: ESM, since it is evaluated from an ES module. It answers one message and is ended.
const WORKER = `
const { parentPort, workerData } = await import('node:worker_threads');
const decode = (await import(workerData.module)).default;
const { bytes, maxPixels } = workerData;
try {
  const images = await decode.all({ buffer: bytes });
  try {
    const first = images[0];
    if (!first) parentPort.postMessage({ ok: false, reason: 'unreadable' });
    else if (first.width * first.height > maxPixels || !(first.width > 0 && first.height > 0))
      parentPort.postMessage({ ok: false, reason: 'too_many_pixels', width: first.width, height: first.height });
    else {
      const { width, height, data } = await first.decode();
      parentPort.postMessage({ ok: true, image: { width, height, rgba: data } }, [data.buffer]);
    }
  } finally {
    images.dispose();
  }
} catch {
  parentPort.postMessage({ ok: false, reason: 'unreadable' });
}
`;

export function createLibheifDecoder(o: { timeoutMs?: number } = {}): HeifDecoder {
  const module = pathToFileURL(createRequire(import.meta.url).resolve('heic-decode')).href;
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    decode(bytes, maxPixels) {
      return new Promise<HeifDecodeResult>((resolve) => {
        const worker = new Worker(WORKER, {
          eval: true,
          workerData: { module, bytes: Uint8Array.from(bytes), maxPixels },
          // libheif prints its complaints about a bad file; the answer says all that matters.
          stdout: true,
          stderr: true,
        });
        worker.stdout.resume();
        worker.stderr.resume();
        let settled = false;
        const done = (r: HeifDecodeResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          resolve(r);
        };
        const timer = setTimeout(() => done({ ok: false, reason: 'unreadable' }), timeoutMs);
        worker.once('message', (m: HeifDecodeResult) =>
          done(m.ok ? { ok: true, image: { ...m.image, rgba: new Uint8Array(m.image.rgba.buffer) } } : m),
        );
        // Out of memory in the worker, or anything else it did not answer: the file is not readable here.
        worker.once('error', () => done({ ok: false, reason: 'unreadable' }));
        worker.once('exit', () => done({ ok: false, reason: 'unreadable' }));
      });
    },
  };
}
