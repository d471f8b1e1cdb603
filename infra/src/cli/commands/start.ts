// `tributary start`: run the instance (docs/cli.md).
import type { Command } from 'commander';
import { renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { rt, UsageError } from '../command-kit.js';
import type { Config, ProcessRole } from '../runtime.js';

export function registerStart(program: Command): void {
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
      type Running = { stop(): Promise<void>; metricsUrl: string | null };
      let markStarted!: (r: Running) => void;
      const started = new Promise<Running>((resolve) => (markStarted = resolve));
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
        // A signal while starting waits for the start to finish, then stops what it started.
        void started
          .then((r) => r.stop())
          .then(() => {
            logger.info('stopped');
            exit(0);
          })
          .catch((err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            exit(1);
          });
      };
      // Installed before anything listens: from then on a client may see the instance ready and signal it,
      // and an unheard SIGTERM would kill it without stopping its loops and connections in order.
      // SIGHUP too: the terminal closing. Postgres is in its own process group and would not hear it.
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
        process.on(signal, () => shutdown(signal));
      let running: Running;
      let url: string | null = null;
      if (role === 'worker') {
        running = await rt.work(instance);
        markStarted(running);
        logger.info(
          { role, instanceId: instance.instanceId },
          'tributary worker is ready: sequencer, async projections, sync and re-checks running; no HTTP',
        );
      } else {
        const server = await rt.serve(instance, held ? { listening: held } : {});
        running = server;
        markStarted(running);
        url = server.url;
        // Read before the ready line: nothing may wait between it and the signal handlers below.
        const operators = (await instance.services.instance.read.get())?.controllers.length ?? 0;
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
    });
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
