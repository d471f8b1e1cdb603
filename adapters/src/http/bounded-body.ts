// A raw request body read by the fast paths that answer before Express (a site's form posts, Stripe's
// webhook): bounded, and a refused body is drained so the refusal still reaches the client.
import type { IncomingMessage } from 'node:http';

/** Past this much of a refused body, the socket is cut rather than read on. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

/** The raw body, or null past `max` bytes (the rest is drained, not kept; past a limit the socket is cut). */
export function readBoundedBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) {
    drainBody(req);
    return Promise.resolve(null);
  }
  // Listeners rather than for-await: leaving an async iterator early destroys the request, and with it
  // the socket the refusal has to go out on.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd);
      drainBody(req);
      resolve(null);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    req
      .on('data', onData)
      .on('end', onEnd)
      .on('error', reject)
      .on('aborted', () => reject(new Error('request aborted')));
  });
}

/** Reads and discards the rest of a refused body, so the client gets the answer; hangs up past a limit. */
export function drainBody(req: IncomingMessage): void {
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.resume();
}
