// `tributary status`: what runs where, read straight off the configuration and the database, so it
// answers within a second (docs/cli.md#status). It loads none of the instance's modules and starts
// nothing: with the embedded PostgreSQL stopped it says so. The core's sections are here; each area's
// part (mail, peers) is in its own folder, listed in status-parts.ts.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from '../config/defaults.js';
import { iso, isoText } from '@tributary/projections/iso';
import { where, type StatusPart, type StatusReading } from './status-part.js';
import { statusParts, type StatusPartsReport } from './status-parts.js';
import { runningEmbeddedPostgresUrl } from '../postgres/embedded-postgres.js';
import { SETUP_CODE_FILE, isLoopbackAddress } from '../runtime/operator-claim.js';

/** The few settings status reads, from the environment as `start` would (docs/configuration.md). */
export interface StatusSettings {
  DATABASE_URL: string | undefined;
  TRIBUTARY_DATA_DIR: string;
  HOST: string;
  PORT: number;
  REDIS_URL: string | undefined;
  /** Any other variable as `start` reads it (an area's part asks for its own: SMTP_URL). */
  setting(name: string): string | undefined;
}

export function statusSettings(env: NodeJS.ProcessEnv): StatusSettings {
  const set = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const port = Number(set('PORT') ?? DEFAULT_PORT);
  return {
    DATABASE_URL: set('DATABASE_URL'),
    TRIBUTARY_DATA_DIR: set('TRIBUTARY_DATA_DIR') ?? DEFAULT_DATA_DIR,
    HOST: set('HOST') ?? DEFAULT_HOST,
    PORT: Number.isInteger(port) ? port : DEFAULT_PORT,
    REDIS_URL: set('REDIS_URL'),
    setting: set,
  };
}

interface CoreReport {
  instance: { id: string; role: string; name: string; baseUrl: string } | null;
  listening: { host: string; port: number; loopbackOnly: boolean; answering: boolean | null };
  database: {
    kind: 'embedded' | 'external';
    where: string;
    reachable: boolean;
    error: string | null;
    migrationsPending: number | null;
  };
  /** `events`: the log's last position (a count would read the whole table). */
  log: { events: number; feedHead: number; unsequenced: number } | null;
  queues: { kind: 'bullmq' | 'in-process'; redis: string | null };
  operators: number | null;
  keys: {
    keyId: string;
    state: 'current' | 'retired' | 'revoked';
    validFrom: string;
    validUntil: string | null;
    revokedAfter: string | null;
  }[];
  lastLogVerify: { at: string; ok: boolean } | null;
  warnings: string[];
}

export type StatusReport = CoreReport & StatusPartsReport;

/** The parts as the walk sees them: each reads and prints its own member. */
const parts = statusParts as readonly StatusPart<string, unknown>[];

/** The parts' members before they are read, in their place in the report. */
const partsNone = (place: StatusPart<string, unknown>['place']) =>
  Object.fromEntries(
    parts.filter((p) => p.place === place).map((p) => [p.key, p.none]),
  ) as Partial<StatusPartsReport>;

/** Whether something answers /readyz on the configured port of this machine, within half a second. */
async function answering(config: StatusSettings): Promise<boolean | null> {
  if (config.PORT === 0) return null;
  const { request } = await import('node:http');
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST === '::' ? '::1' : config.HOST;
  return new Promise((done) => {
    const req = request({ host, port: config.PORT, path: '/readyz', timeout: 500 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false));
    req.end();
  });
}

export async function statusReport(config: StatusSettings): Promise<StatusReport> {
  const warnings: string[] = [];
  const dataDir = resolve(config.TRIBUTARY_DATA_DIR);
  let url = config.DATABASE_URL;
  const kind = url ? 'external' : 'embedded';
  if (!url) url = await runningEmbeddedPostgresUrl(dataDir);
  const report = {
    instance: null,
    listening: {
      host: config.HOST,
      port: config.PORT,
      loopbackOnly: isLoopbackAddress(config.HOST) || config.HOST === 'localhost',
      answering: await answering(config),
    },
    database: {
      kind,
      where: kind === 'embedded' ? `${join(dataDir, 'postgres')}` : where(url!),
      reachable: false,
      error: null,
      migrationsPending: null,
    },
    log: null,
    ...partsNone('runs'),
    queues: config.REDIS_URL
      ? { kind: 'bullmq', redis: where(config.REDIS_URL) }
      : { kind: 'in-process', redis: null },
    operators: null,
    ...partsNone('instance'),
    keys: [],
    lastLogVerify: null,
    warnings,
  } satisfies CoreReport as StatusReport;
  if (report.listening.answering === false)
    warnings.push(`nothing answers on ${config.HOST}:${config.PORT}: the instance is not running here`);
  if (!url) {
    report.database.error = 'not running (the embedded database runs while `tributary start` does)';
    return report;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch (e) {
    report.database.error = (e as Error).message;
    warnings.push(`the database does not answer: ${(e as Error).message}`);
    return report;
  }
  try {
    report.database.reachable = true;
    const q = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
    const tables = new Set(
      (
        await q<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()`)
      ).map((r) => r.t),
    );
    if (!tables.has('rm_instance')) {
      warnings.push('the database holds no instance yet: `tributary start` creates it');
      return report;
    }
    const instance = (
      await q<{ instance_id: string; role: string; name: string; base_url: string }>(
        'SELECT instance_id, role, name, base_url FROM rm_instance',
      )
    )[0];
    if (instance)
      report.instance = {
        id: instance.instance_id,
        role: instance.role,
        name: instance.name,
        baseUrl: instance.base_url,
      };
    const [counts] = await q<{ events: string; head: string; unsequenced: string }>(
      `SELECT (SELECT coalesce(max(position), 0) FROM events) AS events,
              (SELECT coalesce(max(seq), 0) FROM event_sequence) AS head,
              (SELECT count(*) FROM events e WHERE e.position > (SELECT last_position FROM sequencer_state)) AS unsequenced`,
    );
    report.log = {
      events: Number(counts!.events),
      feedHead: Number(counts!.head),
      unsequenced: Number(counts!.unsequenced),
    };
    if (report.log.unsequenced > 1000)
      warnings.push(
        `${report.log.unsequenced} events wait for their feed number: is a worker (or \`start\`) running?`,
      );

    report.operators = Number(
      (await q<{ n: string }>('SELECT count(*) AS n FROM rm_instance_controllers'))[0]!.n,
    );
    if (report.operators === 0)
      warnings.push(
        existsSync(join(dataDir, SETUP_CODE_FILE))
          ? `no operator yet: the first account must give the setup code in ${join(dataDir, SETUP_CODE_FILE)}, or run \`tributary admin create-operator\``
          : 'no operator yet: the first account created becomes the operator, or run `tributary admin create-operator`',
      );

    const reading: StatusReading = {
      query: q,
      setting: config.setting,
      feedHead: report.log.feedHead,
      warn: (line) => warnings.push(line),
    };
    for (const part of parts)
      (report as unknown as Record<string, unknown>)[part.key] = await part.read(reading);

    const keys = await q<{
      key_id: string;
      valid_from: Date;
      valid_until: Date | null;
      revoked_after: Date | null;
    }>(`SELECT key_id, valid_from, valid_until, revoked_after FROM rm_instance_keys ORDER BY valid_from`);
    const current = keys.findLast((k) => k.valid_until === null)?.key_id;
    report.keys = keys.map((k) => ({
      keyId: k.key_id,
      state: k.key_id === current ? 'current' : k.revoked_after ? 'revoked' : 'retired',
      validFrom: isoText(k.valid_from),
      validUntil: iso(k.valid_until),
      revokedAfter: iso(k.revoked_after),
    }));
    if (!current) warnings.push('no current signing key in the log');

    if (tables.has('log_verify_runs')) {
      const run = (
        await q<{ finished_at: Date; ok: boolean }>(
          'SELECT finished_at, ok FROM log_verify_runs ORDER BY run_id DESC LIMIT 1',
        )
      )[0];
      report.lastLogVerify = run ? { at: isoText(run.finished_at), ok: run.ok } : null;
      if (run && !run.ok) warnings.push('the last `tributary log verify` FAILED: run it again and read why');
    }
    if (tables.has('restore_recovery')) {
      const pending = (await q<{ last_error: string | null }>('SELECT last_error FROM restore_recovery'))[0];
      if (pending)
        warnings.push(
          `restored from a backup and not recovered yet: run \`tributary recover\`${pending.last_error ? ` (last: ${pending.last_error})` : ''}`,
        );
    }
    const done = new Set(
      (await q<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    report.database.migrationsPending = await pendingMigrations(done);
    if (report.database.migrationsPending > 0)
      warnings.push(
        `${report.database.migrationsPending} database migrations pending: \`tributary migrate\` (or start)`,
      );
  } finally {
    await client.end().catch(() => undefined);
  }
  return report;
}

/** How many of the migrations in the sources the database has not applied. */
async function pendingMigrations(done: Set<number>): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  const dir = new URL('../postgres/migrations/', import.meta.url);
  const versions = (await readdir(dir)).flatMap((f) => {
    const m = /^(\d+)_.*\.sql$/.exec(f);
    return m ? [Number(m[1])] : [];
  });
  return versions.filter((v) => !done.has(v)).length;
}

/** The report as an operator reads it: one section a line or a few, warnings last. */
export function printStatus(r: StatusReport, print: (line: string) => void): void {
  const i = r.instance;
  print(i ? `instance   ${i.name} (${i.role}), ${i.id}; public address ${i.baseUrl}` : 'instance   none yet');
  const l = r.listening;
  print(
    `http       ${l.host}:${l.port} (${l.loopbackOnly ? 'this machine only' : 'reachable from the network'}): ${l.answering === null ? 'port chosen at start' : l.answering ? 'running, ready' : 'not answering'}`,
  );
  const d = r.database;
  print(
    `database   ${d.kind === 'embedded' ? `embedded PostgreSQL in ${d.where}` : `PostgreSQL at ${d.where}`}: ${d.reachable ? `reachable; migrations ${d.migrationsPending ? `${d.migrationsPending} pending` : 'all applied'}` : d.error}`,
  );
  if (r.log)
    print(
      `log        at position ${r.log.events}; feed head ${r.log.feedHead}; ${r.log.unsequenced} waiting for a feed number`,
    );
  printParts(r, 'runs', print);
  print(
    `queues     ${r.queues.kind === 'bullmq' ? `BullMQ on Redis at ${r.queues.redis}` : 'in-process (no REDIS_URL)'}`,
  );
  if (r.operators !== null) print(`operators  ${r.operators}`);
  if (r.instance) {
    printParts(r, 'instance', print);
    print(`keys       ${r.keys.length}`);
    for (const k of r.keys)
      print(
        `  ${k.keyId} ${k.state}, from ${k.validFrom}${k.validUntil ? ` until ${k.validUntil}` : ''}${k.revokedAfter ? `, revoked after ${k.revokedAfter}` : ''}`,
      );
    print(
      `log verify ${r.lastLogVerify ? `${r.lastLogVerify.ok ? 'OK' : 'FAILED'} at ${r.lastLogVerify.at}` : 'never run (`tributary log verify`)'}`,
    );
  }
  print(r.warnings.length === 0 ? 'warnings   none' : `warnings   ${r.warnings.length}`);
  for (const w of r.warnings) print(`  - ${w}`);
}

function printParts(
  r: StatusReport,
  place: StatusPart<string, unknown>['place'],
  print: (line: string) => void,
) {
  const members = r as unknown as Record<string, unknown>;
  for (const part of parts) if (part.place === place) part.print(members[part.key], print);
}
