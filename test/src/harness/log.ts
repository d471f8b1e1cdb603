// A bare log on a fresh database: the store, a signer and a way to make events, for store-level tests.
import {
  createEnvelopeSigner,
  generateSigningKey,
  migrate,
  PgEventStore,
  sequenceEvents,
} from '@tributary/infra';
import { allProjections } from '@tributary/projections';
import type { AppendStream } from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import pg, { type PoolClient } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { createTestDatabase } from './database.js';

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
  /** Seals one of our own events: a fresh id and nonce, our origin and key. */
  const sealed = (e: {
    stream: string;
    streamVersion: number;
    type: string;
    actorId: string;
    occurredAt: string;
    data: Record<string, unknown>;
  }) =>
    signer.seal({
      v: 1,
      id: uuidv7(),
      origin,
      keyId: signer.keyId,
      nonce: randomUUID().replace(/-/g, ''),
      ...e,
    });
  /** Signed `agent.profile_updated`-free events of a neutral type, for store mechanics. */
  const envelopes = (
    stream: string,
    fromVersion: number,
    count: number,
    type = 'handle.claimed',
  ): AppendStream => ({
    stream,
    expectedVersion: fromVersion,
    envelopes: Array.from({ length: count }, (_, i) =>
      sealed({
        type,
        stream,
        streamVersion: fromVersion + i + 1,
        actorId: origin,
        occurredAt: new Date().toISOString(),
        data: { handle: stream, agentId: origin },
      }),
    ),
  });
  /** One signed event on an agent's own stream (`agent-<id>`), acted by that agent. */
  const agentEvent = (
    agentId: string,
    streamVersion: number,
    type: string,
    data: Record<string, unknown>,
    occurredAt: string,
  ) => sealed({ type, stream: `agent-${agentId}`, streamVersion, actorId: agentId, occurredAt, data });
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
