// The SyncCursorStore port on PostgreSQL. An attempt holds a session advisory lock on its cursor, taken
// on one dedicated connection outside the pool, for its whole duration: two workers — two processes, or
// a BullMQ job and a sweep — never run one cursor at once, and no pool connection is held while a peer is
// called (so attempts cannot starve the pool the imports and HTTP handlers need). The outcome is written
// only after the attempt returns; a crash anywhere before that ends the lock's session, releases the
// lock, and leaves the cursor where it was: the batch is simply sent again, and deduplicated.
import type { SyncDirection } from '@tributary/domain';
import type { PushReceipt, SyncCursor, SyncCursorStore, SyncOutcome } from '@tributary/services';
import pg, { type Pool } from 'pg';

/** Advisory lock namespace of sync cursors (the second key is a hash of peer and direction). */
const CURSOR_LOCK = 732113_8;

interface CursorRow {
  peer_id: string;
  direction: SyncDirection;
  position: string;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  last_error_code: string | null;
  last_error: string | null;
  peer_head: string | null;
  accepted: string;
  duplicates: string;
  rejected: string;
  last_rejection: string | null;
  replaying_history: boolean;
  pushed_at: Date | null;
}

const toCursor = (r: CursorRow): SyncCursor => ({
  peerId: r.peer_id,
  direction: r.direction,
  position: Number(r.position),
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastAttemptAt: r.last_attempt_at,
  lastSuccessAt: r.last_success_at,
  lastErrorCode: r.last_error_code,
  lastError: r.last_error,
  peerHead: r.peer_head === null ? null : Number(r.peer_head),
  accepted: Number(r.accepted),
  duplicates: Number(r.duplicates),
  rejected: Number(r.rejected),
  lastRejection: r.last_rejection,
  replayingHistory: r.replaying_history,
  pushedAt: r.pushed_at,
});

/** How long a received push waits for a running pull of its sender to end before importing anyway. */
const PUSH_WAITS_FOR_PULL_MS = 10_000;

const ENSURE = `INSERT INTO federation_sync_cursors (peer_id, direction, next_attempt_at, created_at)
  VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING`;

/** Missing cursors are looked for at most this often. */
const ENSURE_EVERY_MS = 1000;
/** How far behind the head the sweep looks for the origins a relay's listing peers take. */
const DUE_WINDOW = 10_000;
/**
 * A listing peer's push cursor with nothing to take is moved to the head once this far behind, or once
 * this long after it last moved: each such cursor is written at most once a second (plus once per
 * BUMP_BEHIND events), not on every sweep, and still shows within a second how far the peer is served.
 */
const BUMP_BEHIND = 2_000;
const BUMP_EVERY_MS = 1_000;

/** Cursors (all, or those of `peerIds`) with each push cursor's backlog: our feed events past it. */
async function listCursors(pool: Pool, peerIds: readonly string[] | null): Promise<SyncCursor[]> {
  const { rows } = await pool.query<CursorRow & { backlog: string | null }>(
    `SELECT c.*, CASE WHEN c.direction = 'push' THEN
              (SELECT count(*) FROM event_sequence s WHERE s.feed AND s.seq > c.position) END AS backlog
       FROM federation_sync_cursors c WHERE $1::text[] IS NULL OR c.peer_id = ANY($1::text[])
      ORDER BY c.peer_id, c.direction`,
    [peerIds],
  );
  return rows.map((r) => ({
    ...toCursor(r),
    ...(r.backlog !== null && { backlog: Number(r.backlog) }),
  }));
}

export function createPgSyncCursors(pool: Pool): SyncCursorStore {
  let ensuredAt = -Infinity;
  // The lock session: one connection of its own, opened on first use, reopened if it dies (its locks
  // die with it, which is what a crash needs).
  let lockClient: Promise<pg.Client> | null = null;
  const lockSession = async (): Promise<pg.Client> => {
    lockClient ??= (async () => {
      const client = new pg.Client(pool.options);
      client.on('error', () => {
        lockClient = null;
      });
      client.on('end', () => {
        lockClient = null;
      });
      await client.connect();
      return client;
    })().catch((e: unknown) => {
      lockClient = null;
      throw e;
    });
    return lockClient;
  };
  // One query at a time on the lock session (pg deprecates overlapping queries on one client).
  let queue: Promise<unknown> = Promise.resolve();
  const onLockSession = <T>(sql: string, params: unknown[]): Promise<T> => {
    const run = queue.then(async () => {
      const client = await lockSession();
      return (await client.query(sql, params)).rows[0] as T;
    });
    queue = run.catch(() => undefined);
    return run;
  };
  // The cursors this process holds: a session advisory lock is re-entrant, so two holders in one
  // process (a pull attempt and a received push, on one lock session) are told apart here.
  const held = new Set<string>();
  const tryHold = async (key: string): Promise<boolean> => {
    if (held.has(key)) return false;
    held.add(key);
    const got = await onLockSession<{ ok: boolean } | undefined>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
      [CURSOR_LOCK, key],
    ).catch((e: unknown) => {
      held.delete(key);
      throw e;
    });
    if (!got?.ok) held.delete(key);
    return got?.ok === true;
  };
  const release = async (key: string) => {
    held.delete(key);
    // A dead session released it already.
    await onLockSession('SELECT pg_advisory_unlock($1, hashtext($2))', [CURSOR_LOCK, key]).catch(
      () => undefined,
    );
  };
  return {
    async whilePullHeld(peerId, fn) {
      const key = `pull:${peerId}`;
      const until = Date.now() + PUSH_WAITS_FOR_PULL_MS;
      let got = await tryHold(key);
      while (!got && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
        got = await tryHold(key);
      }
      try {
        return await fn();
      } finally {
        if (got) await release(key);
      }
    },

    async attempt(peerId, direction, now, attempt) {
      const key = `${direction}:${peerId}`;
      if (!(await tryHold(key))) return null;
      try {
        await pool.query(ENSURE, [peerId, direction, now]);
        const { rows } = await pool.query<CursorRow>(
          'SELECT * FROM federation_sync_cursors WHERE peer_id = $1 AND direction = $2',
          [peerId, direction],
        );
        const outcome: SyncOutcome = await attempt(toCursor(rows[0]!));
        if (outcome.kind === 'answered')
          await pool.query(
            // GREATEST: a cursor never moves back, even if a lost lock session let two attempts overlap.
            `UPDATE federation_sync_cursors SET
               position = GREATEST(position, $3), attempts = 0, next_attempt_at = $4, last_attempt_at = $5,
               last_success_at = CASE WHEN $6 THEN $5 ELSE last_success_at END,
               last_error_code = CASE WHEN $6 THEN NULL ELSE last_error_code END,
               last_error = CASE WHEN $6 THEN NULL ELSE last_error END,
               peer_head = coalesce($7, peer_head),
               accepted = accepted + $8, duplicates = duplicates + $9, rejected = rejected + $10,
               last_rejection = CASE WHEN $6 THEN $11 ELSE last_rejection END,
               replaying_history = $12
             WHERE peer_id = $1 AND direction = $2`,
            [
              peerId,
              direction,
              outcome.position,
              outcome.more ? now : outcome.idleUntil,
              now,
              outcome.contacted,
              outcome.peerHead ?? null,
              outcome.accepted,
              outcome.duplicates,
              outcome.rejected,
              outcome.rejection,
              outcome.replayingHistory ?? false,
            ],
          );
        else
          await pool.query(
            `UPDATE federation_sync_cursors SET attempts = attempts + 1, next_attempt_at = $3,
               last_attempt_at = $4, last_error_code = $5, last_error = $6
             WHERE peer_id = $1 AND direction = $2`,
            [peerId, direction, outcome.retryAt, now, outcome.code, outcome.message.slice(0, 500)],
          );
        return outcome;
      } finally {
        await release(key);
      }
    },

    async close() {
      const session = lockClient;
      lockClient = null;
      if (session) await (await session).end().catch(() => undefined);
    },

    async list() {
      return listCursors(pool, null);
    },

    async listFor(peerIds) {
      return peerIds.length === 0 ? [] : listCursors(pool, peerIds);
    },

    async due(now, directions) {
      if (directions.length === 0) return [];
      // Every registered peer has a cursor per direction from its first sweep on: the ones missing are
      // added, at most once a second (an anti-join over the peers, not an upsert of every cursor per sweep).
      if (now.getTime() - ensuredAt >= ENSURE_EVERY_MS || now.getTime() < ensuredAt) {
        await pool.query(
          `INSERT INTO federation_sync_cursors (peer_id, direction, next_attempt_at, created_at)
             SELECT p.peer_id, d.direction, $1, $1 FROM rm_peers p CROSS JOIN unnest($2::text[]) AS d(direction)
              WHERE NOT EXISTS (SELECT 1 FROM federation_sync_cursors c
                                 WHERE c.peer_id = p.peer_id AND c.direction = d.direction)
           ON CONFLICT DO NOTHING`,
          [now, directions],
        );
        ensuredAt = now.getTime();
      }
      // A pull cursor is due on its schedule. A push cursor is due when our feed has something past it
      // that the peer takes: on a relay (role global), a peer that listed the origins it follows takes
      // only those and ours (relay.ts, relayFilterFor), so new events of other origins do not wake its
      // cursor — with a thousand peers following a few origins each, an event wakes the few that take
      // it, not all of them. Which origins have events past such cursors is read once per sweep, from
      // the lowest of them (at most DUE_WINDOW behind the head: a cursor further back is simply due, and
      // its attempt moves it to the head). A cursor with nothing to take is moved to the head in bulk
      // (in the same statement, so on the same snapshot as what it skips): at most once a second, or
      // once BUMP_BEHIND behind, which keeps the window small without writing every cursor every sweep.
      const { rows } = await pool.query<{ peer_id: string; direction: SyncDirection }>(
        `WITH head AS (SELECT coalesce(max(seq), 0) AS h FROM event_sequence WHERE feed),
         me AS (SELECT instance_id, role = 'global' AS relay FROM rm_instance),
         cand AS (
           SELECT c.peer_id, c.direction, c.position, c.next_attempt_at, f.origins,
                  coalesce((SELECT relay FROM me), false) AND f.mode = 'list' AS listed
             FROM federation_sync_cursors c JOIN rm_peers p USING (peer_id)
             LEFT JOIN relay_peer_following f USING (peer_id)
            WHERE NOT p.blocked AND c.direction = ANY($2::text[]) AND c.next_attempt_at <= $1
              AND (c.direction = 'pull' OR c.position < (SELECT h FROM head))),
         low AS (
           SELECT GREATEST(min(position), (SELECT h FROM head) - $3) AS l FROM cand
            WHERE direction = 'push' AND listed),
         recent AS (
           SELECT e.origin, max(s.seq) AS last FROM event_sequence s JOIN events e ON e.position = s.position
            WHERE s.feed AND s.seq > (SELECT l FROM low)
              AND EXISTS (SELECT 1 FROM cand WHERE direction = 'push' AND listed)
            GROUP BY e.origin),
         judged AS (
           SELECT x.*, (x.direction = 'pull' OR NOT coalesce(x.listed, false)
                        OR x.position < (SELECT l FROM low)
                        OR EXISTS (SELECT 1 FROM recent r
                                    WHERE r.last > x.position AND r.origin <> x.peer_id
                                      AND (r.origin = (SELECT instance_id FROM me) OR r.origin = ANY(x.origins))))
                       AS is_due
             FROM cand x),
         bumped AS (
           UPDATE federation_sync_cursors c
              SET position = GREATEST(c.position, (SELECT h FROM head)), last_attempt_at = $1
             FROM judged j
            WHERE c.peer_id = j.peer_id AND c.direction = 'push' AND j.direction = 'push' AND NOT j.is_due
              AND (j.position < (SELECT h FROM head) - $4 OR c.last_attempt_at IS NULL
                   OR c.last_attempt_at <= $5)
           RETURNING 1)
         SELECT peer_id, direction FROM judged WHERE is_due ORDER BY next_attempt_at LIMIT 200`,
        [now, directions, DUE_WINDOW, BUMP_BEHIND, new Date(now.getTime() - BUMP_EVERY_MS)],
      );
      return rows.map((r) => ({ peerId: r.peer_id, direction: r.direction }));
    },

    async pulledThrough(peerId) {
      const { rows } = await pool.query<{ position: string }>(
        `SELECT position FROM federation_sync_cursors WHERE peer_id = $1 AND direction = 'pull'`,
        [peerId],
      );
      return rows[0] ? Number(rows[0].position) : null;
    },

    async pushReceived(peerId, { after, through }, now): Promise<PushReceipt> {
      // Row locks only (no advisory lock): a pull attempt running meanwhile writes GREATEST(position, …)
      // and so never moves the cursor back over what the push brought.
      await pool.query(ENSURE, [peerId, 'pull', now]);
      const { rows } = await pool.query<{ position: string; gap: boolean }>(
        `UPDATE federation_sync_cursors SET
           position = CASE WHEN position >= $3::bigint THEN GREATEST(position, $4::bigint) ELSE position END,
           pushed_at = CASE WHEN position >= $3 THEN $5::timestamptz ELSE NULL END,
           last_success_at = CASE WHEN position >= $3 THEN $5 ELSE last_success_at END,
           peer_head = CASE WHEN position >= $3 THEN GREATEST(coalesce(peer_head, 0), $4) ELSE peer_head END,
           -- A gap: what came between was lost or is still on its way; the pull fetches it now.
           next_attempt_at = CASE WHEN position >= $3 THEN next_attempt_at ELSE LEAST(next_attempt_at, $5) END
         WHERE peer_id = $1 AND direction = $2
         RETURNING position, position < $3 AS gap`,
        [peerId, 'pull', after, through, now],
      );
      const row = rows[0]!;
      return { kind: row.gap ? 'gap' : 'advanced', position: Number(row.position) };
    },

    async peerAnswered(peerId, now) {
      // Only cursors in backoff move; a healthy pull keeps its schedule. SKIP LOCKED: a running attempt
      // writes its own outcome.
      await pool.query(
        `UPDATE federation_sync_cursors SET next_attempt_at = $2
          WHERE (peer_id, direction) IN (
            SELECT peer_id, direction FROM federation_sync_cursors
             WHERE peer_id = $1 AND attempts > 0 AND next_attempt_at > $2 FOR UPDATE SKIP LOCKED)`,
        [peerId, now],
      );
    },
  };
}
