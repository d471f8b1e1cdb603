// The EventStore contract against PostgreSQL; the in-memory store runs the same suite in the unit tier.
import { eventStoreContract, eventually, openTestLog } from '@tributary/test';

eventStoreContract('PgEventStore', async () => {
  const log = await openTestLog();
  return {
    store: log.store,
    envelopes: log.envelopes,
    close: log.close,
    async sequenced() {
      await eventually('every appended event numbered', async () => {
        await log.sequence();
        const r = await log.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events e
           WHERE NOT EXISTS (SELECT 1 FROM event_sequence s WHERE s.position = e.position)`,
        );
        return r.rows[0]!.n === 0;
      });
    },
  };
});
