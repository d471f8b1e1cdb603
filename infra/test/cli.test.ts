// The `tributary` command as an operator meets it, run as a real process: --version, one error format
// (`tributary: …`) with the exit codes docs/cli.md states (2: the command line is wrong, 1: the command
// failed), and list commands with a header line or --json.
import { allProjections } from '@tributary/projections';
import { browser, startTestInstance, type TestInstance, runCli } from '@tributary/test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

  test('given a command that runs and fails, then `tributary: <code>: …` and exit code 1', async () => {
    const before = await eventCount();
    const r = await cli('admin', 'grant', 'nobody');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^tributary: account\.not_found: /);
    assert.equal(await eventCount(), before, 'nothing was written');
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
    const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
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
