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
