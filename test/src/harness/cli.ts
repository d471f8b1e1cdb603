// The real `tributary` command line, run as an operator would beside a running instance: its database and
// data folder, test settings, and whatever a test adds. A non-zero exit is a result to assert, not a throw.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CLI_PATH = fileURLToPath(new URL('../../../infra/bin/tributary.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  instance: { databaseUrl: string; dataDir: string },
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  try {
    const r = await run(process.execPath, [CLI_PATH, ...args], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: instance.databaseUrl,
        TRIBUTARY_DATA_DIR: instance.dataDir,
        BCRYPT_ROUNDS: '4',
        ...env,
      },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
