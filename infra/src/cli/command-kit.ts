// What the command groups share (infra/src/cli/commands/): the instance's modules once loaded, the usage
// error, running an operation on an instance of its own, and printing a list.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as RuntimeModule from './runtime.js';
import type { DomainErrorCode } from '@tributary/domain';
import type { Config, Instance } from './runtime.js';

/** The instance's modules, loaded before a command's action runs (not for --version, --help). */
export type Runtime = typeof RuntimeModule;
// Set once by loadRuntime, before any action runs; importers see it through the live binding.
export let rt: Runtime;

/** Loads the instance's modules; every command but the light ones runs after it (docs/cli.md#speed). */
export async function loadRuntime(): Promise<void> {
  rt = await import('./runtime.js');
}

/**
 * A command line that cannot be run as given: exit code 2, like commander's own usage errors. A stable
 * code, when one is given, follows the message as a domain error's does.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code?: DomainErrorCode,
  ) {
    super(message);
  }
}

/** Operator commands log only warnings, so their own output stays readable. */
export const quietConfig = (): Config => ({ ...rt.loadConfig(), LOG_LEVEL: 'warn' });

export async function withInstance<T>(run: (i: Instance) => Promise<T>): Promise<T> {
  const instance = await rt.composeInstance(quietConfig(), { attachToRunning: true });
  try {
    return await run(instance);
  } finally {
    await instance.close();
  }
}

export const runOp = (instance: Instance, opName: string, input: Record<string, unknown>) =>
  rt
    .execute(instance.services, rt.getOperation(opName)!, input, { kind: 'system', agentId: '' }, 'cli')
    .then((r) => r.result as Record<string, unknown>);

/** A list as tab-separated columns under a header line, or as JSON with --json. */
export function printList<T extends Record<string, unknown>>(
  rows: T[],
  columns: [header: string, value: (row: T) => string][],
  o: { json?: boolean | undefined },
) {
  if (o.json) return console.log(JSON.stringify(rows, null, 2));
  console.log(columns.map(([h]) => h).join('\t'));
  for (const row of rows) console.log(columns.map(([, v]) => v(row)).join('\t'));
}

/** `90s`, `15m`, `24h`, `7d` or plain seconds; a usage error otherwise. */
export function parseDuration(text: string, option: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`${option} takes a duration like 90s, 15m, 24h or 7d, not "${text}"`);
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
}

/** The folder of the key files (INSTANCE_KEY_FILE's, or the data folder's `keys`). */
export function keyDirOf(config: Config): string {
  const file = config.INSTANCE_KEY_FILE;
  return file && !file.startsWith('-----BEGIN') ? dirname(file) : join(config.TRIBUTARY_DATA_DIR, 'keys');
}

/** A password from a file: its first line, which must not be empty. */
export function passwordFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const text = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  if (text === '') throw new UsageError(`--password-file ${file}: the first line is empty`);
  return text;
}

/** A passphrase from a file: its first line, which must not be empty. */
export function passphraseFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const text = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  if (text === '') throw new UsageError(`--passphrase-file ${file}: the first line is empty`);
  return text;
}
