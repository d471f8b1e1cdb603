// The remote-viewer cookie as a browser receives it: `svc_remote_viewer`, HttpOnly, SameSite=Lax, path /,
// Secure when the instance is served over https, and read back from a request's Cookie header.
import express from 'express';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'vitest';
import { REMOTE_VIEWER_COOKIE, remoteViewerToken, setRemoteViewerCookie } from '../src/http/index.js';

async function served(secure: boolean) {
  const app = express();
  app.get('/set', (_req, res) => {
    setRemoteViewerCookie(res, { secure }, 'secret-value', '2030-01-01T00:00:00.000Z');
    res.end();
  });
  app.get('/read', (req, res) => {
    res.json({ token: remoteViewerToken(req) ?? null });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

describe('the svc_remote_viewer cookie', () => {
  test('given an http instance, when the cookie is set, then it is HttpOnly, SameSite=Lax, path / and not Secure', async () => {
    const s = await served(false);
    try {
      const set = (await fetch(`${s.url}/set`)).headers.getSetCookie();
      assert.equal(set.length, 1);
      const parts = set[0]!.split('; ');
      assert.equal(parts[0], `${REMOTE_VIEWER_COOKIE}=secret-value`);
      assert.equal(REMOTE_VIEWER_COOKIE, 'svc_remote_viewer');
      assert.ok(parts.includes('HttpOnly'));
      assert.ok(parts.includes('SameSite=Lax'));
      assert.ok(parts.includes('Path=/'));
      assert.ok(parts.includes('Expires=Tue, 01 Jan 2030 00:00:00 GMT'));
      assert.ok(!parts.includes('Secure'));
    } finally {
      await s.close();
    }
  });

  test('given an https instance, when the cookie is set, then it is Secure too', async () => {
    const s = await served(true);
    try {
      const parts = (await fetch(`${s.url}/set`)).headers.getSetCookie()[0]!.split('; ');
      assert.ok(parts.includes('Secure'));
      assert.ok(parts.includes('HttpOnly'));
    } finally {
      await s.close();
    }
  });

  test('given a request, when read, then the cookie value among others; none when absent or empty', async () => {
    const s = await served(false);
    try {
      const read = async (cookie?: string) =>
        (
          (await (await fetch(`${s.url}/read`, { headers: cookie ? { cookie } : {} })).json()) as {
            token: unknown;
          }
        ).token;
      assert.equal(await read('a=1; svc_remote_viewer=abc; b=2'), 'abc');
      assert.equal(await read('a=1'), null);
      assert.equal(await read('svc_remote_viewer='), null);
      assert.equal(await read(), null);
    } finally {
      await s.close();
    }
  });
});
