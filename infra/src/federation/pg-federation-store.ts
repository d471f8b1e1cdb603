// The FederationStore port on PostgreSQL: imports run in one transaction under a per-origin advisory
// lock (so two batches from one peer cannot interleave their dedup checks and stream numbering), and
// the request and event nonce tables.
//
// The lookups by a batch of keys probe the unique index once per key (a LATERAL subquery with LIMIT, or a
// scalar max() per stream, cannot be turned into a join): planned as `= ANY(array)`, a log that grew fast
// since its last ANALYZE got a bitmap scan over all of the origin's events, or a sequential scan, per
// batch — time that grows with the log, inside the import lock.
import type { AgentBinding, FederationStore, ImportTransaction } from '@tributary/services';
import type { Pool } from 'pg';
import { escapeLiteral, inlineStatement } from '../postgres/one-trip-append.js';
import type { PgEventStore } from '../postgres/pg-event-store.js';

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
    async importing(origin, work) {
      const client = await pool.connect();
      let appended = false;
      // The nonce INSERT, inlined, goes with the COMMIT: one round trip less inside the lock.
      let beforeCommit = '';
      try {
        await client.query(
          `BEGIN; SELECT pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${escapeLiteral(origin)}))`,
        );
        const tx: ImportTransaction = {
          async existingIds(o, ids) {
            if (ids.length === 0) return new Set();
            const { rows } = await client.query<{ id: string }>(
              `SELECT q.id FROM unnest($2::text[]) AS q(id)
               CROSS JOIN LATERAL (SELECT 1 FROM events e WHERE e.origin = $1 AND e.id = q.id LIMIT 1) hit`,
              [o, ids],
            );
            return new Set(rows.map((r) => r.id));
          },
          async seenNonces(o, nonces) {
            if (nonces.length === 0) return new Map();
            const { rows } = await client.query<{ nonce: string; event_id: string }>(
              `SELECT q.nonce, n.event_id FROM unnest($2::text[]) AS q(nonce)
               CROSS JOIN LATERAL (
                 SELECT p.event_id FROM peer_event_nonces p WHERE p.origin = $1 AND p.nonce = q.nonce LIMIT 1
               ) n`,
              [o, nonces],
            );
            return new Map(rows.map((r) => [r.nonce, r.event_id]));
          },
          async agentHomes(agentIds) {
            if (agentIds.length === 0) return { bindings: [], local: new Set() };
            // Bindings (origin set) and local agents (origin null), in one query.
            const { rows } = await client.query<{
              origin: string | null;
              remote_agent_id: string;
              local_agent_id: string;
            }>(
              `SELECT origin, remote_agent_id, local_agent_id FROM rm_remote_agents
                 WHERE remote_agent_id = ANY($1::text[])
               UNION ALL
               SELECT NULL, agent_id, agent_id FROM rm_agents WHERE agent_id = ANY($1::text[])`,
              [agentIds],
            );
            const bindings: AgentBinding[] = [];
            const local = new Set<string>();
            for (const r of rows)
              if (r.origin === null) local.add(r.remote_agent_id);
              else
                bindings.push({
                  origin: r.origin,
                  remoteAgentId: r.remote_agent_id,
                  localAgentId: r.local_agent_id,
                });
            return { bindings, local };
          },
          async streamVersions(streams) {
            const out = new Map<string, number>();
            if (streams.length === 0) return out;
            const { rows } = await client.query<{ stream: string; v: number | null }>(
              `SELECT q.stream, (SELECT max(e.stream_version) FROM events e WHERE e.stream = q.stream) AS v
               FROM unnest($1::text[]) AS q(stream)`,
              [streams],
            );
            for (const r of rows) if (r.v !== null) out.set(r.stream, Number(r.v));
            return out;
          },
          async append(local, imported) {
            const own = local.flatMap((s) => s.envelopes);
            if (own.length > 0) await store.appendIn(client, own);
            if (imported.length > 0) await store.appendImportedIn(client, imported);
            appended ||= own.length + imported.length > 0;
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
            else await client.query(text, values);
          },
        };
        const result = await work(tx);
        await client.query(`${beforeCommit}COMMIT`);
        if (appended) options.onAppended?.();
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
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
    async pruneNonces(now) {
      await pool.query('DELETE FROM peer_request_nonces WHERE expires_at < $1', [now]);
      await pool.query('DELETE FROM peer_event_nonces WHERE expires_at < $1', [now]);
    },
  };
  return self;
}
