// The `tributary` command: start the instance, and the operator's tools around the log. Each command
// group is a file of commands/; this file builds the program from them, loads the instance's modules
// before a command runs, and turns every failure into one line.
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { registerAdmin } from './commands/admin.js';
import { registerBackup } from './commands/backup.js';
import { registerFederation } from './commands/federation.js';
import { registerKeys } from './commands/keys.js';
import { registerLog } from './commands/log.js';
import { registerMigrate } from './commands/migrate.js';
import { registerPayments } from './commands/payments.js';
import { registerPeers } from './commands/peers.js';
import { registerProjections } from './commands/projections.js';
import { registerStart } from './commands/start.js';
import { registerStatus } from './commands/status.js';
import { loadRuntime, rt, UsageError, type Runtime } from './command-kit.js';
import type { DomainError } from './runtime.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Commands that answer without the instance's modules (within a second, docs/cli.md#speed). */
const LIGHT_COMMANDS = new Set(['status']);

/** Exit codes (docs/cli.md): 1 the command ran and failed, 2 the command line is wrong. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

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
    if (!light) await loadRuntime();
  });

// In the order `tributary --help` lists them.
registerStart(program);
registerStatus(program);
registerMigrate(program);
registerLog(program);
registerProjections(program);
registerAdmin(program);
registerPeers(program);
registerKeys(program);
registerBackup(program);
registerFederation(program);
registerPayments(program);

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
