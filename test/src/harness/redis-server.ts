// A private redis-server for a test that stops and restarts it (never the shared one, which other suites
// use). Redis listens on a unix socket only, in a folder of its own; the address the instance is given
// is a TCP forwarder on a port the kernel picked (port 0), held for the whole test, so a restart of Redis
// keeps the address without ever letting the port go.
//
//   const redis = await startTestRedis();      // REDIS_URL: redis.url
//   await redis.stop();                        // SIGKILL: no persistence, so it comes back empty
//   await redis.start();
//   await redis.close();
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  /** redis://127.0.0.1:<port>, the same across stops and starts. */
  url: string;
  /** Kills redis-server (SIGKILL) and waits for it to be gone; what it held is lost. */
  stop(): Promise<void>;
  /** After `stop()`: a fresh redis-server on the same socket, answering PING. */
  start(): Promise<void>;
  /** Stops it and the forwarder, and removes its folder. */
  close(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'trib-redis-'));
  const socketPath = join(dir, 'redis.sock');
  let child: ChildProcess | null = null;
  const output: string[] = [];

  const launch = async () => {
    const c = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--unixsocket',
        socketPath,
        '--unixsocketperm',
        '700',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => {
      output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      output.splice(0, Math.max(0, output.length - 20));
    };
    c.stdout?.on('data', keep);
    c.stderr?.on('data', keep);
    c.on('error', (e) => output.push(e.message));
    child = c;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(socketPath))) {
      if (c.exitCode !== null || c.signalCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start: ${output.at(-1) ?? ''}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGKILL');
    await exited;
  };
  process.on('exit', () => child?.kill('SIGKILL'));

  // Each client connection is piped to the socket; while Redis is down, a connection is accepted and
  // closed at once, which a client sees as Redis gone and keeps reconnecting.
  const connections = new Set<net.Socket>();
  const forwarder = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    for (const s of [client, upstream]) {
      connections.add(s);
      s.on('close', () => connections.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    forwarder.once('error', reject);
    forwarder.listen(0, '127.0.0.1', resolve);
  });
  try {
    await launch();
  } catch (e) {
    forwarder.close();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `redis://127.0.0.1:${(forwarder.address() as AddressInfo).port}`,
    async stop() {
      await kill();
      for (const s of connections) s.destroy();
    },
    start: launch,
    async close() {
      await kill();
      const closed = new Promise<void>((resolve) => forwarder.close(() => resolve()));
      for (const s of connections) s.destroy();
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function answersPing(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let data = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (data.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(data.startsWith('+PONG')));
    socket.on('error', () => undefined);
  });
}
