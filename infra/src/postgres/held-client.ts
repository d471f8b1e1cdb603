// A checked-out pool client has no 'error' listener (pg-pool removes its idle one on checkout), and a
// pg client whose socket dies while no query of its own is running emits 'error': with no listener that
// is an uncaught exception that ends the process. Every client held across awaits therefore comes from
// here: a listener for as long as it is held, and one whose connection failed is destroyed on release,
// never pooled again.
import type { Pool, PoolClient } from 'pg';

/**
 * Checks out a client with an 'error' listener attached until `release()`; `release()` without an
 * argument destroys it when its connection failed while held.
 */
export async function checkOutClient(pool: Pool): Promise<PoolClient> {
  const client = await pool.connect();
  let failed: Error | undefined;
  const onError = (error: Error) => {
    failed ??= error;
  };
  client.on('error', onError);
  const release = client.release.bind(client);
  client.release = (err?: Error | boolean) => {
    client.removeListener('error', onError);
    release(err ?? failed);
  };
  return client;
}

/** Runs `work` with a client from `checkOutClient`, released afterwards. */
export async function withPoolClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await checkOutClient(pool);
  try {
    return await work(client);
  } finally {
    // pg-pool itself drops a client whose connection broke during a query (it is no longer queryable).
    client.release();
  }
}
