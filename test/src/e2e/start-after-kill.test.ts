// `tributary start` killed with SIGKILL leaves its embedded PostgreSQL running (in its own process group)
// on the data folder: the next start stops that orphan cleanly and starts, with the data kept.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { logLines, startProcess, waitForLine, type StartedProcess } from './start-helpers.js';

/** Whether a process runs (a zombie does not). */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** Starts `tributary start` on port 0 and waits for its ready line; its URL is the address it bound. */
async function startOn(dataDir: string): Promise<{ proc: StartedProcess; url: string }> {
  const proc = startProcess({ TRIBUTARY_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
  const exitedEarly = proc.exited.then(() => {
    throw new Error(`exited early: ${proc.output()}`);
  });
  const line = await Promise.race([waitForLine(proc, 'tributary is ready', 180_000), exitedEarly]);
  return { proc, url: `http://${String(line.listening)}` };
}

const json = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('tributary start after the previous one was killed with SIGKILL', () => {
  let dataDir: string;
  const started: StartedProcess[] = [];
  const postmasters: number[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'trib-start-kill-'));
  });
  afterAll(async () => {
    for (const p of started)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    // A server this test left running (the fix missing) is ours to stop.
    for (const pid of postmasters) if (await running(pid)) process.kill(pid, 'SIGINT');
    for (const pid of postmasters) while (await running(pid)) await new Promise((r) => setTimeout(r, 100));
    await rm(dataDir, { recursive: true, force: true });
  });

  test('given an instance killed with SIGKILL whose embedded PostgreSQL lives on, when started again, then it stops that server, starts, and keeps the data', async () => {
    const first = await startOn(dataDir);
    started.push(first.proc);
    const signup = await json(`${first.url}/api/auth/signup`, {
      handle: 'opal',
      password: 'correct horse battery',
    });
    assert.equal(signup.status, 201, await signup.text());
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    const orphan = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    postmasters.push(orphan);

    first.proc.child.kill('SIGKILL');
    await first.proc.exited;
    assert.equal(await running(orphan), true, 'the embedded server outlives the instance');

    const second = await startOn(dataDir);
    started.push(second.proc);
    assert.equal(await running(orphan), false, 'the orphaned server was stopped');
    const stopped = logLines(second.proc.stdout()).find(
      (l) => l.event === 'embedded_postgres.orphan_stopped',
    );
    assert.ok(stopped, second.proc.output());
    assert.equal(stopped.pid, orphan);
    postmasters.push(Number((await readFile(pidFile, 'utf8')).split('\n')[0]));

    const signin = await json(`${second.url}/api/auth/signin`, {
      identifier: 'opal',
      password: 'correct horse battery',
    });
    assert.equal(signin.status, 200, await signin.text());

    second.proc.child.kill('SIGTERM');
    assert.equal(await second.proc.exited, 0, second.proc.output());
  });
});
