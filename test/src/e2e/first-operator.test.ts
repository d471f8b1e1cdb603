// Who becomes the operator of a fresh instance, and what its first start says (docs/operations.md#locally,
// #the-first-operator): `tributary start` as real processes on a database of their own. On loopback (the
// default) the first account is the operator as it always was; listening beyond it, the start prints a
// one-time setup code (also in a 0600 file) that the first sign-up must give, over REST and on the page,
// or the operator is made with `tributary admin create-operator`.
import { createTestDatabase, runCli, type TestDatabase } from '@tributary/test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  logLines,
  queryRows,
  startProcess,
  startReporting,
  waitForLine,
  type StartedProcess,
} from './start-helpers.js';
import { checkPage, launchBrowser, newWatchedPage, PASSWORD } from './web-kit.js';

const SETUP_CODE = /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/;

/** A fresh database and data folder for one instance. */
async function freshPlace() {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'trib-first-'));
  return {
    db,
    dataDir,
    env: {
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      INSTANCE_ROLE: 'group',
    },
    async drop() {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Started and ready: the port it bound, read off its ready line (PORT=0). */
async function started(proc: StartedProcess) {
  const line = await waitForLine(proc, 'tributary is ready', 120_000);
  const port = Number(/:(\d+)/.exec(String(line.listening))![1]);
  return { port, url: `http://127.0.0.1:${port}` };
}

async function stop(proc: StartedProcess) {
  if (proc.child.exitCode !== null) return;
  proc.child.kill('SIGTERM');
  assert.equal(await proc.exited, 0, proc.output());
}

const signUp = (url: string, body: Record<string, string>) =>
  fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD, ...body }),
  });

const accounts = async (db: TestDatabase) =>
  Number((await queryRows(db.url, 'SELECT count(*) AS n FROM rm_accounts'))[0]!.n);

describe('the first operator of an instance', () => {
  test('given HOST unset, when started, then it listens on loopback only, says where to open the browser, logs static files at debug, and the first account becomes the operator with no code', async () => {
    const place = await freshPlace();
    const proc = startProcess(place.env, { defaultHost: true });
    try {
      const { url, port } = await started(proc);
      const ready = await waitForLine(proc, 'tributary is ready');
      assert.equal(ready.listening, `127.0.0.1:${port}`);
      const open = await waitForLine(proc, 'open ');
      assert.match(
        open.msg,
        /^open http:\/\/\S+ in a browser: the first account created there becomes the operator$/,
      );
      assert.equal(
        logLines(proc.stdout()).some((l) => /setup code/.test(l.msg)),
        false,
        'no setup code on loopback',
      );
      assert.equal(existsSync(join(place.dataDir, 'setup-code')), false);

      // A page and its stylesheet: one access line at info, the static file's below it.
      const page = await (await fetch(`${url}/signup`)).text();
      const css = /href="(\/assets\/[^"]+\.css)"/.exec(page)![1]!;
      assert.equal((await fetch(`${url}${css}`)).status, 200);
      const r = await signUp(url, { handle: 'ada' });
      assert.equal(r.status, 201, await r.clone().text());
      assert.equal(((await r.json()) as { operator: boolean }).operator, true);
      await waitForLine(proc, 'request completed');
      await new Promise((res) => setTimeout(res, 200));
      const access = logLines(proc.stdout()).filter((l) => l.msg === 'request completed');
      const urls = access.map((l) => (l.req as { url: string }).url);
      assert.ok(urls.includes('/signup'), urls.join(' '));
      assert.ok(urls.includes('/api/auth/signup'), urls.join(' '));
      assert.equal(
        urls.filter((u) => u.startsWith('/assets/')).length,
        0,
        `static files at info: ${urls.join(' ')}`,
      );
    } finally {
      await stop(proc);
      await place.drop();
    }
  });

  test('given HOST=0.0.0.0 and no operator, when started, then it prints a setup code kept in a 0600 file; sign-up without it or with a wrong one is refused and writes nothing; with it the account is the operator, the file goes, and later sign-ups need none', async () => {
    const place = await freshPlace();
    const proc = startProcess({ ...place.env, HOST: '0.0.0.0' });
    try {
      const { url } = await started(proc);
      const line = await waitForLine(proc, 'setup code ');
      const code = /^setup code (\S+):/.exec(line.msg)![1]!;
      assert.match(code, SETUP_CODE);
      const file = join(place.dataDir, 'setup-code');
      assert.equal(line.setupCodeFile, file);
      assert.equal(statSync(file).mode & 0o777, 0o600);

      const missing = await signUp(url, { handle: 'mallory' });
      assert.equal(missing.status, 403);
      assert.equal(((await missing.json()) as { code: string }).code, 'account.setup_code_required');
      const wrong = await signUp(url, { handle: 'mallory', setupCode: 'AAAA-BBBB-CCCC-DDDD' });
      assert.equal(wrong.status, 403);
      assert.equal(((await wrong.json()) as { code: string }).code, 'account.setup_code_invalid');
      assert.equal(await accounts(place.db), 0, 'nothing written');

      // As typed off a terminal: lower case, spaces for dashes.
      const right = await signUp(url, { handle: 'ada', setupCode: code.toLowerCase().replaceAll('-', ' ') });
      assert.equal(right.status, 201, await right.clone().text());
      assert.equal(((await right.json()) as { operator: boolean }).operator, true);
      assert.equal(existsSync(file), false, 'the code is spent');
      const second = await signUp(url, { handle: 'grace' });
      assert.equal(second.status, 201);
      assert.equal(((await second.json()) as { operator: boolean }).operator, false);
    } finally {
      await stop(proc);
      await place.drop();
    }
  });

  test('given HOST=0.0.0.0 and no operator, when the operator runs `tributary admin create-operator`, then that account is the operator with no code and sign-up asks none after', async () => {
    const place = await freshPlace();
    const proc = startProcess({ ...place.env, HOST: '0.0.0.0' });
    try {
      const { url } = await started(proc);
      await waitForLine(proc, 'setup code ');
      const r = await runCli({ databaseUrl: place.db.url, dataDir: place.dataDir }, [
        'admin',
        'create-operator',
        '--email',
        'ops@example.org',
        '--handle',
        'ops',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^operator created: ops \(account [0-9a-f-]{36}\)$/m);
      const password = /^password \(shown once, change it after signing in\): (\S+)$/m.exec(r.stdout)![1]!;
      const admins = await runCli({ databaseUrl: place.db.url, dataDir: place.dataDir }, [
        'admin',
        'list',
        '--json',
      ]);
      assert.deepEqual(
        (JSON.parse(admins.stdout) as { email: string }[]).map((a) => a.email),
        ['ops@example.org'],
      );
      const signIn = await fetch(`${url}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: 'ops', password }),
      });
      assert.equal(signIn.status, 200);
      const next = await signUp(url, { handle: 'grace' });
      assert.equal(next.status, 201, await next.clone().text());
    } finally {
      await stop(proc);
      await place.drop();
    }
  });
});

describe('what the start prints', () => {
  test('given LOG_FORMAT=pretty, when started, then every line is words (time, level, message), not JSON; given no LOG_FORMAT and output into a pipe, then JSON lines', async () => {
    const place = await freshPlace();
    const pretty = startProcess({ ...place.env, LOG_FORMAT: 'pretty' });
    try {
      const until = Date.now() + 120_000;
      while (!/INFO {2}tributary is ready: listening on 127\.0\.0\.1:\d+/.test(pretty.stdout())) {
        if (pretty.child.exitCode !== null || Date.now() > until) throw new Error(pretty.output());
        await new Promise((r) => setTimeout(r, 100));
      }
      const lines = pretty.stdout().trimEnd().split('\n');
      assert.equal(lines.filter((l) => l.startsWith('{')).length, 0, pretty.stdout());
      assert.ok(
        lines.every(
          (l) => /^\d{2}:\d{2}:\d{2} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /.test(l) || l.startsWith('    '),
        ),
        pretty.stdout(),
      );
    } finally {
      await stop(pretty);
    }
    const json = startProcess(place.env);
    try {
      await started(json);
      assert.ok(
        json
          .stdout()
          .trimEnd()
          .split('\n')
          .every((l) => l.startsWith('{')),
        json.stdout(),
      );
    } finally {
      await stop(json);
      await place.drop();
    }
  });
});

describe('the first start with a setup code, in a browser', () => {
  let place: Awaited<ReturnType<typeof freshPlace>>;
  let proc: StartedProcess;
  let url: string;
  let code: string;
  beforeAll(async () => {
    place = await freshPlace();
    // The pages' forms are refused from any origin but BASE_URL's: on PORT=0 without BASE_URL, it names
    // the port the kernel gave, and the process reports both (TRIBUTARY_ADDRESS_FILE).
    const reporting = startReporting({ ...place.env, HOST: '0.0.0.0' });
    proc = reporting;
    url = (await reporting.address()).baseUrl!;
    await started(proc);
    code = /^setup code (\S+):/.exec((await waitForLine(proc, 'setup code ')).msg)![1]!;
  });
  afterAll(async () => {
    await stop(proc);
    await place.drop();
  });

  test('given the sign-up page, when the setup code is left out, then the page says so and nothing is created; when it is given, then the account is the operator', async () => {
    const browser = await launchBrowser();
    try {
      const w = await newWatchedPage(browser);
      const { page } = w;
      await page.goto(`${url}/signup`);
      assert.equal(await page.getByLabel('Setup code').count(), 1, 'the page asks for the setup code');
      await checkPage(w, 'first-operator-signup');
      const create = page.getByRole('button', { name: 'Create account' });
      await page.getByLabel('Handle').fill('ada');
      await page.getByLabel('Password').fill(PASSWORD);
      await create.click();
      await page.locator('[data-error-code="account.setup_code_required"]').waitFor();
      assert.equal(await accounts(place.db), 0, 'nothing written');
      await checkPage(w, 'first-operator-signup-no-code');

      await page.getByLabel('Setup code').fill(code);
      await page.getByLabel('Handle').fill('ada');
      await page.getByLabel('Password').fill(PASSWORD);
      await create.click();
      await page.waitForURL(`${url}/home`);
      const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.json()));
      assert.equal((me as { isOperator: boolean }).isOperator, true);
      await checkPage(w, 'first-operator-home');
      await w.context.close();
    } finally {
      await browser.close();
    }
  });
});
