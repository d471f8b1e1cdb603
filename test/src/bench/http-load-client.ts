// The load generator of the site-serving benchmark, run as a child process so the servers under test
// keep their own core: raw keep-alive HTTP/1.1 over N sockets, one request in flight per socket, each
// answer read by its Content-Length and checked (status 200, expected length). Deliberately minimal, so
// the client is never what limits either arm. Commands come over IPC:
//   { port, host, path, requests, connections, expectLength }  →  { requests, ms, latenciesMs }
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LoadCommand {
  port: number;
  host: string;
  path: string;
  requests: number;
  connections: number;
  expectLength: number;
}

export interface LoadResult {
  requests: number;
  ms: number;
  /** A sample of per-request latencies (every 10th request). */
  latenciesMs: number[];
}

const HEADER_END = Buffer.from('\r\n\r\n');

function run(c: LoadCommand): Promise<LoadResult> {
  const request = Buffer.from(`GET ${c.path} HTTP/1.1\r\nHost: ${c.host}\r\nConnection: keep-alive\r\n\r\n`);
  let sent = 0;
  let done = 0;
  const latenciesMs: number[] = [];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let open = c.connections;
    const finish = () => {
      if (--open === 0) resolve({ requests: done, ms: performance.now() - started, latenciesMs });
    };
    for (let i = 0; i < c.connections; i++) {
      const socket = net.connect({ port: c.port, host: '127.0.0.1', noDelay: true });
      let buffer: Buffer = Buffer.alloc(0);
      let t0 = 0;
      const next = () => {
        if (sent >= c.requests) {
          socket.end();
          return finish();
        }
        sent++;
        t0 = performance.now();
        socket.write(request);
      };
      socket.on('connect', next);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const end = buffer.indexOf(HEADER_END);
          if (end < 0) return;
          const head = buffer.subarray(0, end).toString('latin1');
          if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`unexpected answer: ${head}`));
          const m = /\r\ncontent-length: *(\d+)/i.exec(head);
          const length = m ? Number(m[1]) : -1;
          if (length !== c.expectLength)
            return reject(new Error(`expected ${c.expectLength} bytes, the answer says ${length}`));
          if (buffer.length < end + 4 + length) return;
          buffer = buffer.subarray(end + 4 + length);
          if (++done % 10 === 0) latenciesMs.push(performance.now() - t0);
          next();
        }
      });
    }
  });
}

process.on('message', (c: LoadCommand) => {
  run(c).then(
    (r) => process.send!({ ok: true, result: r }),
    (e: Error) => process.send!({ ok: false, error: e.message }),
  );
});
