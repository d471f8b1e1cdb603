// The FederationStore port on PostgreSQL: imports run in one transaction under a per-origin advisory
// lock (so two batches from one peer cannot interleave their dedup checks and stream numbering), and
// the request and event nonce tables.
import type { AgentBinding, FederationStore, ImportTransaction } from '@tributary/services';
import type { Pool } from 'pg';
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
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [IMPORT_LOCK, origin]);
        const tx: ImportTransaction = {
          async existingIds(o, ids) {
            if (ids.length === 0) return new Set();
            const { rows } = await client.query<{ id: string }>(
              'SELECT id FROM events WHERE origin = $1 AND id = ANY($2::text[])',
              [o, ids],
            );
            return new Set(rows.map((r) => r.id));
          },
          async seenNonces(o, nonces) {
            if (nonces.length === 0) return new Map();
            const { rows } = await client.query<{ nonce: string; event_id: string }>(
              'SELECT nonce, event_id FROM peer_event_nonces WHERE origin = $1 AND nonce = ANY($2::text[])',
              [o, nonces],
            );
            return new Map(rows.map((r) => [r.nonce, r.event_id]));
          },
          async agentHomes(agentIds) {
            if (agentIds.length === 0) return { bindings: [], local: new Set() };
            const [bound, local] = await Promise.all([
              client.query<{ origin: string; remote_agent_id: string; local_agent_id: string }>(
                'SELECT origin, remote_agent_id, local_agent_id FROM rm_remote_agents WHERE remote_agent_id = ANY($1::text[])',
                [agentIds],
              ),
              client.query<{ agent_id: string }>(
                'SELECT agent_id FROM rm_agents WHERE agent_id = ANY($1::text[])',
                [agentIds],
              ),
            ]);
            const bindings: AgentBinding[] = bound.rows.map((r) => ({
              origin: r.origin,
              remoteAgentId: r.remote_agent_id,
              localAgentId: r.local_agent_id,
            }));
            return { bindings, local: new Set(local.rows.map((r) => r.agent_id)) };
          },
          async streamVersions(streams) {
            const out = new Map<string, number>();
            if (streams.length === 0) return out;
            const { rows } = await client.query<{ stream: string; v: number }>(
              'SELECT stream, max(stream_version) AS v FROM events WHERE stream = ANY($1::text[]) GROUP BY stream',
              [streams],
            );
            for (const r of rows) out.set(r.stream, Number(r.v));
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
            await client.query(
              `INSERT INTO peer_event_nonces (origin, nonce, event_id, expires_at)
               SELECT $1, * FROM unnest($2::text[], $3::text[], $4::timestamptz[]) ON CONFLICT DO NOTHING`,
              [
                o,
                entries.map((e) => e.nonce),
                entries.map((e) => e.eventId),
                entries.map((e) => e.expiresAt),
              ],
            );
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
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
