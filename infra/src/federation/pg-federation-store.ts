// The FederationStore port on PostgreSQL: imports run in one transaction under a per-origin advisory
// lock (so two batches from one peer cannot interleave their dedup checks and stream numbering), and
// the request and event nonce tables.
//
// The lookups by a batch of keys probe the unique index once per key (a LATERAL subquery with LIMIT, or a
// scalar max() per stream, cannot be turned into a join): planned as `= ANY(array)`, a log that grew fast
// since its last ANALYZE got a bitmap scan over all of the origin's events, or a sequential scan, per
// batch — time that grows with the log, inside the import lock.
import {
  versionPlace,
  type AgentBinding,
  type FederationStore,
  type ImportTransaction,
} from '@tributary/services';
import type { Pool } from 'pg';
import { escapeLiteral, inlineStatement } from '../postgres/one-trip-append.js';
import { translateLogError, type PgEventStore } from '../postgres/pg-event-store.js';
import { checkOutClient } from '../postgres/held-client.js';

const IMPORT_LOCK = 732113_5;
/** How often nonce tables are pruned, at most. */
const PRUNE_EVERY_MS = 60_000;

export function createPgFederationStore(
  pool: Pool,
  store: PgEventStore,
  options: { onAppended?: () => void; now: () => Date },
): FederationStore {
  let lastPrune = 0;
  const self: FederationStore = {
    async holdingImports(origin, work) {
      // The import lock in a transaction of its own that writes nothing: imports from `origin` wait at
      // their first statement (they hold nothing else yet), so `work` may commit on other connections.
      const client = await checkOutClient(pool);
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [IMPORT_LOCK, origin]);
        try {
          return await work();
        } finally {
          await client.query('ROLLBACK').catch(() => undefined);
        }
      } finally {
        client.release();
      }
    },
    async importing(origin, work) {
      const client = await checkOutClient(pool);
      let appended = false;
      // BEGIN and the lock go with the first query, and the writes (when the projections can say them
      // up front) with the COMMIT: an import is two round trips, both inlined (values are escaped as
      // pg.escapeLiteral does), so the lock is held for as short a time as the work allows.
      let begin = `BEGIN; SELECT pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${escapeLiteral(origin)}));\n`;
      let beforeCommit = '';
      /** Sends BEGIN and the lock now, if no query carried them yet. */
      const begun = async () => {
        if (begin === '') return;
        await client.query(begin);
        begin = '';
      };
      try {
        const tx: ImportTransaction = {
          async lookup(o, keys) {
            const statements = [
              inlineStatement(
                `SELECT q.id FROM unnest($2::text[]) AS q(id)
                 CROSS JOIN LATERAL (SELECT 1 FROM events e WHERE e.origin = $1 AND e.id = q.id LIMIT 1) hit`,
                [o, keys.ids],
              ),
              inlineStatement(
                `SELECT q.nonce, n.event_id FROM unnest($2::text[]) AS q(nonce)
                 CROSS JOIN LATERAL (
                   SELECT p.event_id FROM peer_event_nonces p WHERE p.origin = $1 AND p.nonce = q.nonce LIMIT 1
                 ) n`,
                [o, keys.nonces],
              ),
              // Bindings (origin set) and local agents (origin null), in one query; each key probes
              // rm_remote_agents_remote and rm_agents' primary key (as `= ANY`, or as a join, the planner
              // read both tables whole on every page of a catch-up; OFFSET 0 and LIMIT keep the
              // subqueries per key).
              inlineStatement(
                `SELECT b.origin, q.id AS remote_agent_id, b.local_agent_id FROM unnest($1::text[]) AS q(id)
                 CROSS JOIN LATERAL (
                   SELECT r.origin, r.local_agent_id FROM rm_remote_agents r WHERE r.remote_agent_id = q.id OFFSET 0
                 ) b
                 UNION ALL
                 SELECT NULL, q.id, q.id FROM unnest($1::text[]) AS q(id)
                 CROSS JOIN LATERAL (SELECT 1 FROM rm_agents a WHERE a.agent_id = q.id LIMIT 1) hit`,
                [keys.agentIds],
              ),
              // Each stream's local version, and the origin version at its head (what an event must pass).
              inlineStatement(
                `SELECT q.stream, (SELECT max(e.stream_version) FROM events e WHERE e.stream = q.stream) AS v,
                   (SELECT max(s.origin_version) FROM imported_stream_versions s WHERE s.stream = q.stream) AS head
                 FROM unnest($1::text[]) AS q(stream)`,
                [keys.streams],
              ),
            ];
            // Strings and string arrays always inline; the guard keeps the types honest.
            if (statements.some((x) => x === null)) throw new Error('import lookup: a key cannot be inlined');
            const results = (await client.query(`${begin}${statements.join(';\n')}`)) as unknown as {
              rows: Record<string, string | null>[];
            }[];
            begin = '';
            const [ids, nonces, homes, versions] = results.slice(-4).map((r) => r.rows) as [
              { id: string }[],
              { nonce: string; event_id: string }[],
              { origin: string | null; remote_agent_id: string; local_agent_id: string }[],
              { stream: string; v: number | null; head: number | null }[],
            ];
            const bindings: AgentBinding[] = [];
            const local = new Set<string>();
            for (const r of homes)
              if (r.origin === null) local.add(r.remote_agent_id);
              else
                bindings.push({
                  origin: r.origin,
                  remoteAgentId: r.remote_agent_id,
                  localAgentId: r.local_agent_id,
                });
            const streamVersions = new Map<string, number>();
            const streamHeads = new Map<string, number>();
            for (const r of versions) {
              if (r.v !== null) streamVersions.set(r.stream, Number(r.v));
              if (r.head !== null) streamHeads.set(r.stream, Number(r.head));
            }
            return {
              existingIds: new Set(ids.map((r) => r.id)),
              seenNonces: new Map(nonces.map((r) => [r.nonce, r.event_id])),
              agentHomes: { bindings, local },
              streamVersions,
              streamHeads,
            };
          },
          async append(local, imported) {
            const own = local.flatMap((s) => s.envelopes);
            if (own.length + imported.length === 0) return;
            appended = true;
            // Which event holds each origin version: its primary key refuses a second one at a version.
            const chain =
              imported.length === 0
                ? ''
                : `${inlineStatement(
                    `INSERT INTO imported_stream_versions (stream, origin_version, event_id)
                     SELECT * FROM unnest($1::text[], $2::integer[], $3::text[])`,
                    [
                      imported.map((r) => r.localStream),
                      imported.map((r) => r.envelope.streamVersion),
                      imported.map((r) => r.envelope.id),
                    ],
                  )!};\n`;
            const sql = store.importSql(own, imported);
            if (sql !== null) {
              beforeCommit += `${sql};\n${chain}`;
              return;
            }
            // A projection must read for some of these events: the writes run now, in order.
            await begun();
            if (beforeCommit !== '') await client.query(beforeCommit);
            beforeCommit = '';
            if (own.length > 0) await store.appendIn(client, own);
            if (imported.length > 0) await store.appendImportedIn(client, imported);
            if (chain !== '') await client.query(chain);
          },
          async versionHolders(o, places) {
            const holders = new Map<string, { eventId: string; text: string }>();
            if (places.length === 0) return holders;
            await begun();
            const { rows } = await client.query<{ stream: string; v: number; id: string; envelope: string }>(
              `SELECT q.stream, q.v, s.event_id AS id, e.envelope
               FROM unnest($2::text[], $3::integer[]) AS q(stream, v)
               JOIN imported_stream_versions s ON s.stream = q.stream AND s.origin_version = q.v
               JOIN events e ON e.origin = $1 AND e.id = s.event_id`,
              [o, places.map((p) => p.localStream), places.map((p) => p.version)],
            );
            for (const r of rows)
              holders.set(versionPlace(r.stream, r.v), { eventId: r.id, text: r.envelope });
            return holders;
          },
          async recordEquivocations(entries) {
            if (entries.length === 0) return;
            const text = `INSERT INTO federation_equivocations (origin, stream, stream_version, held_event_id,
                 held_envelope, refused_event_id, refused_envelope, detected_at)
               SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[],
                 $7::text[], $8::timestamptz[])
               ON CONFLICT DO NOTHING`;
            const values = [
              entries.map((e) => e.origin),
              entries.map((e) => e.stream),
              entries.map((e) => e.streamVersion),
              entries.map((e) => e.heldEventId),
              entries.map((e) => e.heldEnvelope),
              entries.map((e) => e.refusedEventId),
              entries.map((e) => e.refusedEnvelope),
              entries.map((e) => e.detectedAt.toISOString()),
            ];
            const inlined = inlineStatement(text, values);
            if (inlined) beforeCommit += `${inlined};\n`;
            else {
              await begun();
              await client.query(text, values);
            }
          },
          async recordGaps(entries) {
            if (entries.length === 0) return;
            const text = `INSERT INTO relay_chain_gaps (origin, stream, from_version, to_version, detected_at, next_attempt_at)
               SELECT o, s, f, t, d, d FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::timestamptz[])
                 AS q(o, s, f, t, d)
               ON CONFLICT DO NOTHING`;
            const values = [
              entries.map((e) => e.origin),
              entries.map((e) => e.stream),
              entries.map((e) => e.fromVersion),
              entries.map((e) => e.toVersion),
              entries.map((e) => e.detectedAt.toISOString()),
            ];
            const inlined = inlineStatement(text, values);
            if (inlined) beforeCommit += `${inlined};\n`;
            else {
              await begun();
              await client.query(text, values);
            }
          },
          async inGaps(o, places) {
            const out = new Set<string>();
            if (places.length === 0) return out;
            await begun();
            const { rows } = await client.query<{ stream: string; v: number }>(
              `SELECT q.stream, q.v FROM unnest($2::text[], $3::integer[]) AS q(stream, v)
               WHERE EXISTS (SELECT 1 FROM relay_chain_gaps g WHERE g.origin = $1 AND g.stream = q.stream
                             AND q.v BETWEEN g.from_version AND g.to_version)`,
              [o, places.map((p) => p.stream), places.map((p) => p.version)],
            );
            for (const r of rows) out.add(versionPlace(r.stream, r.v));
            return out;
          },
          async rememberNonces(o, entries) {
            if (entries.length === 0) return;
            const text = `INSERT INTO peer_event_nonces (origin, nonce, event_id, expires_at)
               SELECT $1, * FROM unnest($2::text[], $3::text[], $4::timestamptz[]) ON CONFLICT DO NOTHING`;
            const values = [
              o,
              entries.map((e) => e.nonce),
              entries.map((e) => e.eventId),
              entries.map((e) => e.expiresAt.toISOString()),
            ];
            const inlined = inlineStatement(text, values);
            if (inlined) beforeCommit += `${inlined};\n`;
            else {
              await begun();
              await client.query(text, values);
            }
          },
        };
        const result = await work(tx);
        // Nothing began when the work read and wrote nothing; otherwise whatever is left goes with COMMIT.
        if (begin === '' || beforeCommit !== '') await client.query(`${begin}${beforeCommit}COMMIT`);
        if (appended) options.onAppended?.();
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        // An import racing another write to a stream it appends to (the origin's learned keys, read
        // before the lock) is a conflict to retry, not a server error.
        throw translateLogError(e);
      } finally {
        client.release();
      }
    },
    async rememberRequestNonce(peerId, nonce, expiresAt) {
      const now = options.now();
      if (now.getTime() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = now.getTime();
        await self.pruneNonces(now);
      }
      const { rowCount } = await pool.query(
        'INSERT INTO peer_request_nonces (peer_id, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [peerId, nonce, expiresAt],
      );
      return rowCount === 1;
    },
    async equivocations(query) {
      const { rows } = await pool.query<{
        id: string;
        origin: string;
        stream: string;
        stream_version: number;
        held_event_id: string;
        held_envelope: string;
        refused_event_id: string;
        refused_envelope: string;
        detected_at: Date;
      }>(
        `SELECT * FROM federation_equivocations WHERE id > $1 AND ($2::text IS NULL OR origin = $2)
         ORDER BY id LIMIT $3`,
        [query.after ?? 0, query.origin ?? null, query.limit],
      );
      return rows.map((r) => ({
        seq: Number(r.id),
        origin: r.origin,
        stream: r.stream,
        streamVersion: r.stream_version,
        heldEventId: r.held_event_id,
        heldEnvelope: r.held_envelope,
        refusedEventId: r.refused_event_id,
        refusedEnvelope: r.refused_envelope,
        detectedAt: r.detected_at,
      }));
    },
    async equivocationCounts() {
      const { rows } = await pool.query<{ origin: string; n: string; last: Date }>(
        'SELECT origin, count(*) AS n, max(detected_at) AS last FROM federation_equivocations GROUP BY origin',
      );
      return new Map(rows.map((r) => [r.origin, { count: Number(r.n), lastDetectedAt: r.last }]));
    },
    async gaps(query) {
      const { rows } = await pool.query<{
        origin: string;
        stream: string;
        from_version: number;
        to_version: number;
        state: 'open' | 'filled' | 'not_public';
        detected_at: Date;
        resolved_at: Date | null;
        attempts: number;
        next_attempt_at: Date;
        last_error: string | null;
      }>(
        `SELECT * FROM relay_chain_gaps
         WHERE ($1::text IS NULL OR origin = $1)
           AND ($2::timestamptz IS NULL OR (state = 'open' AND next_attempt_at <= $2))
         ORDER BY detected_at, origin, stream, from_version LIMIT $3`,
        [query.origin ?? null, query.due ?? null, query.limit],
      );
      return rows.map((r) => ({
        origin: r.origin,
        stream: r.stream,
        fromVersion: r.from_version,
        toVersion: r.to_version,
        state: r.state,
        detectedAt: r.detected_at,
        resolvedAt: r.resolved_at,
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        lastError: r.last_error,
      }));
    },
    async settleGap(gap, outcome) {
      if (outcome.state === 'open')
        await pool.query(
          `UPDATE relay_chain_gaps SET attempts = attempts + 1, next_attempt_at = $4, last_error = $5
           WHERE origin = $1 AND stream = $2 AND from_version = $3 AND state = 'open'`,
          [gap.origin, gap.stream, gap.fromVersion, outcome.retryAt, outcome.error],
        );
      else
        await pool.query(
          `UPDATE relay_chain_gaps SET state = $4, resolved_at = $5, attempts = attempts + 1, last_error = NULL
           WHERE origin = $1 AND stream = $2 AND from_version = $3 AND state = 'open'`,
          [gap.origin, gap.stream, gap.fromVersion, outcome.state, outcome.at],
        );
    },
    async peerFollowing(peerId) {
      const { rows } = await pool.query<{ mode: 'all' | 'list'; origins: string[] }>(
        'SELECT mode, origins FROM relay_peer_following WHERE peer_id = $1',
        [peerId],
      );
      return rows[0] ? { mode: rows[0].mode, origins: rows[0].origins } : null;
    },
    async setPeerFollowing(peerId, following, at) {
      await pool.query(
        `INSERT INTO relay_peer_following (peer_id, mode, origins, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (peer_id) DO UPDATE SET mode = $2, origins = $3, updated_at = $4`,
        [peerId, following.mode, following.origins, at],
      );
    },
    async originManifest(origin) {
      const { rows } = await pool.query<{ manifest: string }>(
        'SELECT manifest FROM relay_origin_manifests WHERE origin = $1',
        [origin],
      );
      return rows[0]?.manifest ?? null;
    },
    async saveOriginManifest(origin, text, at) {
      await pool.query(
        `INSERT INTO relay_origin_manifests (origin, manifest, fetched_at) VALUES ($1, $2, $3)
         ON CONFLICT (origin) DO UPDATE SET manifest = $2, fetched_at = $3`,
        [origin, text, at],
      );
    },
    async pruneNonces(now) {
      await pool.query('DELETE FROM peer_request_nonces WHERE expires_at < $1', [now]);
      await pool.query('DELETE FROM peer_event_nonces WHERE expires_at < $1', [now]);
    },
  };
  return self;
}
