// A bare log on a fresh database: the store, a signer and a way to make events, for store-level tests.
import {
  createEnvelopeSigner,
  generateSigningKey,
  migrate,
  PgEventStore,
  sequenceEvents,
} from '@tributary/infra';
import { allProjections } from '@tributary/projections';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import pg, { type PoolClient } from 'pg';
import { createTestDatabase } from './database.js';
import { envelopeMaker } from './envelope-maker.js';

export async function openTestLog() {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 20 });
  // Dropping the database at close ends any connection still closing with an error event; without a
  // listener that would be an uncaught exception attributed to whichever test ran last.
  pool.on('error', () => undefined);
  await migrate(pool);
  const key = generateSigningKey();
  const origin = randomUUID();
  const signer = createEnvelopeSigner({ origin, privateKey: key.privateKey, publicKey: key.publicKey });
  const store = new PgEventStore(pool, {
    inlineProjections: allProjections.filter((p) => p.mode === 'inline'),
  });
  const { envelopes, agentEvent } = envelopeMaker(signer, origin);
  return {
    db,
    pool,
    store,
    signer,
    agentEvent,
    key,
    origin,
    envelopes,
    sequence: () => sequenceEvents(pool),
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

/**
 * A migrated test database with one connection held for the whole suite: PL/pgSQL keeps its plans per
 * connection, so the plan tests stay on one. `close` releases it and drops the database.
 */
export async function openHeldConnection(): Promise<{ client: PoolClient; close(): Promise<void> }> {
  const log = await openTestLog();
  const client = await log.pool.connect();
  return {
    client,
    async close() {
      client.release();
      await log.close();
    },
  };
}

/**
 * openHeldConnection for the test suite (describe block or file) it is called in: opened before the suite's tests, closed
 * and dropped after them. `client` is the held connection (only inside hooks and tests).
 */
export function holdConnectionForSuite(): { readonly client: PoolClient } {
  let held: Awaited<ReturnType<typeof openHeldConnection>> | undefined;
  beforeAll(async () => {
    held = await openHeldConnection();
  });
  afterAll(async () => {
    await held?.close();
  });
  return {
    get client() {
      if (!held) throw new Error('the held connection opens in the suite’s before hook');
      return held.client;
    },
  };
}
