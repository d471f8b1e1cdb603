// The EventStore contract against PostgreSQL; the in-memory store runs the same suite in the unit tier.
import { eventStoreContract, openTestLog } from '@tributary/test';

eventStoreContract('PgEventStore', async () => {
  const log = await openTestLog();
  return { store: log.store, envelopes: log.envelopes, close: log.close };
});
