// The read-model contract against PostgreSQL: the projections' tables, written inline on append, read
// by the projections' queries; the ports that are not reads stay the unit tier's, so the two runs differ
// in their log and their reads only.
import { migrate, PgEventStore, publicKeyBase64url } from '@tributary/infra';
import { allProjections, createFederationReadModels, createReadModels } from '@tributary/projections';
import type { Services } from '@tributary/services';
import pg from 'pg';
import { createTestDatabase } from '../harness/database.js';
import { readModelContract } from '../harness/read-model-contract.js';
import { memoryServices } from '../unit/memory-services.js';

readModelContract('PostgreSQL read models', async () => {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  // Dropping the database at close ends connections still closing with an error event.
  pool.on('error', () => undefined);
  await migrate(pool);
  const memory = memoryServices();
  const store = new PgEventStore(pool, {
    inlineProjections: allProjections.filter((p) => p.mode === 'inline'),
  });
  const read = createReadModels(pool);
  const m = memory.services;
  const services: Services = {
    ...m,
    store,
    instance: { read: read.instance },
    agents: { read: read.agents },
    manifests: { read: read.manifests },
    presence: { read: read.presence },
    accounts: { ...m.accounts, read: read.accounts },
    tokens: { ...m.tokens, read: read.tokens },
    oauth: {
      ...m.oauth,
      read: read.oauth,
      clients: { find: async (clientId) => read.oauth.oauthClient(clientId) },
    },
    builder: { ...m.builder, read: read.builder },
    assistant: {
      ...m.assistant,
      read: {
        threads: read.assistantThreads,
        vault: read.assistantVault,
        attachments: read.assistantAttachments,
      },
    },
    federation: { ...memory.federation, read: createFederationReadModels(pool) },
  };
  return {
    services,
    publicKey: publicKeyBase64url(memory.key.publicKey),
    async close() {
      await pool.end();
      await db.drop();
    },
  };
});
