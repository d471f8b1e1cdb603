// A TCP proxy on loopback that spreads connections round robin over several backends, as the reverse
// proxy in front of an instance's API processes does (docs/operations.md#process-roles): one public
// address (the instance's BASE_URL) for peers, whichever process answers. A backend that refuses the
// connection (a process killed and not yet back) is skipped for the next one, as Caddy's passive health
// check does; connections already open to a process that dies are cut, as they would be in production.
import net from 'node:net';

export interface RoundRobinProxy {
  port: number;
  url: string;
  /** Connections handed to each backend port so far. */
  counts(): Map<number, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: readonly number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = new Map<number, number>(backends.map((p) => [p, 0]));
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.pause();
    const connect = (tries: number) => {
      if (tries >= backends.length) return client.destroy();
      const port = backends[next++ % backends.length]!;
      const upstream = net.connect({ host: '127.0.0.1', port });
      const refused = () => {
        upstream.destroy();
        connect(tries + 1);
      };
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.removeListener('error', refused);
        counts.set(port, (counts.get(port) ?? 0) + 1);
        open.add(upstream);
        upstream.on('close', () => open.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    connect(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    counts: () => new Map(counts),
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
