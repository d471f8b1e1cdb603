// Runs federation sync in the background (docs/federation.md#sync-push-pull-cursors): each registered, unblocked peer has
// a push and a pull cursor in Postgres; a sweep finds the cursors that are due and runs one attempt each
// (services/src/federation/sync-peer.ts), again at once while a side has more. Two executors share those
// durable cursors: BullMQ when REDIS_URL is set (the sweep is a job scheduler, each cursor a job
// deduplicated by its id, so several processes of one instance share the work) and an in-process timer
// otherwise. Either way the cursor's row lock, not the executor, guarantees one attempt at a time.
import {
  composedFor,
  federationComposed,
  fillDueGaps,
  syncPeer,
  type Services,
  type SyncSettings,
} from '@tributary/services';
import { SYNC_DIRECTIONS, type SyncDirection } from '@tributary/domain';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

interface SyncRunnerOptions {
  services: Services;
  logger: Logger;
  settings: SyncSettings;
  /** How often due cursors are looked for, besides wake-ups. */
  sweepMs: number;
  /** Cursor attempts running at once in this process. */
  concurrency: number;
  /** Use BullMQ on this Redis; in-process when absent. */
  redisUrl?: string | undefined;
  /** Keeps this instance's queue apart from other instances on the same Redis. */
  instanceId: string;
}

export interface SyncRunner {
  mode: 'bullmq' | 'in-process';
  /** Something changed (a local commit, a peer back): look for due cursors soon. */
  wake(): void;
  /** Runs sweeps until nothing is due (tests and the CLI). */
  settle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** BullMQ jobs of its queue by state (the metrics); absent in-process. */
  queueDepths?: () => Promise<Record<string, number>>;
}

/** A peer's cursor in one direction: runs attempts while the outcome says there is more. */
async function runCursor(o: SyncRunnerOptions, peerId: string, direction: SyncDirection) {
  for (let rounds = 0; rounds < 1000; rounds++) {
    const outcome = await syncPeer(
      composedFor(o.services, federationComposed),
      peerId,
      direction,
      o.settings,
    );
    if (!outcome) return; // another worker holds it
    if (outcome.kind === 'failed') {
      o.logger.warn(
        { peerId, direction, code: outcome.code, retryAt: outcome.retryAt },
        `federation ${direction} failed: ${outcome.message}`,
      );
      return;
    }
    if (outcome.contacted && (outcome.accepted || outcome.rejected))
      o.logger.info(
        {
          peerId,
          direction,
          position: outcome.position,
          accepted: outcome.accepted,
          rejected: outcome.rejected,
        },
        `federation ${direction}`,
      );
    if (!outcome.more) return;
  }
}

/** Gaps a relay left in origins' chains, filled from the origins themselves (never fails the sweep). */
async function fillGaps(o: SyncRunnerOptions): Promise<void> {
  try {
    const settled = await fillDueGaps(composedFor(o.services, federationComposed), {
      retryBaseMs: o.settings.retryBaseMs,
    });
    if (settled > 0) o.logger.info({ settled }, 'federation: relayed chain gaps settled from their origins');
  } catch (err) {
    o.logger.warn({ err }, 'federation: filling relayed chain gaps failed; will retry');
  }
}

/** How long Redis may take to answer at start and stop before we give up on it. */
const REDIS_TIMEOUT_MS = 10_000;

/** `promise`, or a rejection with `message` after `ms`. */
export async function within<T>(ms: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message || `timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** At most one wake-up sweep per this many ms. */
const WAKE_GAP_MS = 50;

const dueNow = (o: SyncRunnerOptions) =>
  o.services.federation!.cursors!.due(o.services.clock.now(), SYNC_DIRECTIONS);

/**
 * Closes a BullMQ worker and its queue within REDIS_TIMEOUT_MS, then forces a disconnect: a graceful
 * close waits for running jobs, and for ever if Redis has gone (ioredis retries for ever).
 */
export async function closeBounded(
  worker: { close(): Promise<void>; disconnect(): Promise<void> },
  queue: { close(): Promise<void>; disconnect(): Promise<void> },
  logger: { warn(obj: object, msg: string): void },
  what: string,
): Promise<void> {
  try {
    await within(REDIS_TIMEOUT_MS, Promise.all([worker.close(), queue.close()]), 'graceful close timed out');
  } catch (err) {
    logger.warn({ err }, `${what} did not close in time; forcing`);
    await within(2_000, Promise.all([worker.disconnect(), queue.disconnect()]), '').catch(() => undefined);
  }
}

/**
 * Keeps a queue's job scheduler in Redis. Redis holds the scheduler, and a Redis that comes back empty
 * (restarted without persistence, or failed over to a replica that had not got it) has lost it: nothing
 * would run again while the durable cursors wait. Each time the queue's connection is ready again, the
 * scheduler is put back (an upsert: the same one when it survived) and `then` runs. Returns the unhook.
 */
export async function rescheduleOnReconnect(
  queue: {
    readonly client: Promise<{
      on(e: 'ready', f: () => void): unknown;
      off(e: 'ready', f: () => void): unknown;
    }>;
  },
  schedule: () => Promise<unknown>,
  logger: { warn(obj: object, msg: string): void },
  what: string,
  then: () => void = () => undefined,
): Promise<() => void> {
  const client = await queue.client;
  const ready = () =>
    void schedule().then(then, (err: unknown) =>
      logger.warn({ err }, `${what}: could not schedule again once Redis was back`),
    );
  client.on('ready', ready);
  return () => client.off('ready', ready);
}

export async function startSyncRunner(o: SyncRunnerOptions): Promise<SyncRunner> {
  return o.redisUrl ? startBullmqRunner(o, o.redisUrl) : startInProcessRunner(o);
}

function startInProcessRunner(o: SyncRunnerOptions): SyncRunner {
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let sweeping: Promise<void> | null = null;
  let again = false;
  let scheduled: NodeJS.Timeout | null = null;

  const sweep = async () => {
    const due = await dueNow(o);
    if (!running.has('gaps') && !stopped)
      running.set(
        'gaps',
        fillGaps(o).finally(() => running.delete('gaps')),
      );
    for (const { peerId, direction } of due) {
      const key = `${direction}:${peerId}`;
      if (running.has(key) || stopped) continue;
      while (running.size >= o.concurrency) await Promise.race(running.values());
      const task = runCursor(o, peerId, direction)
        .catch((err: unknown) =>
          o.logger.error({ err, peerId, direction }, 'federation sync attempt crashed'),
        )
        .finally(() => running.delete(key));
      running.set(key, task);
    }
  };
  const kick = () => {
    scheduled = null;
    lastKick = Date.now();
    if (stopped) return;
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = sweep()
      .catch((err: unknown) => o.logger.warn({ err }, 'federation sync sweep failed; will retry'))
      .finally(() => {
        sweeping = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };
  // Wake-ups (every sequencer pass under steady writes) coalesce into at most one sweep per
  // WAKE_GAP_MS, so sync costs busy writers next to nothing.
  let lastKick = 0;
  const wake = () => {
    if (scheduled || stopped) return;
    scheduled = setTimeout(kick, Math.max(10, lastKick + WAKE_GAP_MS - Date.now()));
  };
  const timer = setInterval(wake, o.sweepMs);
  timer.unref();
  wake();
  return {
    mode: 'in-process',
    wake,
    async settle(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        while (sweeping) await sweeping;
        await Promise.all(running.values());
        const due = await dueNow(o);
        if (due.length === 0 && running.size === 0) return;
        if (Date.now() > until) throw new Error('federation sync did not settle in time');
        kick();
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (scheduled) clearTimeout(scheduled);
      while (sweeping) await sweeping;
      await Promise.all(running.values());
    },
  };
}

/** The URL without its password, for messages. */
const u = (url: string) => {
  const x = new URL(url);
  if (x.password) x.password = '***';
  return x.href;
};

/** One PING on a client that does not retry: resolves when Redis answers, else a clear error. */
export async function checkRedis(url: string): Promise<void> {
  const client = new Redis({
    ...(redisConnection(url) as RedisOptions),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: REDIS_TIMEOUT_MS,
  });
  let cause: Error | undefined;
  client.on('error', (e: Error) => (cause ??= e)); // the socket's reason, reported below
  try {
    await within(
      REDIS_TIMEOUT_MS,
      client.connect().then(() => client.ping()),
      'timed out',
    );
  } catch (e) {
    throw new Error(`REDIS_URL ${u(url)} is unreachable (${(cause ?? (e as Error)).message})`);
  } finally {
    client.disconnect();
  }
}

/** redis://user:pass@host:port/db (rediss: for TLS) as BullMQ's (ioredis') connection options. */
export function redisConnection(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port) || 6379,
    ...(u.username && { username: decodeURIComponent(u.username) }),
    ...(u.password && { password: decodeURIComponent(u.password) }),
    ...(u.pathname.length > 1 && { db: Number(u.pathname.slice(1)) || 0 }),
    ...(u.protocol === 'rediss:' && { tls: {} }),
    // Workers block on Redis; BullMQ requires ioredis to retry for ever rather than fail a command.
    maxRetriesPerRequest: null,
  };
}

/** How long a sync job's lock lasts unrenewed, and how often workers look for jobs whose lock lapsed. */
const JOB_LOCK_MS = 15_000;
const JOB_STALL_CHECK_MS = 5_000;

/** The job states the metrics report (finished jobs are removed at once, so not counted). */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

async function startBullmqRunner(o: SyncRunnerOptions, redisUrl: string): Promise<SyncRunner> {
  const connection = redisConnection(redisUrl);
  const prefix = `tributary:${o.instanceId}`;
  const name = 'federation-sync';
  // Before any BullMQ object exists: is Redis there? (BullMQ's clients retry for ever, as it requires,
  // so a Redis that is not there would hang the start and leave reconnecting clients behind.)
  await checkRedis(redisUrl);
  const queue = new Queue(name, { connection, prefix });
  queue.on('error', (err) => o.logger.warn({ err }, 'federation sync queue error'));
  const sweepJob = async () => {
    const due = await dueNow(o);
    await fillGaps(o);
    // A cursor job is deduplicated by its id while it waits or runs; the durable cursor is the truth.
    await queue.addBulk(
      due.map(({ peerId, direction }) => ({
        name: 'cursor',
        data: { peerId, direction },
        opts: {
          deduplication: { id: `${direction}:${peerId}` },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
    return due.length;
  };
  const worker = new Worker(
    name,
    async (job) => {
      if (job.name === 'sweep') return sweepJob();
      const { peerId, direction } = job.data as { peerId: string; direction: SyncDirection };
      await runCursor(o, peerId, direction);
      return null;
    },
    // A worker that dies mid-job (SIGKILL, a lost machine) stops renewing the job's lock; after
    // JOB_LOCK_MS another worker's stalled check (every JOB_STALL_CHECK_MS) takes the job back, so that
    // cursor waits about 20 s instead of BullMQ's default minute. A live worker whose event loop stalls
    // past the lock may see its job run twice at once: the cursor's advisory lock turns the second away.
    {
      connection,
      prefix,
      concurrency: o.concurrency,
      lockDuration: JOB_LOCK_MS,
      stalledInterval: JOB_STALL_CHECK_MS,
    },
  );
  worker.on('error', (err) => o.logger.warn({ err }, 'federation sync worker error'));
  worker.on('failed', (job, err) => o.logger.warn({ err, job: job?.name }, 'federation sync job failed'));
  const schedule = () =>
    queue.upsertJobScheduler(
      'sweep',
      { every: o.sweepMs },
      { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: true } },
    );
  let unhook: () => void = () => undefined;
  try {
    await within(REDIS_TIMEOUT_MS, schedule(), 'could not schedule the federation sync sweep on Redis');
    await within(REDIS_TIMEOUT_MS, worker.waitUntilReady(), 'the federation sync worker did not connect');
    // Back from an outage, a sweep at once too: the cursors that came due meanwhile wait no longer.
    unhook = await rescheduleOnReconnect(queue, schedule, o.logger, 'federation sync', () => wake());
  } catch (e) {
    await within(2_000, Promise.all([worker.disconnect(), queue.disconnect()]), '').catch(() => undefined);
    throw e;
  }
  let stopped = false;
  let lastWake = 0;
  let pending: NodeJS.Timeout | null = null;
  const addWake = () => {
    pending = null;
    lastWake = Date.now();
    queue
      .add('sweep', {}, { deduplication: { id: 'wake' }, removeOnComplete: true, removeOnFail: true })
      .catch((err: unknown) => o.logger.warn({ err }, 'federation sync wake failed'));
  };
  const wake = () => {
    if (stopped || pending) return;
    pending = setTimeout(addWake, Math.max(0, lastWake + WAKE_GAP_MS - Date.now()));
  };
  wake();
  return {
    mode: 'bullmq',
    wake,
    queueDepths: () => queue.getJobCounts(...QUEUE_STATES),
    async settle(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const counts = await queue.getJobCounts('active', 'waiting', 'prioritized');
        const busy = (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.prioritized ?? 0);
        const due = await dueNow(o);
        if (due.length === 0 && busy === 0) return;
        if (Date.now() > until) throw new Error('federation sync did not settle in time');
        if (due.length > 0 && busy === 0) wake();
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop() {
      stopped = true;
      unhook();
      if (pending) clearTimeout(pending);
      // A graceful close waits for running jobs, and for ever if Redis has gone (ioredis retries for
      // ever): bound it, then force. A cursor interrupted this way is simply attempted again.
      await closeBounded(worker, queue, o.logger, 'federation sync queue');
    },
  };
}
