// The webhook intake's table (payment_webhook_inbox, migration 0067; docs/payments.md#exactly-once).
// Recording is one INSERT … ON CONFLICT DO NOTHING, group-committed: deliveries that arrive in the same
// turn of the event loop, or while the slots are busy, go together as one statement, one transaction and
// one WAL flush, and each is answered only once that commit returned (synchronous_commit is on), so
// nothing acknowledged can be lost.
import type { ReceivedWebhookEvent, WebhookInbox } from '@tributary/services';
import type { Pool } from 'pg';
import { createGroupCommit } from '../postgres/group-commit.js';

/** Commits in flight at once; measured on two cores like the event store's (more only contend). */
const CONCURRENCY = 2;
/** Deliveries in one commit at most (a webhook body is at most 256 KiB). */
const MAX_GROUP = 200;

const INSERT = `INSERT INTO payment_webhook_inbox (event_id, event_type, created, livemode, payload, received_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bool[], $5::text[], $6::timestamptz[])
  ON CONFLICT (event_id) DO NOTHING RETURNING event_id`;

interface PendingRow {
  event_id: string;
  event_type: string;
  created: string;
  livemode: boolean;
  payload: string;
  received_at: Date;
}

export function createPgWebhookInbox(pool: Pool): WebhookInbox {
  const groups = createGroupCommit<ReceivedWebhookEvent, boolean>({
    concurrency: CONCURRENCY,
    maxWeight: MAX_GROUP,
    weigh: () => 1,
    async runTogether(events) {
      // The same id twice in one group (concurrent redeliveries): the first is inserted, the rest are
      // its duplicates.
      const first = new Map<string, ReceivedWebhookEvent>();
      for (const e of events) if (!first.has(e.eventId)) first.set(e.eventId, e);
      const rows = [...first.values()];
      const { rows: inserted } = await pool.query<{ event_id: string }>(INSERT, [
        rows.map((e) => e.eventId),
        rows.map((e) => e.eventType),
        rows.map((e) => e.created),
        rows.map((e) => e.livemode),
        rows.map((e) => e.payload),
        rows.map((e) => e.receivedAt),
      ]);
      const fresh = new Set(inserted.map((r) => r.event_id));
      // true: a duplicate.
      return events.map((e) => !(first.get(e.eventId) === e && fresh.has(e.eventId)));
    },
    // A row the database refused (bad text) failed the whole statement: each again on its own answer.
    retryAlone: (e) => /^(22|23)/.test(String((e as { code?: unknown }).code ?? '')),
    startOnNextTurn: true,
  });

  return {
    async record(event) {
      const duplicate = await groups.submit(event);
      if (duplicate === null) throw new Error('webhook inbox: a delivery went unanswered');
      return { duplicate };
    },
    async pending(limit) {
      const { rows } = await pool.query<PendingRow>(
        `SELECT event_id, event_type, created, livemode, payload, received_at FROM payment_webhook_inbox
         WHERE logged_at IS NULL ORDER BY seq LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({
        eventId: r.event_id,
        eventType: r.event_type,
        created: Number(r.created),
        livemode: r.livemode,
        payload: r.payload,
        receivedAt: r.received_at.toISOString(),
      }));
    },
    async markLogged(eventIds) {
      if (eventIds.length === 0) return;
      await pool.query(
        `UPDATE payment_webhook_inbox SET logged_at = now(), payload = NULL
         WHERE event_id = ANY($1::text[]) AND logged_at IS NULL`,
        [eventIds],
      );
    },
  };
}
