// The import's write, in its transaction: our own records, then each accepted event verbatim on its
// local stream at the next local version, acted by its agent's local id; then the accepted events'
// nonces, remembered while an event carrying one could still be accepted.
import { CLOCK_SKEW_SECONDS, EVENT_WINDOW_SECONDS } from '@tributary/domain';
import type { AppendStream } from '../../ports/event-store.js';
import type { ImportedRow, ImportTransaction } from '../ports/federation.js';
import type { Placed } from './batch.js';

export async function appendImported(
  tx: ImportTransaction,
  o: { origin: string; now: Date; onOurFeed: boolean },
  local: AppendStream[],
  accepted: readonly Placed[],
  localId: (remoteAgentId: string) => string,
  /** The current versions of the local streams, as looked up under the lock (moved on here). */
  versions: Map<string, number>,
): Promise<void> {
  const rows: ImportedRow[] = accepted.map((c) => {
    const localVersion = (versions.get(c.localStream) ?? 0) + 1;
    versions.set(c.localStream, localVersion);
    return {
      envelope: c.envelope,
      text: c.text,
      localStream: c.localStream,
      localVersion,
      actorId: localId(c.envelope.actorId),
      ...(o.onOurFeed && { onFeed: true }),
    };
  });
  await tx.append(local, rows);
  const keepFor = (EVENT_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
  await tx.rememberNonces(
    o.origin,
    accepted.map((c) => ({
      nonce: c.envelope.nonce,
      eventId: c.envelope.id,
      expiresAt: new Date(Math.max(Date.parse(c.envelope.occurredAt), o.now.getTime()) + keepFor),
    })),
  );
}
