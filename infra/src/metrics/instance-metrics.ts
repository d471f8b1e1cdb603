// The instance's Prometheus metrics (docs/operations.md#metrics). One registry per instance, not
// prom-client's global one: tests run several instances in one process. What is counted as it happens
// (requests, operations, appends) is recorded by hooks; what describes state (sequencer, projections,
// federation cursors, queues, the pool) is read when scraped, with a few cheap queries.
import { databaseUnavailable } from '@tributary/adapters';
import type { OperationMetrics } from '@tributary/services';
import type pg from 'pg';
import client from 'prom-client';
import type { ReplicaState } from '../postgres/read-replicas.js';

/** Queue depths by state, for each BullMQ queue this process runs (absent without Redis). */
export type QueueDepths = () => Promise<Record<string, number>>;

export interface InstanceMetrics {
  registry: client.Registry;
  /** The pipeline's port (services.metrics). */
  operations: OperationMetrics;
  /** One HTTP request answered: its route label (a pattern, never the raw path), method and status. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** One local append (PgEventStore.append), committed or refused. */
  observeAppend(seconds: number, events: number, ok: boolean): void;
  /** The BullMQ queues to report (set when background work starts). */
  queues: Map<string, QueueDepths>;
  /** Reads the scrape-time state and renders the exposition text. */
  render(): Promise<string>;
  contentType: string;
}

/** Request latencies: a fast feed page is milliseconds, a chat turn with a model may be a minute. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Appends: one round trip when small (sub-millisecond to a few ms), seconds only when in trouble. */
const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** The scrape-time queries may not hold a scrape longer than this (Prometheus' default timeout is 10 s). */
const SCRAPE_QUERY_TIMEOUT_MS = 5_000;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `asyncProjections`: the names of the projections that fold the sequenced log behind a checkpoint. */
/** `replicas`: the read replicas' last checked state (DATABASE_READ_URL; none without it). */
export function createInstanceMetrics(
  pool: pg.Pool,
  asyncProjections: readonly string[],
  replicas: readonly ReplicaState[] = [],
): InstanceMetrics {
  const registry = new client.Registry();
  // Process CPU and memory, GC, handles and the event-loop delay (nodejs_eventloop_lag_*).
  client.collectDefaultMetrics({ register: registry });

  const httpRequests = new client.Counter({
    name: 'tributary_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: 'tributary_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer ending, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const operations = new client.Counter({
    name: 'tributary_operations_total',
    help: 'Catalogue operations run through the pipeline, by operation, kind, surface, outcome and error code.',
    labelNames: ['operation', 'kind', 'surface', 'outcome', 'code'] as const,
    registers: [registry],
  });
  const operationDuration = new client.Histogram({
    name: 'tributary_operation_duration_seconds',
    help: 'Time one pipeline invocation took, by operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const appendDuration = new client.Histogram({
    name: 'tributary_event_append_duration_seconds',
    help: 'Time of one local append to the Postgres event store (commands; imports not included), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: APPEND_BUCKETS,
    registers: [registry],
  });
  const imported = new client.Counter({
    name: 'tributary_federation_imported_events_total',
    help: "Peers' events this process imported, by how they came (push, pull) and result (accepted, duplicate, rejected): duplicates are work a hop did twice.",
    labelNames: ['via', 'result'] as const,
    registers: [registry],
  });
  const pushBehind = new client.Counter({
    name: 'tributary_federation_push_batches_behind_total',
    help: "Peers' push batches that began before our pull cursor (a redelivery after the sender lost our answer, or what our pull took first): answered with where to resend from, nothing imported.",
    registers: [registry],
  });
  const appended = new client.Counter({
    name: 'tributary_events_appended_total',
    help: 'Events written by local appends that committed.',
    registers: [registry],
  });

  // Scrape-time state.
  const up = new client.Gauge({
    name: 'tributary_metrics_database_up',
    help: '1 when the scrape-time queries answered, 0 when the database did not (the state gauges are then absent).',
    registers: [registry],
  });
  // Without labels, a reset gauge still reports 0: these are in the registry only while their value is
  // known (see `known`), so an unreachable database leaves them out instead of saying 0.
  const unsequencedCount = new client.Gauge({
    name: 'tributary_sequencer_unsequenced_events',
    help: 'Committed events the sequencer has not yet given a feed sequence.',
    registers: [],
  });
  const unsequencedAge = new client.Gauge({
    name: 'tributary_sequencer_oldest_unsequenced_age_seconds',
    help: 'Age of the oldest committed event without a feed sequence (0 when none).',
    registers: [],
  });
  const feedHead = new client.Gauge({
    name: 'tributary_sequencer_head',
    help: 'The last sequence given (every event, federable or not).',
    registers: [],
  });
  const unlabelledState = [unsequencedCount, unsequencedAge, feedHead];
  const known = (yes: boolean) => {
    for (const g of unlabelledState) {
      const name = (g as unknown as { name: string }).name;
      const registered = !!registry.getSingleMetric(name);
      if (yes && !registered) registry.registerMetric(g);
      if (!yes && registered) registry.removeSingleMetric(name);
    }
  };
  const projectionLag = new client.Gauge({
    name: 'tributary_projection_lag_events',
    help: 'Sequenced events an async projection has not folded yet, by projection.',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const projectionAge = new client.Gauge({
    name: 'tributary_projection_checkpoint_age_seconds',
    help: "Seconds since an async projection's checkpoint last moved (absent before its first run), by projection; only a concern while its lag is above 0.",
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const pushBacklog = new client.Gauge({
    name: 'tributary_federation_push_backlog_events',
    help: 'Federable events of our feed a peer has not acknowledged yet, by peer.',
    labelNames: ['peer'] as const,
    registers: [registry],
  });
  const pushLag = new client.Gauge({
    name: 'tributary_federation_push_lag_seconds',
    help: 'Age of the oldest federable event a peer has not acknowledged (0 when none), by peer.',
    labelNames: ['peer'] as const,
    registers: [registry],
  });
  const pullLag = new client.Gauge({
    name: 'tributary_federation_pull_lag_events',
    help: "How far our pull cursor is behind the peer's feed head as of its last answer, by peer.",
    labelNames: ['peer'] as const,
    registers: [registry],
  });
  const sinceSuccess = new client.Gauge({
    name: 'tributary_federation_last_success_age_seconds',
    help: 'Seconds since a cursor last completed an attempt (absent when never), by peer and direction.',
    labelNames: ['peer', 'direction'] as const,
    registers: [registry],
  });
  const failures = new client.Gauge({
    name: 'tributary_federation_consecutive_failures',
    help: 'Failed attempts of a cursor since its last success (drives its backoff), by peer and direction.',
    labelNames: ['peer', 'direction'] as const,
    registers: [registry],
  });
  const cursorEvents = new client.Gauge({
    name: 'tributary_federation_cursor_events',
    help: 'Events a cursor has moved since it was created, by peer, direction and result (accepted, duplicate, rejected); a counter kept in the database.',
    labelNames: ['peer', 'direction', 'result'] as const,
    registers: [registry],
  });
  const queueDepth = new client.Gauge({
    name: 'tributary_queue_jobs',
    help: 'BullMQ jobs by queue and state (only with REDIS_URL).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const poolGauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge(
    'tributary_db_pool_connections',
    'Connections the database pool holds (in use and idle).',
    () => pool.totalCount,
  );
  poolGauge(
    'tributary_db_pool_idle_connections',
    'Connections of the pool idle right now.',
    () => pool.idleCount,
  );
  poolGauge(
    'tributary_db_pool_waiting_clients',
    'Callers waiting for a pool connection (above 0 for long: the pool is too small or queries too slow).',
    () => pool.waitingCount,
  );
  poolGauge(
    'tributary_db_pool_max_connections',
    'The pool size (DATABASE_POOL_SIZE).',
    () => pool.options.max ?? 10,
  );

  // The read replicas as their last check saw them (every DATABASE_REPLICA_CHECK_MS, not at scrape).
  const replicaGauge = (
    name: string,
    help: string,
    read: (r: ReplicaState) => number | null,
  ): client.Gauge<'replica'> =>
    new client.Gauge({
      name,
      help,
      labelNames: ['replica'] as const,
      registers: replicas.length ? [registry] : [],
      collect() {
        this.reset();
        for (const r of replicas) {
          const v = read(r);
          if (v !== null) this.set({ replica: r.label }, v);
        }
      },
    });
  replicaGauge(
    'tributary_database_replica_lag_seconds',
    'How far a read replica is behind the primary: age of the oldest WAL it has not replayed (absent while unreachable), by replica.',
    (r) => r.lagSeconds,
  );
  replicaGauge(
    'tributary_database_replica_lag_bytes',
    "Bytes of WAL between the primary's position and a read replica's replay position (absent while unreachable), by replica.",
    (r) => r.lagBytes,
  );
  replicaGauge(
    'tributary_database_replica_up',
    '1 while a read replica serves reads; 0 while it is skipped (unreachable, not a standby, or behind more than DATABASE_REPLICA_MAX_LAG_MS), by replica.',
    (r) => (r.inUse ? 1 : 0),
  );
  new client.Counter({
    name: 'tributary_database_replica_reads_total',
    help: 'Reads sent to a read replica, by replica and outcome (served; fell_back: failed there, answered by the primary).',
    labelNames: ['replica', 'outcome'] as const,
    registers: replicas.length ? [registry] : [],
    collect() {
      this.reset();
      for (const r of replicas) {
        // Kept by the read pool; copied at each scrape.
        this.inc({ replica: r.label, outcome: 'served' }, r.reads - r.fellBack);
        this.inc({ replica: r.label, outcome: 'fell_back' }, r.fellBack);
      }
    },
  });

  const stateGauges = [
    unsequencedCount,
    unsequencedAge,
    feedHead,
    projectionLag,
    projectionAge,
    pushBacklog,
    pushLag,
    pullLag,
    sinceSuccess,
    failures,
    cursorEvents,
  ];

  async function readState(): Promise<void> {
    const [seq, projections, cursors] = await Promise.all([
      // Everything past the sequencer's bookmark, by the (tx_id, position) index the sequencer itself uses.
      pool.query<{ n: string; age: number | null; head: string }>(
        `SELECT st.last_seq AS head,
                (SELECT count(*) FROM events e WHERE (e.tx_id, e.position) > (st.last_tx, st.last_position)) AS n,
                (SELECT extract(epoch FROM now() - min(e.recorded_at))::float8 FROM events e
                  WHERE (e.tx_id, e.position) > (st.last_tx, st.last_position)) AS age
           FROM sequencer_state st`,
      ),
      // A projection that has not run yet has no checkpoint: it is behind by everything.
      pool.query<{ name: string; lag: string; age: number | null }>(
        `SELECT p.name, greatest(0, st.last_seq - coalesce(c.seq, 0)) AS lag,
                extract(epoch FROM now() - c.updated_at)::float8 AS age
           FROM unnest($1::text[]) AS p(name) CROSS JOIN sequencer_state st
           LEFT JOIN projection_checkpoints c ON c.name = p.name`,
        [asyncProjections],
      ),
      pool.query<{
        peer_id: string;
        direction: string;
        position: string;
        peer_head: string | null;
        attempts: number;
        since_success: number | null;
        accepted: string;
        duplicates: string;
        rejected: string;
        backlog: string | null;
        oldest_age: number | null;
      }>(
        `SELECT c.peer_id, c.direction, c.position, c.peer_head, c.attempts, c.accepted, c.duplicates, c.rejected,
                extract(epoch FROM now() - c.last_success_at)::float8 AS since_success,
                CASE WHEN c.direction = 'push' THEN
                  (SELECT count(*) FROM event_sequence s WHERE s.feed AND s.seq > c.position) END AS backlog,
                CASE WHEN c.direction = 'push' THEN
                  (SELECT extract(epoch FROM now() - e.recorded_at)::float8
                     FROM event_sequence s JOIN events e ON e.position = s.position
                    WHERE s.feed AND s.seq > c.position ORDER BY s.seq LIMIT 1) END AS oldest_age
           FROM federation_sync_cursors c`,
      ),
    ]);
    for (const g of stateGauges) g.reset();
    known(true);
    const s = seq.rows[0];
    unsequencedCount.set(Number(s?.n ?? 0));
    unsequencedAge.set(Math.max(0, s?.age ?? 0));
    feedHead.set(Number(s?.head ?? 0));
    for (const p of projections.rows) {
      projectionLag.set({ projection: p.name }, Number(p.lag));
      if (p.age !== null) projectionAge.set({ projection: p.name }, Math.max(0, p.age));
    }
    for (const c of cursors.rows) {
      const peer = c.peer_id;
      const direction = c.direction;
      if (direction === 'push') {
        pushBacklog.set({ peer }, Number(c.backlog ?? 0));
        pushLag.set({ peer }, Math.max(0, c.oldest_age ?? 0));
      } else if (c.peer_head !== null) {
        pullLag.set({ peer }, Math.max(0, Number(c.peer_head) - Number(c.position)));
      }
      if (c.since_success !== null) sinceSuccess.set({ peer, direction }, Math.max(0, c.since_success));
      failures.set({ peer, direction }, c.attempts);
      cursorEvents.set({ peer, direction, result: 'accepted' }, Number(c.accepted));
      cursorEvents.set({ peer, direction, result: 'duplicate' }, Number(c.duplicates));
      cursorEvents.set({ peer, direction, result: 'rejected' }, Number(c.rejected));
    }
  }

  const queues = new Map<string, QueueDepths>();
  async function readQueues(): Promise<void> {
    queueDepth.reset();
    await Promise.all(
      [...queues].map(async ([queue, depths]) => {
        const counts = await depths();
        for (const [state, n] of Object.entries(counts)) queueDepth.set({ queue, state }, n);
      }),
    );
  }

  const bounded = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('scrape-time read timed out')), SCRAPE_QUERY_TIMEOUT_MS).unref(),
      ),
    ]);

  return {
    registry,
    queues,
    contentType: registry.contentType,
    operations: {
      operation(name, kind, surface, outcome, code, seconds, error) {
        // What the client was answered: an unreachable database is 503 service.unavailable.
        if (code === 'server.internal' && error !== undefined && databaseUnavailable(error))
          code = 'service.unavailable';
        operations.inc({ operation: name, kind, surface, outcome, code });
        operationDuration.observe({ operation: name, outcome }, seconds);
      },
      imported(via, { accepted, duplicates, rejected }) {
        imported.inc({ via, result: 'accepted' }, accepted);
        imported.inc({ via, result: 'duplicate' }, duplicates);
        imported.inc({ via, result: 'rejected' }, rejected);
      },
      pushBehindCursor() {
        pushBehind.inc();
      },
    },
    observeRequest(route, method, status, seconds) {
      // Node accepts any of ~30 methods; the rare ones are one label between them.
      const m = METHODS.has(method) ? method : 'OTHER';
      httpRequests.inc({ route, method: m, status: String(status) });
      httpDuration.observe({ route, method: m }, seconds);
    },
    observeAppend(seconds, events, ok) {
      appendDuration.observe({ outcome: ok ? 'committed' : 'refused' }, seconds);
      if (ok) appended.inc(events);
    },
    async render() {
      // A database or Redis that does not answer must not stop the rest from being reported.
      try {
        await bounded(readState());
        up.set(1);
      } catch {
        for (const g of stateGauges) g.reset();
        known(false);
        up.set(0);
      }
      await bounded(readQueues()).catch(() => queueDepth.reset());
      return registry.metrics();
    },
  };
}
