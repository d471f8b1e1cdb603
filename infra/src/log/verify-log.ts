// The auditor's check: replay the whole log, re-verify every signature on the stored bytes, check that
// every row's columns agree with its signed envelope, and that every stream's versions form a chain (a
// peer's stream, imported here, by the origin versions its envelopes carry).
// Keys are learned from the log itself (an instance publishes its keys as events), never from read models.
import { isDomainError, type DomainErrorCode, type EventData } from '@tributary/domain';
import type { KeyObject } from 'node:crypto';
import type { Pool } from 'pg';
import {
  prepareEnvelopeVerification,
  publicKeyFromBase64url,
  verifyPreparedAsync,
} from '../signing/index.js';

interface VerifyReport {
  ok: boolean;
  events: number;
  /**
   * Events signed by a revoked key at or after its revocation time (each origin's own announcement, or
   * the key history a peer was registered with).
   */
  flagged: number;
  streams: number;
  origins: Record<string, number>;
  firstBad?: {
    position: number;
    id: string | null;
    stream: string | null;
    reason: string;
    code: DomainErrorCode;
  };
}

const BATCH = 5000;

interface Row {
  position: string;
  id: string;
  origin: string;
  stream: string;
  stream_version: number;
  type: string;
  envelope: string;
}

function keyIn(row: Row): { keyId: string; publicKey: string } | null {
  try {
    const data = (JSON.parse(row.envelope) as { data: Record<string, unknown> }).data;
    const k = (
      row.type === 'instance.initialized' ? (data as EventData<'instance.initialized'>).signingKey : data
    ) as {
      keyId?: unknown;
      publicKey?: unknown;
    };
    return typeof k.keyId === 'string' && typeof k.publicKey === 'string'
      ? { keyId: k.keyId, publicKey: k.publicKey }
      : null;
  } catch {
    return null;
  }
}

export async function verifyLog(
  pool: Pool,
  progress?: (done: number, total: number) => void,
): Promise<VerifyReport> {
  const total = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
  const keys = new Map<string, KeyObject>();
  const keyFor = (origin: string, keyId: string) => keys.get(`${origin} ${keyId}`);
  const learnKey = (origin: string, keyId: string, publicKey: string) =>
    keys.set(`${origin} ${keyId}`, publicKeyFromBase64url(publicKey));
  const origins: Record<string, number> = {};
  // Per imported stream, the origin version of its last row: each row must pass it (rows are read in
  // position order, which within a stream is its local version order).
  const importedHeads = new Map<string, number>();
  // Versions of a relayed origin's stream that may arrive below its head: those in a gap a relay left,
  // filled later from the origin (docs/federation.md#relay).
  const gapRows = (
    await pool.query<{ origin: string; stream: string; from_version: number; to_version: number }>(
      'SELECT origin, stream, from_version, to_version FROM relay_chain_gaps',
    )
  ).rows;
  const fillsGap = (origin: string, stream: string, version: number) =>
    gapRows.some(
      (g) =>
        g.origin === origin && g.stream === stream && version >= g.from_version && version <= g.to_version,
    );
  const heldVersions = new Set<string>();
  // Each origin's revocations, from its own signed announcements (ours, or a peer's as imported).
  const revocations = new Map<string, { origin: string; keyId: string; revokedAfter: string }>();
  /** The earliest revocation time of an origin's key counts. */
  const revoke = (origin: string, keyId: string, revokedAfter: string) => {
    const known = revocations.get(`${origin} ${keyId}`);
    if (!known || Date.parse(revokedAfter) < Date.parse(known.revokedAfter))
      revocations.set(`${origin} ${keyId}`, { origin, keyId, revokedAfter });
  };
  let done = 0;
  let last = '0';
  for (;;) {
    const { rows } = await pool.query<Row>(
      `SELECT position, id, origin, stream, stream_version, type, envelope FROM events
       WHERE position > $1 ORDER BY position LIMIT $2`,
      [last, BATCH],
    );
    if (rows.length === 0) break;
    // Each row is parsed, checked and canonicalized here while the Ed25519 checks of the rows before it
    // run on the thread pool (the second core); the batch's first failure by position is what counts.
    const failures: VerifyReport['firstBad'][] = [];
    const pending: Promise<void>[] = [];
    const failAt = (row: Row, code: DomainErrorCode, reason: string) =>
      failures.push({ position: Number(row.position), id: row.id, stream: row.stream, code, reason });
    for (const row of rows) {
      // An instance's first event introduces its own key (trust on first use: the auditor compares it
      // with the key the instance publishes). Later keys count only once a known key has signed them.
      if (row.type === 'instance.initialized' && !row.stream.includes('/')) {
        const k = keyIn(row);
        if (!k) {
          failAt(row, 'envelope.malformed', 'the key event is not readable');
          break;
        }
        learnKey(row.origin, k.keyId, k.publicKey);
      }
      let prepared;
      try {
        prepared = prepareEnvelopeVerification(row.envelope, keyFor);
      } catch (e) {
        if (!isDomainError(e)) throw e;
        failAt(row, e.code, e.message);
        break;
      }
      const envelope = prepared.envelope;
      // An event imported from a peer sits under `<origin>/<stream>`, numbered locally in arrival order.
      const imported = row.stream === `${envelope.origin}/${envelope.stream}`;
      if (
        envelope.id !== row.id ||
        envelope.origin !== row.origin ||
        (envelope.stream !== row.stream && !imported) ||
        (envelope.streamVersion !== row.stream_version && !imported) ||
        envelope.type !== row.type
      ) {
        failAt(row, 'log.row_mismatch', 'the row does not match its signed envelope');
        break;
      }
      // A peer's stream is a chain: its versions only increase (they may skip the origin's private
      // events), and no version is held twice.
      if (imported) {
        const head = importedHeads.get(row.stream) ?? 0;
        if (envelope.streamVersion === head) {
          failAt(
            row,
            'log.imported_equivocation',
            `a second event at version ${head} of ${envelope.origin}'s stream ${envelope.stream}`,
          );
          break;
        }
        const place = `${envelope.streamVersion} ${row.stream}`;
        if (
          envelope.streamVersion < head &&
          fillsGap(envelope.origin, envelope.stream, envelope.streamVersion)
        ) {
          if (heldVersions.has(place)) {
            failAt(
              row,
              'log.imported_equivocation',
              `a second event at version ${envelope.streamVersion} of ${envelope.origin}'s stream ${envelope.stream}`,
            );
            break;
          }
        } else if (envelope.streamVersion < head) {
          failAt(
            row,
            'log.imported_out_of_order',
            `version ${envelope.streamVersion} of ${envelope.origin}'s stream ${envelope.stream} after version ${head}`,
          );
          break;
        }
        if (gapRows.length > 0) heldVersions.add(place);
        if (envelope.streamVersion > head) importedHeads.set(row.stream, envelope.streamVersion);
      }
      pending.push(
        verifyPreparedAsync(prepared).then((ok) => {
          if (!ok) failAt(row, 'envelope.bad_signature', 'envelope signature does not verify');
        }),
      );
      // Keys an event introduces are learned now, for the rows after it; if the event's own signature
      // turns out bad, that failure has the lower position and is the one reported.
      // A peer's keys are learned from our own registry events, never from the peer's.
      if (!imported && (row.type === 'peer.registered' || row.type === 'peer.key_rotated')) {
        const k = keyIn(row);
        if (!k) {
          failAt(row, 'envelope.malformed', 'the key event is not readable');
          break;
        }
        const peer = row.stream.slice('peer-'.length);
        learnKey(peer, k.keyId, k.publicKey);
        // A peer registered after it rotated: the earlier keys its manifest listed (vouched for by the
        // current key) verify what it signed before, as the import took it, revocations included.
        if (row.type === 'peer.registered') {
          const earlier = (envelope.data as EventData<'peer.registered'>).previousKeys ?? [];
          for (const p of earlier) {
            learnKey(peer, p.keyId, p.publicKey);
            if (p.revokedAfter !== undefined) revoke(peer, p.keyId, p.revokedAfter);
          }
        }
      }
      // An origin known through a relay: its keys as we pinned them (our own record, never the origin's).
      if (!imported && row.type === 'federation.origin_keys_learned') {
        const d = (
          JSON.parse(row.envelope) as {
            data: { origin: string; keys: { keyId: string; publicKey: string }[] };
          }
        ).data;
        for (const k of d.keys) learnKey(d.origin, k.keyId, k.publicKey);
      }
      // An instance's later keys: ours from our own events, a peer's from the rotations it announced
      // (each signed by a key already known for it: its signature is checked like any other row's).
      const ownStream = imported ? envelope.stream : row.stream;
      if (
        (row.type === 'instance.key_added' && !imported) ||
        (row.type === 'instance.key_rotated' && ownStream === 'instance')
      ) {
        const k = keyIn(row);
        if (!k) {
          failAt(row, 'envelope.malformed', 'the key event is not readable');
          break;
        }
        learnKey(row.origin, k.keyId, k.publicKey);
      }
      if (row.type === 'instance.key_revoked' && ownStream === 'instance') {
        const d = envelope.data as { keyId?: unknown; revokedAfter?: unknown };
        if (typeof d.keyId !== 'string' || typeof d.revokedAfter !== 'string') {
          failAt(row, 'envelope.malformed', 'the key event is not readable');
          break;
        }
        revoke(row.origin, d.keyId, d.revokedAfter);
      }
      origins[row.origin] = (origins[row.origin] ?? 0) + 1;
    }
    await Promise.all(pending);
    if (failures.length > 0) {
      const first = failures.reduce((a, b) => (b!.position < a!.position ? b : a))!;
      return {
        ok: false,
        events: done + rows.filter((r) => Number(r.position) < first.position).length,
        flagged: 0,
        streams: 0,
        origins,
        firstBad: first,
      };
    }
    done += rows.length;
    last = rows[rows.length - 1]!.position;
    progress?.(done, total);
  }

  // Every stream's versions must be exactly 1..n.
  const chain = await pool.query<{ stream: string; n: string; lo: number; hi: number; d: string }>(
    `SELECT stream, count(*) AS n, min(stream_version) AS lo, max(stream_version) AS hi, count(DISTINCT stream_version) AS d
     FROM events GROUP BY stream
     HAVING min(stream_version) <> 1 OR max(stream_version) <> count(*) OR count(DISTINCT stream_version) <> count(*)
     ORDER BY min(position) LIMIT 1`,
  );
  const streams = Number(
    (await pool.query<{ n: string }>('SELECT count(DISTINCT stream) AS n FROM events')).rows[0]!.n,
  );
  const broken = chain.rows[0];
  if (broken)
    return {
      ok: false,
      events: done,
      flagged: 0,
      streams,
      origins,
      firstBad: {
        position: 0,
        id: null,
        stream: broken.stream,
        code: 'log.version_chain_broken',
        reason: `stream versions are not 1..n (count ${broken.n}, min ${broken.lo}, max ${broken.hi})`,
      },
    };
  // What a revoked key signed from its revocation time on is not its origin's: flagged, first by position.
  let flagged = 0;
  let firstFlagged: VerifyReport['firstBad'];
  for (const r of revocations.values()) {
    const { rows: hits } = await pool.query<{ position: string; id: string; stream: string; n: string }>(
      `SELECT position, id, stream, count(*) OVER () AS n FROM events
       WHERE origin = $1 AND occurred_at >= $3 AND (envelope::jsonb ->> 'keyId') = $2
       ORDER BY position LIMIT 1`,
      [r.origin, r.keyId, r.revokedAfter],
    );
    const hit = hits[0];
    if (!hit) continue;
    flagged += Number(hit.n);
    if (!firstFlagged || Number(hit.position) < firstFlagged.position)
      firstFlagged = {
        position: Number(hit.position),
        id: hit.id,
        stream: hit.stream,
        code: 'log.revoked_key',
        reason: `signed by ${r.keyId}, which ${r.origin} revoked for what it signed from ${r.revokedAfter} on`,
      };
  }
  if (firstFlagged) return { ok: false, events: done, flagged, streams, origins, firstBad: firstFlagged };
  return { ok: true, events: done, flagged, streams, origins };
}
