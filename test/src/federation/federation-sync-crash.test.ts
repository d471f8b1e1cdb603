// A crash between delivery and acknowledgement does not duplicate: a sovereign instance runs
// as a real process (`tributary start`) with a failpoint that SIGKILLs it right after a push batch was
// delivered to its peer and before the push cursor is committed. The peer has the events; the cursor
// has not moved. Started again, the instance sends the same batch again; the peer answers "duplicate"
// for every event and nothing is written twice.
import { loadOrCreateKeyFile, publicKeyBase64url } from '@tributary/infra';
import { browser, createTestDatabase } from '@tributary/test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { password, startNode, type Loose, type Node } from './federation-helpers.js';

const CLI = fileURLToPath(new URL('../../../infra/bin/tributary.js', import.meta.url));

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: { ...process.env, LOG_LEVEL: 'warn', BCRYPT_ROUNDS: '4', HOST: '127.0.0.1', ...env },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return { child, output: () => out, exited };
}

async function ready(url: string, proc: Proc, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`exited early: ${proc.output()}`);
    const r = await fetch(`${url}/readyz`).catch(() => null);
    if (r?.status === 200) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`not ready in time: ${proc.output()}`);
}

/** The address a process started with TRIBUTARY_ADDRESS_FILE reported, once it did. */
async function reportedUrl(file: string, proc: Proc, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) return (JSON.parse(text) as { url: string }).url;
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`exited before reporting its address: ${proc.output()}`);
    if (Date.now() > until) throw new Error(`no address reported in time: ${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a crash between delivery and acknowledgement', () => {
  let receiver: Node; // in-process, sync off: it only answers imports
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let sender: Proc | undefined;
  beforeAll(async () => {
    receiver = await startNode('global', 'Global');
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-crash-'));
  });
  afterAll(async () => {
    sender?.child.kill('SIGKILL');
    await receiver?.instance.destroy();
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('given a sender killed right after its peer committed a push, when it starts again, then it re-sends and the peer writes nothing twice', async () => {
    const base = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      INSTANCE_ROLE: 'group',
      INSTANCE_NAME: 'Riverside',
      FEDERATION_SYNC: 'on',
      FEDERATION_QUEUE: 'in-process',
      FEDERATION_SWEEP_MS: '50',
      FEDERATION_RETRY_BASE_MS: '100',
    };
    // The first start on a port the kernel picks; the restart on the port it reported (its peer knows it).
    const addressFile = join(dataDir, 'address.json');
    sender = start({
      ...base,
      PORT: '0',
      TRIBUTARY_ADDRESS_FILE: addressFile,
      TRIBUTARY_FAILPOINTS: 'sync.push.after-delivery',
    });
    const url = await reportedUrl(addressFile, sender);
    const env = { ...base, PORT: new URL(url).port, BASE_URL: url };
    await ready(url, sender);
    const operator = browser(url);
    assert.equal((await operator.post('/api/auth/signup', { handle: 'op_sender', password })).status, 201);
    const ctx = await operator.post('/api/ops/svc.instance.context', {});
    const senderId: string = ctx.json.result.instance.instanceId;
    const key = loadOrCreateKeyFile(join(dataDir, 'keys', 'instance-ed25519.pem'));

    // The receiver knows the sender first, so the sender's first push is delivered (and then it dies).
    const onReceiver = await receiver.operator.post('/api/federation/peers', {
      peerId: senderId,
      baseUrl: url,
      role: 'group',
      publicKey: publicKeyBase64url(key.publicKey),
    });
    assert.equal(onReceiver.status, 201, onReceiver.text);
    const onSender = await operator.post('/api/federation/peers', {
      peerId: receiver.id,
      baseUrl: receiver.url,
      role: 'global',
      publicKey: receiver.publicKey,
    });
    assert.equal(onSender.status, 201, onSender.text);

    const died = await sender.exited;
    assert.equal(died.signal, 'SIGKILL', sender.output());
    const delivered = await eventsFrom(receiver, senderId);
    assert.ok(delivered.size >= 3, 'the batch reached the peer and was committed there');

    // The cursor did not move: the acknowledgement died with the process.
    const direct = new pg.Client({ connectionString: db.url });
    await direct.connect();
    try {
      const c = await direct.query<{ position: string }>(
        "SELECT position FROM federation_sync_cursors WHERE peer_id = $1 AND direction = 'push'",
        [receiver.id],
      );
      assert.equal(Number(c.rows[0]?.position ?? 0), 0);

      // Started again without the failpoint: the same batch goes again and is settled as duplicates.
      sender = start(env);
      await ready(url, sender);
      const settled = await eventually(async () => {
        const r = await direct.query<Loose>(
          "SELECT * FROM federation_sync_cursors WHERE peer_id = $1 AND direction = 'push'",
          [receiver.id],
        );
        const row = r.rows[0];
        return row && Number(row.position) > 0 && row.attempts === 0 ? row : undefined;
      });
      // The re-sent batch is settled as duplicates, or (when it starts behind what the peer already holds)
      // answered with resendFrom and skipped: either way nothing is accepted again.
      assert.ok(
        Number(settled.duplicates) === delivered.size || Number(settled.duplicates) === 0,
        'every re-sent event was a duplicate or skipped',
      );
      assert.equal(Number(settled.accepted), 0);
      const afterwards = await eventsFrom(receiver, senderId);
      assert.deepEqual([...afterwards.keys()].sort(), [...delivered.keys()].sort());
      assert.ok(
        [...afterwards.values()].every((n) => n === 1),
        'nothing written twice',
      );
    } finally {
      await direct.end();
    }
    sender.child.kill('SIGTERM');
    const stopped = await sender.exited;
    assert.equal(stopped.code, 0, sender.output());
    sender = undefined;
  });
});

async function eventsFrom(node: Node, origin: string) {
  const { rows } = await node.instance.instance.pool.query<{ id: string; n: string }>(
    'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
    [origin],
  );
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
