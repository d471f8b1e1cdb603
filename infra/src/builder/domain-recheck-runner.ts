// Re-checks every custom-domain binding on a schedule (docs/builder.md#domains): every
// DOMAIN_RECHECK_SECONDS one sweep looks each binding's records up again and records what changed
// (services/src/builder/recheck-domains.ts). As federation sync does (infra/src/federation/sync-runner.ts),
// it runs on BullMQ when REDIS_URL is set — a job scheduler, so several processes of one instance run
// one sweep per interval between them — and on an in-process timer otherwise. A sweep that overlaps
// another is harmless: each change is an append at the binding stream's expected version.
import { recheckDomains, type RecheckOutcome, type Services } from '@tributary/services';
import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import {
  checkRedis,
  closeBounded,
  QUEUE_STATES,
  redisConnection,
  rescheduleOnReconnect,
  within,
} from '../federation/sync-runner.js';

export interface DomainRecheckOptions {
  services: Services;
  logger: Logger;
  intervalSeconds: number;
  /** Lookups running at once within a sweep. */
  concurrency: number;
  redisUrl?: string | undefined;
  instanceId: string;
  /** Told of the bindings a sweep changed (the site server reloads their sites). */
  onChanged?: (changed: RecheckOutcome['changed']) => void;
}

export interface DomainRecheckRunner {
  mode: 'bullmq' | 'in-process';
  /** Runs one sweep in this process now (tests, and the CLI). */
  sweepNow(): Promise<RecheckOutcome>;
  stop(): Promise<void>;
  /** BullMQ jobs of its queue by state (the metrics); absent in-process. */
  queueDepths?: () => Promise<Record<string, number>>;
}

const REDIS_TIMEOUT_MS = 10_000;

export async function startDomainRecheck(o: DomainRecheckOptions): Promise<DomainRecheckRunner> {
  let current: Promise<RecheckOutcome> | null = null;
  // One sweep at a time in this process; a tick that finds one running joins it.
  const sweep = (): Promise<RecheckOutcome> => {
    current ??= recheckDomains(o.services, { concurrency: o.concurrency })
      .then((outcome) => {
        if (outcome.changed.length > 0) {
          o.logger.info({ changed: outcome.changed, checked: outcome.checked }, 'custom domains changed');
          o.onChanged?.(outcome.changed);
        }
        return outcome;
      })
      .finally(() => (current = null));
    return current;
  };
  const sweepLogged = () =>
    sweep().catch((err: unknown) => {
      o.logger.warn({ err }, 'custom-domain re-check failed; the next one retries');
      return null;
    });
  const idle = async () => {
    while (current) await current.catch(() => undefined);
  };
  return o.redisUrl ? startBullmq(o, o.redisUrl, sweep) : startInProcess(o, sweep, sweepLogged, idle);
}

function startInProcess(
  o: DomainRecheckOptions,
  sweep: () => Promise<RecheckOutcome>,
  sweepLogged: () => Promise<unknown>,
  idle: () => Promise<void>,
): DomainRecheckRunner {
  const timer = setInterval(() => void sweepLogged(), o.intervalSeconds * 1000);
  timer.unref();
  return {
    mode: 'in-process',
    sweepNow: sweep,
    async stop() {
      clearInterval(timer);
      await idle();
    },
  };
}

async function startBullmq(
  o: DomainRecheckOptions,
  redisUrl: string,
  sweep: () => Promise<RecheckOutcome>,
): Promise<DomainRecheckRunner> {
  const connection = redisConnection(redisUrl);
  const prefix = `tributary:${o.instanceId}`;
  const name = 'domain-recheck';
  await checkRedis(redisUrl);
  const queue = new Queue(name, { connection, prefix });
  queue.on('error', (err) => o.logger.warn({ err }, 'domain re-check queue error'));
  const worker = new Worker(name, async () => (await sweep()).checked, {
    connection,
    prefix,
    concurrency: 1,
  });
  worker.on('error', (err) => o.logger.warn({ err }, 'domain re-check worker error'));
  worker.on('failed', (_job, err) => o.logger.warn({ err }, 'domain re-check sweep failed'));
  const schedule = () =>
    queue.upsertJobScheduler(
      'sweep',
      { every: o.intervalSeconds * 1000 },
      { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: true } },
    );
  let unhook: () => void = () => undefined;
  try {
    await within(REDIS_TIMEOUT_MS, schedule(), 'could not schedule the custom-domain re-check on Redis');
    await within(REDIS_TIMEOUT_MS, worker.waitUntilReady(), 'the domain re-check worker did not connect');
    unhook = await rescheduleOnReconnect(queue, schedule, o.logger, 'domain re-check');
  } catch (e) {
    await within(2_000, Promise.all([worker.disconnect(), queue.disconnect()]), '').catch(() => undefined);
    throw e;
  }
  return {
    mode: 'bullmq',
    sweepNow: sweep,
    queueDepths: () => queue.getJobCounts(...QUEUE_STATES),
    async stop() {
      unhook();
      await closeBounded(worker, queue, o.logger, 'domain re-check queue');
    },
  };
}
