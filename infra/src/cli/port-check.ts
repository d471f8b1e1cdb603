import net from 'node:net';

export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `port ${port} is already in use; set PORT to a free port`
            : `cannot listen on ${host}:${port}: ${e.code ?? e.message}`,
        ),
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A server listening on a port of `host` the kernel picked (port 0), to hand to what will serve there. */
export async function holdPort(host: string): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${host}:0: ${e.code ?? e.message}`)),
    );
    server.listen(0, host, resolve);
  });
  return server;
}

/** An address this machine reaches `host` on: loopback for every interface, brackets for IPv6. */
export function loopbackOf(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
