// The `tributary` command as an operator meets it, run as a real process: --version, one error format
// (`tributary: …`) with the exit codes docs/cli.md states (2: the command line is wrong, 1: the command
// failed), and list commands with a header line or --json.
import { generateSigningKey } from '../src/index.js';
import { allProjections } from '@tributary/projections';
import { browser, startTestInstance, type TestInstance, runCli } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const password = 'correct horse battery staple';

describe('the tributary command line', () => {
  let instance: TestInstance;
  const cli = (...args: string[]) => runCli(instance, args);
  const eventCount = async () =>
    Number(
      (await instance.instance.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n,
    );

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Command line' } });
    const r = await browser(instance.url).post('/api/auth/signup', {
      email: 'ops@example.org',
      handle: 'ops',
      password,
    });
    assert.equal(r.status, 201, r.text);
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given --version or -V, then the version is printed and the exit code is 0', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli(flag);
      assert.equal(r.code, 0, `${flag}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), VERSION, flag);
    }
  });

  test('given a wrong command line, then one error line starting with `tributary:`, exit code 2, and nothing written', async () => {
    const before = await eventCount();
    const cases: [string, string[], RegExp][] = [
      ['unknown projection', ['projections', 'rebuild', 'nosuch'], /unknown projection nosuch/],
      ['unknown command', ['nosuch'], /unknown command 'nosuch'/],
      ['unknown subcommand', ['peers', 'nosuch'], /unknown command 'nosuch'/],
      ['unknown option', ['peers', 'list', '--nosuch'], /unknown option '--nosuch'/],
      ['missing argument', ['admin', 'grant'], /missing required argument 'account'/],
      ['extra argument', ['admin', 'grant', 'ops', 'more'], /too many arguments/],
      ['no command', [], /give a command/],
      ['a group without its command', ['peers'], /peers needs a command/],
      ['options that do not name a peer', ['peers', 'add', '--id', randomUUID()], /give --from/],
      ['nothing to rotate', ['peers', 'rotate', randomUUID()], /give --key and\/or --secret/],
    ];
    for (const [name, args, message] of cases) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${name}: exit ${r.code}, ${r.stderr}`);
      assert.match(r.stderr, /^tributary: /, `${name}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0]!, message, name);
    }
    assert.equal(await eventCount(), before, 'nothing was written');
  });

  test('given a command that runs and fails, then `tributary: <what failed> (<code>)` and exit code 1', async () => {
    const before = await eventCount();
    const r = await cli('admin', 'grant', 'nobody');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^tributary: .+ \(account\.not_found\)$/m);
    assert.equal(await eventCount(), before, 'nothing was written');
  });

  test('given a peer that cannot be reached, when `peers add --from` runs, then one line: a sentence first, the code after, no system error name and no stack; and `peers list` with no peers says so', async () => {
    const empty = await cli('peers', 'list');
    assert.equal(empty.code, 0, empty.stderr);
    assert.match(empty.stdout, /^no peers registered/);
    assert.deepEqual(JSON.parse((await cli('peers', 'list', '--json')).stdout), []);

    // A port that was just closed: nothing listens there.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const before = await eventCount();
    const r = await cli('peers', 'add', '--from', `http://127.0.0.1:${port}`);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^tributary: [a-z][^\n]* \(federation\.peer_unreachable\)$/);
    assert.doesNotMatch(r.stderr, /ECONNREFUSED|\n\s+at /);
    assert.equal(await eventCount(), before, 'nothing was written');

    // A file that is not there is words too, not a stack.
    const missing = await cli(
      'admin',
      'create-operator',
      '--handle',
      'x',
      '--password-file',
      '/nonexistent/file',
    );
    assert.equal(missing.code, 1, missing.stderr);
    assert.equal(missing.stderr.trimEnd().split('\n').length, 1, missing.stderr);
    assert.doesNotMatch(missing.stderr, /ENOENT|\n\s+at /);
  });

  test('given `tributary status`, then it says what runs where: the instance, that it answers, the database, mail, queues, operators, peers, keys, and warnings; --json the same', async () => {
    const port = new URL(instance.url).port;
    const text = await runCli(instance, ['status'], { PORT: port });
    assert.equal(text.code, 0, text.stderr);
    for (const section of [
      'instance',
      'http',
      'database',
      'log',
      'mail',
      'queues',
      'operators',
      'peers',
      'keys',
      'warnings',
    ])
      assert.match(text.stdout, new RegExp(`^${section} `, 'm'), `${section}: ${text.stdout}`);
    const r = await runCli(instance, ['status', '--json'], { PORT: port });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as {
      instance: { id: string; role: string };
      listening: { answering: boolean; loopbackOnly: boolean };
      database: { kind: string; reachable: boolean; migrationsPending: number };
      mail: { delivery: string };
      queues: { kind: string };
      operators: number;
      peers: unknown[];
      keys: { keyId: string; state: string }[];
      warnings: string[];
    };
    assert.equal(report.instance.id, instance.instance.instanceId);
    assert.equal(report.instance.role, 'group');
    assert.deepEqual(report.listening, { ...report.listening, answering: true, loopbackOnly: true });
    assert.deepEqual(
      {
        kind: report.database.kind,
        reachable: report.database.reachable,
        pending: report.database.migrationsPending,
      },
      { kind: 'external', reachable: true, pending: 0 },
    );
    assert.equal(report.mail.delivery, instance.instance.config.SMTP_URL ? 'smtp' : 'log');
    assert.equal(report.queues.kind, process.env.REDIS_URL ? 'bullmq' : 'in-process');
    assert.equal(report.operators, 1);
    assert.deepEqual(
      report.keys.map((k) => [k.keyId, k.state]),
      [[instance.instance.services.signer.keyId, 'current']],
    );
    assert.ok(Array.isArray(report.warnings));

    // Nothing listening where it looks: it says so, and still answers.
    const stopped = await runCli(instance, ['status', '--json'], { PORT: '9' });
    assert.equal(stopped.code, 0, stopped.stderr);
    const down = JSON.parse(stopped.stdout) as { listening: { answering: boolean }; warnings: string[] };
    assert.equal(down.listening.answering, false);
    assert.equal(down.warnings.length, report.warnings.length + 1);
  });

  test('given the list commands, then a header line names the columns, and --json prints the same rows as JSON', async () => {
    const projections = await cli('projections', 'list');
    assert.equal(projections.code, 0, projections.stderr);
    const [header, ...rows] = projections.stdout.trimEnd().split('\n');
    assert.deepEqual(header!.split('\t'), ['NAME', 'MODE', 'TABLES']);
    assert.deepEqual(
      rows.map((l) => l.split('\t')[0]),
      allProjections.map((p) => p.name),
    );
    const projectionsJson = JSON.parse((await cli('projections', 'list', '--json')).stdout) as unknown;
    assert.deepEqual(
      projectionsJson,
      allProjections.map((p) => ({ name: p.name, mode: p.mode, tables: p.tables })),
    );

    const admins = await cli('admin', 'list');
    assert.equal(admins.code, 0, admins.stderr);
    const adminLines = admins.stdout.trimEnd().split('\n');
    assert.deepEqual(adminLines[0]!.split('\t'), ['ACCOUNT', 'EMAIL', 'HANDLE']);
    assert.deepEqual(
      adminLines.slice(1).map((l) => l.split('\t').slice(1)),
      [['ops@example.org', 'ops']],
    );
    const adminsJson = JSON.parse((await cli('admin', 'list', '--json')).stdout) as Record<string, unknown>[];
    assert.deepEqual(
      adminsJson.map(({ email, handle }) => ({ email, handle })),
      [{ email: 'ops@example.org', handle: 'ops' }],
    );
    assert.equal(adminsJson[0]!.accountId, adminLines[1]!.split('\t')[0]);

    const peerId = randomUUID();
    const publicKey = generateSigningKey().publicKey.export({ format: 'jwk' }).x!;
    const added = await cli(
      'peers',
      'add',
      '--id',
      peerId,
      '--url',
      'http://127.0.0.1:9',
      '--role',
      'global',
      '--key',
      publicKey,
      '--name',
      'Far away',
    );
    assert.equal(added.code, 0, added.stderr);
    const peers = (await cli('peers', 'list')).stdout.trimEnd().split('\n');
    assert.deepEqual(peers[0]!.split('\t'), ['PEER', 'ROLE', 'BASE URL', 'STATUS', 'KEY ID', 'NAME']);
    assert.deepEqual(
      peers.slice(1).map((l) => [l.split('\t')[0], l.split('\t')[5]]),
      [[peerId, 'Far away']],
    );
  });
});
