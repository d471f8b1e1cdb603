// The metrics endpoint's settings (docs/operations.md#metrics): off the token and the separate port by
// default, and a bad value stops the start naming the variable.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

const base = { NODE_ENV: 'test' };

describe('metrics configuration', () => {
  test('given nothing set, then no token (loopback only) and /metrics on PORT', () => {
    const c = loadConfig(base);
    assert.equal(c.METRICS_TOKEN, undefined);
    assert.equal(c.METRICS_PORT, undefined);
    assert.equal(c.METRICS_HOST, undefined);
  });

  test('given a token, a port and a host, then they are taken', () => {
    const c = loadConfig({
      ...base,
      METRICS_TOKEN: 'a-long-enough-token',
      METRICS_PORT: '9464',
      METRICS_HOST: '127.0.0.1',
    });
    assert.equal(c.METRICS_TOKEN, 'a-long-enough-token');
    assert.equal(c.METRICS_PORT, 9464);
    assert.equal(c.METRICS_HOST, '127.0.0.1');
  });

  test('given a short token, the public port as METRICS_PORT, or a port out of range, then the start stops naming it', () => {
    assert.throws(() => loadConfig({ ...base, METRICS_TOKEN: 'short' }), /METRICS_TOKEN.*at least 16/);
    assert.throws(() => loadConfig({ ...base, PORT: '3000', METRICS_PORT: '3000' }), /METRICS_PORT.*differ/);
    assert.throws(() => loadConfig({ ...base, METRICS_PORT: '70000' }), /METRICS_PORT/);
    // Both 0: two different free ports are picked.
    assert.equal(loadConfig({ ...base, PORT: '0', METRICS_PORT: '0' }).METRICS_PORT, 0);
  });
});
