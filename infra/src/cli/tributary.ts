// The `tributary` command: start the instance, and the operator's tools around the log.
import { Command, CommanderError } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { dirname, join } from 'node:path';
import type * as RuntimeModule from './runtime.js';
import type { DomainErrorCode } from '@tributary/domain';
import type { Config, DomainError, Instance, ProcessRole } from './runtime.js';

/** The instance's modules, loaded before a command's action runs (not for --version, --help). */
type Runtime = typeof RuntimeModule;
let rt: Runtime;

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Commands that answer without the instance's modules (within a second, docs/cli.md#speed). */
const LIGHT_COMMANDS = new Set(['status']);

/** Exit codes (docs/cli.md): 1 the command ran and failed, 2 the command line is wrong. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/**
 * A command line that cannot be run as given: exit code 2, like commander's own usage errors. A stable
 * code, when one is given, follows the message as a domain error's does.
 */
class UsageError extends Error {
  constructor(
    message: string,
    readonly code?: DomainErrorCode,
  ) {
    super(message);
  }
}

const program = new Command()
  .name('tributary')
  .description('A federated instance server: one append-only log of signed events.')
  .version(VERSION, '-V, --version', 'print the version')
  // Every error is one line `tributary: <message>`; commander's own ("error: unknown option …") too.
  .configureOutput({ outputError: (text, write) => write(`tributary: ${text.replace(/^error: /, '')}`) })
  .showHelpAfterError('(add --help for usage)')
  .exitOverride()
  .hook('preAction', async (top, command) => {
    // A failure that escapes a command's promise (a stream's error event) is one line too, not a stack;
    // `start` guards its process itself (runtime/process-guard.ts).
    if (command.name() !== 'start')
      for (const event of ['uncaughtException', 'unhandledRejection'] as const) process.on(event, failed);
    // Only the top-level commands are light: `federation status` needs the runtime like any other.
    const light = command.parent === top && LIGHT_COMMANDS.has(command.name());
    if (!light) rt = await import('./runtime.js');
  });

/** Operator commands log only warnings, so their own output stays readable. */
const quietConfig = (): Config => ({ ...rt.loadConfig(), LOG_LEVEL: 'warn' });

async function withInstance<T>(run: (i: Instance) => Promise<T>): Promise<T> {
  const instance = await rt.composeInstance(quietConfig(), { attachToRunning: true });
  try {
    return await run(instance);
  } finally {
    await instance.close();
  }
}

/**
 * What a started process reports once it is ready, for the process that started it (PORT=0): written
 * whole under another name then renamed, so a reader never sees half of it (docs/cli.md).
 */
function writeAddressFile(
  file: string,
  address: {
    pid: number;
    role: string;
    url: string | null;
    baseUrl: string | null;
    metricsUrl: string | null;
  },
): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(address)}\n`);
  renameSync(partial, file);
}

program
  .command('start')
  .description('run the instance: HTTP on PORT, embedded Postgres when DATABASE_URL is unset')
  .option(
    '--role <role>',
    `what this process runs: api (HTTP only), worker (background loops only) or all (both); default PROCESS_ROLE, else all`,
  )
  .action(async (o: { role?: string }) => {
    if (o.role !== undefined && !(rt.PROCESS_ROLES as readonly string[]).includes(o.role))
      throw new UsageError(
        `--role must be one of ${rt.PROCESS_ROLES.join(', ')}, not ${JSON.stringify(o.role)}`,
      );
    const loaded = rt.loadConfig();
    let config: Config = {
      ...loaded,
      PROCESS_ROLE: (o.role as ProcessRole | undefined) ?? loaded.PROCESS_ROLE,
    };
    const role = config.PROCESS_ROLE;
    // PORT=0: the kernel picks the port now, and the socket is held until the server takes it over, so
    // the public address can name it and nothing else can take it meanwhile (docs/configuration.md).
    let held: NetServer | undefined;
    if (role !== 'worker' && config.PORT === 0) {
      held = await rt.holdPort(config.HOST);
      const port = (held.address() as AddressInfo).port;
      config = {
        ...config,
        PORT: port,
        BASE_URL: process.env.BASE_URL ? config.BASE_URL : `http://${rt.loopbackOf(config.HOST)}:${port}`,
      };
    }
    // Fail fast, before Postgres starts, when the port is taken (a worker listens on none of its own).
    else if (role !== 'worker') await rt.assertPortFree(config.PORT, config.HOST);
    const logger = rt.createLogger(config.LOG_LEVEL, undefined, rt.logFormatFor(config.LOG_FORMAT));
    // From here on nothing a request does may end the process (one bad request would stop it for all).
    rt.guardProcess(logger);
    // Processes started together on an empty database race to create the instance: the ones that lose
    // (a stream conflict on its first event) compose again and find the instance the winner created.
    const composing = { logger, refuseUnrecoveredRestore: true };
    const instance = await rt.composeInstance(config, composing).catch((e: unknown) => {
      if (!rt.isDomainError(e) || e.code !== 'log.stream_conflict') throw e;
      logger.info('another process created the instance meanwhile; composing again');
      return rt.composeInstance(config, composing);
    });
    let running: { stop(): Promise<void>; metricsUrl: string | null };
    let url: string | null = null;
    if (role === 'worker') {
      running = await rt.work(instance);
      logger.info(
        { role, instanceId: instance.instanceId },
        'tributary worker is ready: sequencer, async projections, sync and re-checks running; no HTTP',
      );
    } else {
      const server = await rt.serve(instance, held ? { listening: held } : {});
      running = server;
      url = server.url;
      // Read before the ready line: nothing may wait between it and the signal handlers below.
      const operators = (await instance.services.read.instance.get())?.controllers.length ?? 0;
      logger.info(
        { url: config.BASE_URL, listening: server.bound, instanceId: instance.instanceId, role },
        `tributary is ready: listening on ${server.bound}; public address ${config.BASE_URL}${role === 'api' ? ' (role api: no background loops, a worker must run)' : ''}`,
      );
      const openAt = config.BASE_URL;
      logger.info(
        { url: openAt },
        `open ${openAt} in a browser${operators === 0 && !server.setupCode ? ': the first account created there becomes the operator' : ''}`,
      );
      if (server.setupCode)
        logger.warn(
          { setupCodeFile: server.setupCode.file },
          `setup code ${server.setupCode.code}: this instance listens beyond this machine and has no operator yet; the first account must give this code to become the operator (it is also in ${server.setupCode.file}), or run \`tributary admin create-operator\``,
        );
    }
    if (running.metricsUrl)
      logger.info(
        { metrics: running.metricsUrl },
        `metrics on their own port: ${running.metricsUrl}/metrics`,
      );
    if (config.TRIBUTARY_ADDRESS_FILE)
      writeAddressFile(config.TRIBUTARY_ADDRESS_FILE, {
        pid: process.pid,
        role,
        url,
        baseUrl: role === 'worker' ? null : config.BASE_URL,
        metricsUrl: running.metricsUrl,
      });
    if (config.NODE_ENV === 'test' && config.TRIBUTARY_FAILPOINTS.includes('process.uncaught'))
      setImmediate(() => {
        void Promise.reject(new Error('failpoint process.uncaught: a rejection nothing awaits'));
        setTimeout(() => {
          throw new Error('failpoint process.uncaught: an exception nothing catches');
        });
      });
    // The log writes asynchronously: process.exit() would write the last lines ahead of one still on its
    // way to stdout. End by letting the event loop drain, with a deadline in case a handle stays open.
    const exit = (code: number) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 2000).unref();
    };
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) {
        // A second Ctrl-C: stop waiting. The exit hook still stops an embedded Postgres.
        logger.warn({ signal }, 'second signal: exiting without waiting');
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, 'shutting down');
      running
        .stop()
        .then(() => {
          logger.info('stopped');
          exit(0);
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          exit(1);
        });
    };
    // SIGHUP too: the terminal closing. Postgres is in its own process group and would not hear it.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  });

program
  .command('status')
  .description(
    'what runs where: the instance, its database, mail, queues, peers and their lag, keys, and what to act on',
  )
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const { printStatus, statusReport, statusSettings } = await import('./status.js');
    const report = await statusReport(statusSettings(process.env));
    if (o.json) console.log(JSON.stringify(report, null, 2));
    else printStatus(report, (line) => console.log(line));
  });

program
  .command('migrate')
  .description('apply database migrations and exit')
  .action(async () => {
    const config = quietConfig();
    const db = await rt.openDatabase(config, rt.createLogger('warn'), {
      attachToRunning: true,
      maintenance: true,
    });
    try {
      const { applied } = await rt.migrate(db.pool);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'migrations: up to date');
    } finally {
      await db.close();
    }
  });

const log = program.command('log').description('the signed event log');
log
  .command('verify')
  .description("replay the whole log, re-verify every signature and every stream's version chain")
  .action(async () => {
    const config = quietConfig();
    const db = await rt.openDatabase(config, rt.createLogger('warn'), {
      attachToRunning: true,
      maintenance: true,
    });
    try {
      const bar = rt.progressBar('verifying');
      const startedAt = new Date();
      const report = await rt.verifyLog(db.pool, bar.update);
      bar.stop();
      await rt.recordLogVerifyRun(db.pool, { startedAt, finishedAt: new Date(), ...report });
      const byOrigin = Object.entries(report.origins)
        .map(([o, n]) => `${o}: ${n}`)
        .join(', ');
      console.log(
        `events verified: ${report.events}; streams: ${report.streams}${byOrigin ? `; by origin: ${byOrigin}` : ''}`,
      );
      if (report.flagged > 0)
        console.log(`flagged: ${report.flagged} events signed by a revoked key after its revocation time`);
      if (!report.ok) {
        const b = report.firstBad!;
        console.error(
          `tributary: log verify FAILED at position ${b.position}${b.id ? ` (event ${b.id}` : ''}${b.stream ? `${b.id ? ', ' : ' ('}stream ${b.stream})` : b.id ? ')' : ''}: ${b.code}: ${b.reason}`,
        );
        process.exitCode = 1;
      } else console.log('log verify: OK');
    } finally {
      await db.close();
    }
  });

/** A list as tab-separated columns under a header line, or as JSON with --json. */
function printList<T extends Record<string, unknown>>(
  rows: T[],
  columns: [header: string, value: (row: T) => string][],
  o: { json?: boolean | undefined },
) {
  if (o.json) return console.log(JSON.stringify(rows, null, 2));
  console.log(columns.map(([h]) => h).join('\t'));
  for (const row of rows) console.log(columns.map(([, v]) => v(row)).join('\t'));
}

const projections = program.command('projections').description('read models folded from the log');
projections
  .command('list')
  .description('list the projections')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    printList(
      rt.allProjections.map((p) => ({ name: p.name, mode: p.mode, tables: [...p.tables] })),
      [
        ['NAME', (p) => p.name],
        ['MODE', (p) => p.mode],
        ['TABLES', (p) => p.tables.join(',')],
      ],
      o,
    ),
  );
projections
  .command('rebuild [name]')
  .description('rebuild one projection (or all) from the log')
  .action(async (name?: string) => {
    const chosen = name ? rt.allProjections.filter((p) => p.name === name) : rt.allProjections;
    if (name && chosen.length === 0)
      throw new UsageError(
        `unknown projection ${name}; known: ${rt.allProjections.map((p) => p.name).join(', ')}`,
      );
    const config = quietConfig();
    const db = await rt.openDatabase(config, rt.createLogger('warn'), {
      attachToRunning: true,
      maintenance: true,
    });
    try {
      await rt.migrate(db.pool);
      let bar: ReturnType<typeof rt.progressBar> | null = null;
      let current = '';
      const counts = await rt.rebuildProjections(db.pool, chosen, (p, done, total) => {
        if (p !== current) {
          bar?.stop();
          bar = rt.progressBar(`rebuilding ${p}`);
          current = p;
        }
        bar!.update(done, total);
      });
      (bar as ReturnType<typeof rt.progressBar> | null)?.stop();
      for (const [p, n] of Object.entries(counts)) console.log(`${p}: rebuilt from ${n} events`);
    } finally {
      await db.close();
    }
  });

const admin = program.command('admin').description("the instance's operators (controllers)");
const runAdmin = (opName: string, input: Record<string, string>) =>
  withInstance(async (instance) => {
    const op = rt.getOperation(opName)!;
    const { result } = await rt.execute(instance.services, op, input, { kind: 'system', agentId: '' }, 'cli');
    console.log(JSON.stringify(result));
  });
admin
  .command('grant <account>')
  .description('make an account (id, email or handle) an operator of this instance')
  .action((account: string) => runAdmin('svc.admin.grant_controller', { account }));
admin
  .command('move <from> <to>')
  .description('hand the operator role from one account to another')
  .action((from: string, to: string) => runAdmin('svc.admin.move_controller', { from, to }));
admin
  .command('create-operator')
  .description('create an account that is an operator of this instance (no setup code needed here)')
  .option('--email <email>', 'its email')
  .option('--handle <handle>', 'its handle')
  .option('--name <name>', 'its display name')
  .option(
    '--password-file <file>',
    'its password, on the first line of this file (otherwise one is made up and printed once)',
  )
  .action((o: { email?: string; handle?: string; name?: string; passwordFile?: string }) => {
    if (!o.email && !o.handle) throw new UsageError('give --email and/or --handle');
    const given = passwordFrom(o.passwordFile);
    const password = given ?? randomBytes(12).toString('base64url');
    return withInstance(async (instance) => {
      // The same operations as the sign-up page and `admin grant`: the first account becomes the operator.
      const r = await runOp(instance, 'svc.auth.sign_up', {
        ...(o.email && { email: o.email }),
        ...(o.handle && { handle: o.handle }),
        ...(o.name && { name: o.name }),
        password,
      });
      if (!r.operator) await runOp(instance, 'svc.admin.grant_controller', { account: String(r.accountId) });
      console.log(`operator created: ${o.handle ?? o.email} (account ${String(r.accountId)})`);
      if (!given) console.log(`password (shown once, change it after signing in): ${password}`);
    });
  });
admin
  .command('list')
  .description('list the operators')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withInstance(async (instance) => {
      const info = await instance.services.read.instance.get();
      const rows = [];
      for (const accountId of info?.controllers ?? []) {
        const a = await instance.services.read.accounts.accountById(accountId);
        rows.push({ accountId, email: a?.email ?? null, handle: a?.handle ?? null });
      }
      printList(
        rows,
        [
          ['ACCOUNT', (r) => r.accountId],
          ['EMAIL', (r) => r.email ?? ''],
          ['HANDLE', (r) => r.handle ?? ''],
        ],
        o,
      );
    }),
  );

const runOp = (instance: Instance, opName: string, input: Record<string, unknown>) =>
  rt
    .execute(instance.services, rt.getOperation(opName)!, input, { kind: 'system', agentId: '' }, 'cli')
    .then((r) => r.result as Record<string, unknown>);

const peers = program.command('peers').description('the peer instances this one federates with');
peers
  .command('add')
  .description(
    'register a peer: from its signed manifest (--from <baseUrl>), or its id, base URL, role and key given by hand',
  )
  .option('--from <baseUrl>', "read id, role and key from the peer's signed manifest at this base URL")
  .option('--expect-key-id <keyId>', 'with --from: refuse unless the manifest is signed by this key id')
  .option('--id <instanceId>', "the peer's instance id")
  .option('--url <baseUrl>', "the peer's base URL")
  .option('--role <role>', 'global, person, group, locale or region')
  .option('--key <publicKey>', "the peer's Ed25519 public key (unpadded base64url)")
  .option('--name <name>', 'a display name')
  .option('--secret <secret>', 'the shared secret agreed out of band (generated and shown once if omitted)')
  .action(
    (o: {
      from?: string;
      expectKeyId?: string;
      id?: string;
      url?: string;
      role?: string;
      key?: string;
      name?: string;
      secret?: string;
    }) =>
      withInstance(async (instance) => {
        let peer = { id: o.id, url: o.url, role: o.role, key: o.key, name: o.name };
        let keyId: string | undefined;
        let previousKeys: unknown[] = [];
        if (o.from) {
          const m = await rt.fetchPeerManifest(
            rt.outboundFromConfig(instance.config),
            o.from,
            instance.services.clock.now(),
          );
          if (o.expectKeyId && o.expectKeyId !== m.keyId)
            throw new Error(`the manifest is signed by ${m.keyId}, not the expected ${o.expectKeyId}`);
          peer = { id: m.instanceId, url: m.baseUrl, role: m.role, key: m.publicKey, name: o.name ?? m.name };
          keyId = m.keyId;
          previousKeys = m.previousKeys;
        }
        if (!peer.id || !peer.url || !peer.role || !peer.key)
          throw new UsageError('give --from <baseUrl>, or all of --id, --url, --role and --key');
        const r = await runOp(instance, 'svc.federation.register_peer', {
          peerId: peer.id,
          baseUrl: peer.url,
          role: peer.role,
          publicKey: peer.key,
          ...(peer.name && { name: peer.name }),
          ...(o.secret && { secret: o.secret }),
          // Registered after the peer rotated: its older keys verify its history (the manifest vouches).
          ...(previousKeys.length > 0 && { previousKeys }),
        });
        console.log(`registered ${String(r.peerId)} (${String(r.role)}) at ${String(r.baseUrl)}`);
        if (keyId && !o.expectKeyId)
          console.log(
            `key id ${keyId}: confirm it with the peer's operator (\`tributary federation identity\` prints it there)`,
          );
        if (r.secret)
          console.log(`shared secret (shown once, give it to the peer's operator): ${String(r.secret)}`);
      }),
  );
peers
  .command('list')
  .description('list the registered peers and their keys')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withInstance(async (instance) => {
      const r = await runOp(instance, 'svc.federation.list_peers', {});
      const list = r.peers as {
        peerId: string;
        name: string;
        role: string;
        baseUrl: string;
        blocked: boolean;
        keys: { keyId: string; validUntil: string | null }[];
      }[];
      if (list.length === 0 && !o.json)
        return console.log('no peers registered (add one with `tributary peers add --from <base URL>`)');
      printList(
        list,
        [
          ['PEER', (p) => p.peerId],
          ['ROLE', (p) => p.role],
          ['BASE URL', (p) => p.baseUrl],
          ['STATUS', (p) => (p.blocked ? 'BLOCKED' : 'active')],
          ['KEY ID', (p) => p.keys.find((k) => !k.validUntil)?.keyId ?? '-'],
          ['NAME', (p) => p.name],
        ],
        o,
      );
    }),
  );
peers
  .command('rotate <peerId>')
  .description("record a peer's new key, or rotate the shared secret")
  .option(
    '--key <publicKey>',
    "the peer's new Ed25519 public key (the old one keeps verifying its past events)",
  )
  .option('--secret [secret]', 'a new shared secret (generated and shown once when no value is given)')
  .action((peerId: string, o: { key?: string; secret?: string | boolean }) =>
    withInstance(async (instance) => {
      if (!o.key && o.secret === undefined) throw new UsageError('give --key and/or --secret');
      const r = await runOp(instance, 'svc.federation.update_peer', {
        peerId,
        ...(o.key && { publicKey: o.key }),
        ...(o.secret === true && { rotateSecret: true }),
        ...(typeof o.secret === 'string' && { secret: o.secret }),
      });
      console.log(`${peerId}: ${(r.changed as string[]).join(', ') || 'unchanged'}`);
      if (r.secret) console.log(`new shared secret (shown once): ${String(r.secret)}`);
    }),
  );
peers
  .command('block <peerId>')
  .description('refuse everything from a peer and stop syncing with it')
  .option('--reason <reason>', 'why')
  .action((peerId: string, o: { reason?: string }) =>
    withInstance(async (instance) => {
      await runOp(instance, 'svc.federation.update_peer', {
        peerId,
        blocked: true,
        ...(o.reason && { reason: o.reason }),
      });
      console.log(`${peerId}: blocked`);
    }),
  );
peers
  .command('unblock <peerId>')
  .description('accept a blocked peer again')
  .action((peerId: string) =>
    withInstance(async (instance) => {
      await runOp(instance, 'svc.federation.update_peer', { peerId, blocked: false });
      console.log(`${peerId}: unblocked`);
    }),
  );

/** `90s`, `15m`, `24h`, `7d` or plain seconds; a usage error otherwise. */
function parseDuration(text: string, option: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`${option} takes a duration like 90s, 15m, 24h or 7d, not "${text}"`);
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
}

const keys = program.command('keys').description("the instance's own signing keys");
keys
  .command('list')
  .description("the instance's keys: key id, valid from, valid until, revoked after; the current one marked")
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withInstance(async (instance) => {
      const all = await rt.instanceKeys(instance.services);
      const current = all.findLast((k) => k.validUntil === undefined)?.keyId;
      const rows = all.map((k) => ({
        keyId: k.keyId,
        publicKey: k.publicKey,
        validFrom: k.validFrom,
        validUntil: k.validUntil ?? null,
        revokedAfter: k.revokedAfter ?? null,
        current: k.keyId === current,
        heldHere: instance.keys.held(k.keyId) !== undefined,
      }));
      printList(
        rows,
        [
          ['KEY ID', (r) => r.keyId],
          ['STATE', (r) => (r.current ? 'current' : r.revokedAfter ? 'revoked' : 'retired')],
          ['VALID FROM', (r) => r.validFrom],
          ['VALID UNTIL', (r) => r.validUntil ?? ''],
          ['REVOKED AFTER', (r) => r.revokedAfter ?? ''],
        ],
        o,
      );
    }),
  );
keys
  .command('rotate')
  .description(
    'sign with a new key from now on; the current key stays valid for the overlap (default 24h) and keeps verifying what it signed',
  )
  .option(
    '--overlap <duration>',
    'how long the previous key stays valid: 90s, 15m, 24h, 7d (60s to 30d)',
    '24h',
  )
  .action((o: { overlap: string }) => {
    const overlapSeconds = parseDuration(o.overlap, '--overlap');
    if (overlapSeconds < rt.MIN_KEY_OVERLAP_SECONDS)
      throw new UsageError(
        `--overlap is at least ${rt.MIN_KEY_OVERLAP_SECONDS}s: every process must switch within it`,
      );
    // The same operation as POST /api/ops/svc.instance.rotate_key and the MCP tool.
    return withInstance(async (instance) => {
      const r = await runOp(instance, 'svc.instance.rotate_key', { overlapSeconds });
      console.log(`new key:      ${String(r.keyId)} (signing from ${String(r.validFrom)})`);
      console.log(`previous key: ${String(r.previousKeyId)} (valid until ${String(r.previousValidUntil)})`);
      console.log(`key file:     ${instance.keys.dir}`);
    });
  });
keys
  .command('revoke <keyId>')
  .description(
    'disown what a compromised key signed from a time on (default now): log verify flags it and peers refuse it',
  )
  .option('--after <time>', 'RFC 3339 time from which its signatures are not ours (default: now)')
  .action((keyId: string, o: { after?: string }) => {
    const after = o.after === undefined ? new Date() : new Date(o.after);
    if (o.after !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(o.after) || Number.isNaN(after.getTime())))
      throw new UsageError(`--after takes an RFC 3339 time like 2026-01-31T12:00:00Z, not "${o.after}"`);
    return withInstance(async (instance) => {
      const r = await runOp(instance, 'svc.instance.revoke_key', { keyId, after: after.toISOString() });
      console.log(`revoked: ${String(r.keyId)} for what it signed from ${String(r.revokedAfter)} on`);
    });
  });

/** The folder of the key files (INSTANCE_KEY_FILE's, or the data folder's `keys`). */
function keyDirOf(config: Config): string {
  const file = config.INSTANCE_KEY_FILE;
  return file && !file.startsWith('-----BEGIN') ? dirname(file) : join(config.TRIBUTARY_DATA_DIR, 'keys');
}

/** A password from a file: its first line, which must not be empty. */
function passwordFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const text = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  if (text === '') throw new UsageError(`--password-file ${file}: the first line is empty`);
  return text;
}

/** A passphrase from a file: its first line, which must not be empty. */
function passphraseFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const text = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  if (text === '') throw new UsageError(`--passphrase-file ${file}: the first line is empty`);
  return text;
}

program
  .command('backup <file>')
  .description(
    'write one consistent snapshot of the database and the key folder to a new file, encrypted with --passphrase-file (or --unencrypted)',
  )
  .option(
    '--passphrase-file <file>',
    'encrypt with the passphrase on the first line of this file (scrypt + AES-256-GCM)',
  )
  .option('--unencrypted', 'write the backup, private keys included, in clear')
  .action(async (file: string, o: { passphraseFile?: string; unencrypted?: boolean }) => {
    // The file holds the instance's private keys: in clear only when the operator says so.
    if (o.unencrypted && o.passphraseFile !== undefined)
      throw new UsageError('give --passphrase-file or --unencrypted, not both');
    if (!o.unencrypted && o.passphraseFile === undefined)
      throw new UsageError(
        "the backup holds the instance's private keys: give --passphrase-file <file> to encrypt it, or --unencrypted to write them in clear",
        'backup.encryption_required',
      );
    const passphrase = passphraseFrom(o.passphraseFile);
    if (existsSync(file))
      throw new rt.DomainError(
        'backup.file_exists',
        'conflict',
        `${file} exists; a backup is written to a new file only`,
      );
    if (o.unencrypted)
      console.error(
        `tributary: warning: ${file} is not encrypted and holds the instance's private keys; keep it as secret as the keys`,
      );
    const config = quietConfig();
    const db = await rt.openDatabase(config, rt.createLogger('warn'), {
      attachToRunning: true,
      maintenance: true,
    });
    try {
      const r = await rt.writeBackup(db.pool, {
        file,
        keyDir: keyDirOf(config),
        blobDir: join(config.TRIBUTARY_DATA_DIR, 'blobs'),
        passphrase,
      });
      console.log(
        `backup written: ${file} (${r.tables} tables, ${r.rows} rows, feed head ${r.feedHead}, ${r.blobs} blobs of ${r.blobBytes} bytes${r.encrypted ? ', encrypted' : ''})`,
      );
      if (config.INSTANCE_KEY_FILE?.startsWith('-----BEGIN'))
        console.log('the key in INSTANCE_KEY_FILE itself is not in the backup: keep it in your secret store');
    } finally {
      await db.close();
    }
  });

program
  .command('restore <file>')
  .description('load a backup into an empty database and a data folder without keys')
  .option('--passphrase-file <file>', 'the passphrase of an encrypted backup, on the first line of this file')
  .action(async (file: string, o: { passphraseFile?: string }) => {
    const passphrase = passphraseFrom(o.passphraseFile);
    const config = quietConfig();
    const keyDir = keyDirOf(config);
    const held = existsSync(keyDir) ? readdirSync(keyDir).filter((n) => n.endsWith('.pem')) : [];
    if (held.length > 0)
      throw new rt.DomainError(
        'backup.target_not_empty',
        'conflict',
        `${keyDir} already holds keys (${held.join(', ')}); restore into a data folder without keys`,
      );
    const db = await rt.openDatabase(config, rt.createLogger('warn'), {
      attachToRunning: true,
      maintenance: true,
    });
    try {
      if (!(await rt.databaseIsEmpty(db.pool)))
        throw new rt.DomainError(
          'backup.target_not_empty',
          'conflict',
          'the database already holds an instance; restore into an empty database',
        );
      const r = await rt.restoreBackup(db.pool, {
        file,
        keyDir,
        blobDir: join(config.TRIBUTARY_DATA_DIR, 'blobs'),
        passphrase,
        migrateTo: async (versions) => void (await rt.migrate(db.pool, versions)),
      });
      console.log(
        `restored: instance ${r.instanceId ?? '(none)'}: ${r.tables} tables, ${r.rows} rows, feed head ${r.feedHead}, ${r.keys} key files, ${r.blobs} blobs`,
      );
    } finally {
      await db.close();
    }
    await recover();
  });

/** Takes back our own events the peers hold that the restored log lacks (docs/operations.md#backup-and-restore). */
async function recover(): Promise<void> {
  await withInstance(async (instance) => {
    const report = await rt.recoverOwnEvents(instance.services, {
      // The feed's next numbers start past whatever a peer already pulled, so none skips a new event.
      beforeAppend: async (pulledUpTo) => {
        await instance.pool.query(`UPDATE sequencer_state SET last_seq = GREATEST(last_seq, $1)`, [
          pulledUpTo,
        ]);
      },
    });
    for (const p of report.peers)
      console.log(`peer ${p.peerId}: ${p.error ? `FAILED ${p.error}` : `${p.held} of our events held`}`);
    console.log(`recovered ${report.recovered} events; feed numbering resumes past ${report.pulledUpTo}`);
    for (const f of report.fenced)
      console.log(
        `fenced: stream ${f.stream} from version ${f.fromVersion} (an earlier lost event no peer holds)`,
      );
    const failed = report.peers.filter((p) => p.error);
    // Only a recovery that asked every peer lets the instance start (docs/operations.md#backup-and-restore).
    await rt.recordRecovery(
      instance.pool,
      failed.length > 0 ? `could not ask ${failed.map((p) => `${p.peerId} (${p.error})`).join(', ')}` : null,
    );
    if (failed.length > 0)
      throw new rt.DomainError(
        'backup.recovery_incomplete',
        'unavailable',
        `${failed.length} peer(s) could not be asked; run \`tributary recover\` once they answer, before starting the instance`,
      );
  });
}

program
  .command('recover')
  .description(
    "after a restore: take back this instance's own events its peers hold and the restored log lacks",
  )
  .action(() => recover());

const federation = program.command('federation').description('federation with peer instances');
federation
  .command('identity')
  .description("what a peer's operator needs to register this instance: id, role, base URL, public key")
  .action(() =>
    withInstance(async (instance) => {
      const info = await instance.services.read.instance.get();
      console.log(`instance id: ${instance.instanceId}`);
      console.log(`role:        ${info?.role ?? instance.config.INSTANCE_ROLE}`);
      console.log(`base URL:    ${info?.baseUrl ?? instance.config.BASE_URL}`);
      console.log(`public key:  ${instance.publicKey}`);
      console.log(`key id:      ${instance.services.signer.keyId}`);
    }),
  );
federation
  .command('status')
  .description('sync with each peer: cursors, backlog, last success, last error, next attempt')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withInstance(async (instance) => {
      const r = await runOp(instance, 'svc.federation.status', {});
      if (o.json) return console.log(JSON.stringify(r, null, 2));
      type Cursor = {
        position: number;
        backlog: number | null;
        peerHead: number | null;
        attempts: number;
        nextAttemptAt: string;
        lastSuccessAt: string | null;
        lastErrorCode: string | null;
        lastError: string | null;
        accepted: number;
        duplicates: number;
        rejected: number;
        lastRejection: string | null;
      };
      const list = (r.peers ?? []) as {
        peerId: string;
        name: string;
        role: string;
        baseUrl: string;
        blocked: boolean;
        push: Cursor | null;
        pull: Cursor | null;
        equivocations: { count: number; lastDetectedAt: string | null };
      }[];
      type Gap = {
        stream: string;
        fromVersion: number;
        toVersion: number;
        state: string;
        lastError: string | null;
      };
      const relay = r.relay as {
        following: { mode: string; origins: string[] };
        origins: {
          origin: string;
          name: string;
          baseUrl: string;
          keys: { keyId: string; source: string; validUntil: string | null }[];
          gaps: { open: number; filled: number; notPublic: number; recent: Gap[] };
        }[];
      };
      if (list.length === 0) console.log('no peers');
      if (relay.origins.length > 0 || relay.following.mode !== 'all')
        console.log(
          `relayed origins (following ${relay.following.mode === 'all' ? 'all' : `${relay.following.mode === 'people' ? 'those its people follow: ' : ''}${relay.following.origins.join(', ')}`}):`,
        );
      for (const o of relay.origins) {
        const keys = o.keys.map(
          (k) => `${k.keyId} (${k.source}${k.validUntil ? `, until ${k.validUntil}` : ''})`,
        );
        console.log(`  ${o.origin}  ${o.name}  ${o.baseUrl}  keys ${keys.join(', ')}`);
        if (o.gaps.open + o.gaps.filled + o.gaps.notPublic > 0)
          console.log(
            `    gaps: ${o.gaps.open} open${o.gaps.open > 0 ? ' (GAP IN CHAIN)' : ''}, ${o.gaps.filled} filled from the origin, ${o.gaps.notPublic} not public`,
          );
        for (const g of o.gaps.recent.filter((x) => x.state === 'open'))
          console.log(
            `    ${g.state === 'open' ? 'GAP' : g.state}: ${g.stream} versions ${g.fromVersion}–${g.toVersion}${g.lastError ? ` (${g.lastError})` : ''}`,
          );
      }
      for (const p of list) {
        console.log(`${p.peerId}  ${p.role}  ${p.baseUrl}${p.blocked ? '  BLOCKED' : ''}`);
        if (p.equivocations.count > 0)
          console.log(
            `  EQUIVOCATED ×${p.equivocations.count}, last ${p.equivocations.lastDetectedAt} (tributary federation equivocations --peer ${p.peerId})`,
          );
        for (const [dir, c] of [
          ['push', p.push],
          ['pull', p.pull],
        ] as const) {
          if (!c) {
            console.log(`  ${dir}: not started`);
            continue;
          }
          const lag =
            dir === 'push'
              ? `${c.backlog ?? 0} behind`
              : c.peerHead === null
                ? 'peer head unknown'
                : `${Math.max(0, c.peerHead - c.position)} sequences behind`;
          const state =
            c.attempts > 0
              ? `FAILING ×${c.attempts} (${c.lastErrorCode}: ${c.lastError}), next attempt ${c.nextAttemptAt}`
              : `ok, last success ${c.lastSuccessAt ?? 'never'}`;
          console.log(
            `  ${dir}: at ${c.position}, ${lag}; ${state}; accepted ${c.accepted}, duplicates ${c.duplicates}, rejected ${c.rejected}${c.lastRejection ? ` (last: ${c.lastRejection})` : ''}`,
          );
        }
      }
    }),
  );

federation
  .command('equivocations')
  .description('evidence that a peer signed two different events at one version of a stream')
  .option('--peer <peerId>', "only this peer's")
  .option('--json', 'print JSON, with both signed envelopes')
  .action((o: { peer?: string; json?: boolean }) =>
    withInstance(async (instance) => {
      type Evidence = {
        seq: number;
        origin: string;
        stream: string;
        streamVersion: number;
        heldEventId: string;
        refusedEventId: string;
        detectedAt: string;
      };
      const all: Evidence[] = [];
      for (let after: number | null = 0; after !== null;) {
        const page = (await runOp(instance, 'svc.federation.equivocations', {
          ...(o.peer && { peerId: o.peer }),
          after,
          limit: 100,
        })) as unknown as { equivocations: Evidence[]; next: number | null };
        all.push(...page.equivocations);
        after = page.next;
      }
      if (o.json) return console.log(JSON.stringify(all, null, 2));
      if (all.length === 0) return console.log('no equivocations');
      console.log('detected at\tpeer\tstream\tversion\timported event\trefused event');
      for (const r of all)
        console.log(
          [r.detectedAt, r.origin, r.stream, r.streamVersion, r.heldEventId, r.refusedEventId].join('\t'),
        );
    }),
  );

const payments = program.command('payments').description('payments through Stripe (the global instance)');
payments
  .command('reconcile')
  .description(
    "compare Stripe's recent checkout sessions, refunds and transfers with this instance's records",
  )
  .option('--since-hours <hours>', 'how far back to look (1–720)', '24')
  .option('--json', 'print JSON')
  .action((o: { sinceHours: string; json?: boolean }) =>
    withInstance(async (instance) => {
      const sinceHours = Number(o.sinceHours);
      if (!Number.isFinite(sinceHours) || sinceHours <= 0 || sinceHours > 720)
        throw new UsageError('--since-hours is a number of hours from 1 to 720');
      const r = (await runOp(instance, 'svc.payments.reconcile', { sinceHours })) as {
        since: string;
        checked: { checkoutSessions: number; refunds: number; transfers: number };
        truncated: string[];
        differences: { difference: string; objectId: string; recordId: string | null }[];
      };
      if (o.json) console.log(JSON.stringify(r, null, 2));
      else {
        console.log(
          `since ${r.since}: ${r.checked.checkoutSessions} checkout sessions, ${r.checked.refunds} refunds, ${r.checked.transfers} transfers checked`,
        );
        if (r.truncated.length > 0)
          console.log(`more than one page of: ${r.truncated.join(', ')} (older ones not compared)`);
        for (const d of r.differences) console.log(`${d.difference}\t${d.objectId}\t${d.recordId ?? ''}`);
        console.log(
          r.differences.length === 0 ? 'reconcile: OK' : `reconcile: ${r.differences.length} difference(s)`,
        );
      }
      // Differences found: the check failed (docs/cli.md).
      if (r.differences.length > 0) process.exitCode = 1;
    }),
  );

/** `tributary` or `tributary peers` alone: commander would print the help as an error; say what is missing. */
function missingCommand(args: string[]): string | null {
  let cmd: Command = program;
  const path: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-')) return null;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) return null;
    cmd = sub;
    path.push(arg);
  }
  if (cmd.commands.length === 0) return null;
  const names = cmd.commands.map((c) => c.name()).join(', ');
  return path.length ? `${path.join(' ')} needs a command: ${names}` : `give a command: ${names}`;
}

/** A command that ran and failed: one line in words, exit code 1. */
function failed(e: unknown): never {
  // Before the modules are loaded no error is a domain error.
  const isDomainError = (x: unknown): x is DomainError =>
    (rt as Runtime | undefined)?.isDomainError(x) ?? false;
  console.error(`tributary: ${failureInWords(e, isDomainError)}`);
  process.exit(EXIT_FAILED);
}

/** What the system's error names mean, for a message an operator reads. */
const ERRNO_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  ECONNRESET: 'the connection was cut',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EEXIST: 'it exists already',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
};

/**
 * A failure as one line for a person: the sentence first, then the stable code in parentheses
 * (`… (federation.peer_unreachable)`); system error names in words; never a stack.
 */
function failureInWords(e: unknown, isDomainError: (x: unknown) => x is DomainError): string {
  let text = e instanceof Error ? e.message : String(e);
  // Node's own errors read `ENOENT: no such file or directory, open 'x'`: the words, then the path.
  const sys = e as NodeJS.ErrnoException;
  if (!isDomainError(e) && typeof sys.code === 'string' && ERRNO_WORDS[sys.code])
    text = `${ERRNO_WORDS[sys.code]}${sys.path ? `: ${sys.path}` : ''}`;
  text = text.replace(
    /\b(?:connect |getaddrinfo |read |write )?(E[A-Z_]{3,})\b( [\w.:[\]-]+)?/g,
    (all, name: string) => ERRNO_WORDS[name] ?? all,
  );
  if (!isDomainError(e)) return text;
  // Which option was wrong: the pipeline names the fields of the input that failed.
  const issues = e.details?.issues as { path: string; message: string }[] | undefined;
  if (issues?.length) text += ` (${issues.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ')})`;
  return `${text} (${e.code})`;
}

const missing = missingCommand(process.argv.slice(2));
const parsed = missing ? Promise.reject(new UsageError(missing)) : program.parseAsync(process.argv);
parsed.catch((e: unknown) => {
  // Commander has printed its own message (help, version, or a usage error) already.
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : EXIT_USAGE);
  if (e instanceof UsageError) {
    console.error(`tributary: ${e.message}${e.code ? ` (${e.code})` : ''}\n(add --help for usage)`);
    process.exit(EXIT_USAGE);
  }
  failed(e);
});
