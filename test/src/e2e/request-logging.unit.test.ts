// Request ids and the access log, through a real HTTP server: the id a caller sends (when well formed)
// or a new one, echoed in X-Request-Id and carried by every line logged for the request.
import { requestLogging } from '@tributary/adapters';
import express from 'express';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'vitest';
import pino from 'pino';
import request from 'supertest';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; remoteAddress?: string };
  res?: { statusCode: number };
  responseTime?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An app with the middleware, logging into memory at `level`. */
function appLoggingAt(level: string) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const logger = pino({ level }, sink);
  const app = express();
  app.use(requestLogging({ logger, quiet: (req) => req.url === '/healthz' }));
  app.get('/healthz', (_req, res) => res.send('ok'));
  app.get('/hello', (req, res) => {
    req.log.info({ step: 'greeting' }, 'saying hello');
    res.json({ hello: 'world' });
  });
  app.get('/broken', (_req, res) => res.status(503).json({ code: 'test.unavailable' }));
  app.get('/cut', (_req, res) => {
    res.write('{"partial":');
    res.destroy();
  });
  // pino writes through a stream: give it a turn before reading the lines.
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
  return { app, lines, settled };
}

describe('request logging', () => {
  test('given a well-formed X-Request-Id, when the request completes, then the id is echoed and every line carries it', async () => {
    const { app, lines, settled } = appLoggingAt('info');
    const r = await request(app).get('/hello?x=1').set('X-Request-Id', 'trace-42.a_b');
    await settled();
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-request-id'], 'trace-42.a_b');
    const handlerLine = lines.find((l) => l.msg === 'saying hello');
    assert.equal(handlerLine?.reqId, 'trace-42.a_b');
    const access = lines.find((l) => l.msg === 'request completed');
    assert.ok(access, 'one access line');
    assert.equal(access.level, 30);
    assert.equal(access.reqId, 'trace-42.a_b');
    assert.deepEqual(
      { method: access.req?.method, url: access.req?.url, status: access.res?.statusCode },
      { method: 'GET', url: '/hello?x=1', status: 200 },
    );
    assert.equal(typeof access.responseTime, 'number');
  });

  test('given no id or a malformed one, when a request arrives, then it gets a new UUID', async () => {
    const { app } = appLoggingAt('info');
    const none = await request(app).get('/hello');
    assert.match(none.headers['x-request-id'] as string, UUID);
    const bad = await request(app).get('/hello').set('X-Request-Id', 'no spaces <or> brackets');
    assert.match(bad.headers['x-request-id'] as string, UUID);
    const long = await request(app).get('/hello').set('X-Request-Id', 'a'.repeat(101));
    assert.match(long.headers['x-request-id'] as string, UUID);
  });

  test('given a 5xx answer, when the request completes, then its access line is at error level', async () => {
    const { app, lines, settled } = appLoggingAt('info');
    await request(app).get('/broken');
    await settled();
    const access = lines.filter((l) => l.msg === 'request completed');
    assert.equal(access.length, 1);
    assert.equal(access[0]!.level, 50);
    assert.equal(access[0]!.res?.statusCode, 503);
  });

  test('given a response cut short, when the connection closes, then it is logged as aborted at warn level', async () => {
    const { app, lines, settled } = appLoggingAt('info');
    await assert.rejects(request(app).get('/cut'));
    await settled();
    const aborted = lines.filter((l) => l.msg === 'request aborted');
    assert.equal(aborted.length, 1);
    assert.equal(aborted[0]!.level, 40);
    assert.equal(lines.filter((l) => l.msg === 'request completed').length, 0);
  });

  test('given a health probe or a level that is off, when requests complete, then no access line is written', async () => {
    const quiet = appLoggingAt('info');
    const probe = await request(quiet.app).get('/healthz');
    await quiet.settled();
    assert.match(probe.headers['x-request-id'] as string, UUID, 'probes still get an id');
    assert.deepEqual(quiet.lines, []);

    const warnOnly = appLoggingAt('warn');
    await request(warnOnly.app).get('/hello');
    await request(warnOnly.app).get('/broken');
    await warnOnly.settled();
    assert.deepEqual(
      warnOnly.lines.map((l) => [l.level, l.msg, l.res?.statusCode]),
      [[50, 'request completed', 503]],
    );
  });

  test('given a mail link with its token in the query, when the request completes, then the access line has the token redacted', async () => {
    const { app, lines, settled } = appLoggingAt('info');
    const secret = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
    await request(app).get(`/hello?token=${secret}&x=1`);
    await request(app).get(`/hello?a=2&TOKEN=${secret}`);
    await settled();
    assert.deepEqual(
      lines.filter((l) => l.msg === 'request completed').map((l) => l.req?.url),
      ['/hello?token=[redacted]&x=1', '/hello?a=2&TOKEN=[redacted]'],
    );
    assert.ok(!JSON.stringify(lines).includes(secret), 'the token is in no line');
  });
});
