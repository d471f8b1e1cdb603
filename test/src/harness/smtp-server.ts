// A real SMTP server on loopback (the `smtp-server` package) for the mail tests: the instance sends to
// it with SMTP_URL = `server.url`, and each message it received is read back with `mailparser`.
//
//   const smtp = await startTestSmtpServer();
//   smtp.refuseRecipient((address, n) => (n === 1 ? 451 : null)); // a temporary refusal, once
//   await smtp.waitFor((m) => m.length === 1);
//   smtp.messages[0].parsed.messageId, .text, .html, .to …
//   await smtp.close();
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO, as the client gave them. */
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Decides a recipient's answer: a 4xx/5xx code refuses it (n: how often that address was offered). */
  refuseRecipient(rule: ((address: string, n: number) => number | null) | null): void;
  /**
   * The server goes away: it stops listening and cuts every open connection, so a client is refused
   * as if the mail server were down.
   */
  stop(): Promise<void>;
  /** After `stop()`: listens again on the same port (the address the instance was given). */
  start(): Promise<void>;
  /** Waits (polling, up to `timeoutMs`) until `check(messages)` holds. */
  waitFor(check: (messages: ReceivedMail[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let rule: ((address: string, n: number) => number | null) | null = null;
  const offered = new Map<string, number>();
  const server = new SMTPServer({
    // Plain SMTP on loopback, no authentication: what a local relay offers.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const n = (offered.get(address.address) ?? 0) + 1;
      offered.set(address.address, n);
      const code = rule?.(address.address, n) ?? null;
      if (code) {
        const err = Object.assign(new Error(`refused by the test server (${code})`), { responseCode: code });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            callback();
          })
          .catch((e: Error) => callback(e));
      });
    },
  });
  const sockets = new Set<Socket>();
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(on, '127.0.0.1', () => {
        server.server.removeListener('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    refuseRecipient(r) {
      rule = r;
    },
    async waitFor(check, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!check(messages)) {
        if (Date.now() > until)
          throw new Error(
            `the SMTP server did not get what was expected; it has ${messages.length} message(s)`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    start: () => listen(port),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
