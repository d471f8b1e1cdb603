import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'vitest';
import { startTestInstance } from './instance.js';

describe('test instances and their ports', () => {
  it('given a parallel test that takes every port of 127.0.0.1 the moment it is let go, when a test instance starts, then it serves on the port its BASE_URL names', async () => {
    // The parallel test, made certain: whenever a listening server in this process closes, another
    // listener takes its port at once, as a test starting at that moment could.
    const close = net.Server.prototype.close;
    const thieves: net.Server[] = [];
    net.Server.prototype.close = function (this: net.Server, callback?: (err?: Error) => void) {
      const address = this.address();
      return close.call(this, (err?: Error) => {
        if (address && typeof address === 'object') {
          const thief = net.createServer();
          thief.on('error', () => undefined);
          thief.listen(address.port, '127.0.0.1');
          thieves.push(thief);
        }
        callback?.(err);
      });
    } as typeof close;
    let started: Awaited<ReturnType<typeof startTestInstance>> | undefined;
    try {
      started = await startTestInstance();
    } finally {
      net.Server.prototype.close = close;
    }
    try {
      const baseUrl = started.instance.config.BASE_URL;
      assert.equal(started.url, baseUrl);
      const health = await fetch(`${baseUrl}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((started.server.address() as net.AddressInfo).port, Number(new URL(baseUrl).port));
    } finally {
      await started.destroy();
      for (const thief of thieves) thief.close();
    }
  });
});
