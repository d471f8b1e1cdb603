// The per-address rate limits and the trusted-proxy setting are configuration: documented defaults,
// `<count>/<s|min|h>` or `off`, and a bad value stops the start naming the variable.
import { DEFAULT_RATE_LIMITS } from '@tributary/adapters';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

const base = { NODE_ENV: 'test' };

describe('rate-limit and proxy configuration', () => {
  test('given nothing set, then the documented defaults, the same the HTTP app falls back to', () => {
    const c = loadConfig(base);
    assert.deepEqual(c.RATE_LIMIT_REGISTRATION, { count: 20, perSeconds: 3600 });
    assert.deepEqual(c.RATE_LIMIT_DISCOVERY, { count: 300, perSeconds: 60 });
    assert.deepEqual(c.RATE_LIMIT_FEED, { count: 600, perSeconds: 60 });
    assert.deepEqual(c.RATE_LIMIT_STATUS, { count: 120, perSeconds: 60 });
    assert.deepEqual(c.RATE_LIMIT_TLS_ASK, { count: 1200, perSeconds: 60 });
    assert.deepEqual(c.RATE_LIMIT_SSO, { count: 30, perSeconds: 60 });
    assert.deepEqual(c.RATE_LIMIT_WEBHOOK_REFUSALS, { count: 60, perSeconds: 60 });
    assert.deepEqual(
      {
        registration: c.RATE_LIMIT_REGISTRATION,
        discovery: c.RATE_LIMIT_DISCOVERY,
        feed: c.RATE_LIMIT_FEED,
        status: c.RATE_LIMIT_STATUS,
        tlsAsk: c.RATE_LIMIT_TLS_ASK,
        sso: c.RATE_LIMIT_SSO,
        webhookRefusals: c.RATE_LIMIT_WEBHOOK_REFUSALS,
      },
      DEFAULT_RATE_LIMITS,
    );
    assert.equal(c.TRUST_PROXY, false);
  });

  test('given each unit and off, then counts per window or no limit', () => {
    const c = loadConfig({
      ...base,
      RATE_LIMIT_REGISTRATION: '5/hour',
      RATE_LIMIT_DISCOVERY: ' 10 / s ',
      RATE_LIMIT_FEED: 'off',
    });
    assert.deepEqual(c.RATE_LIMIT_REGISTRATION, { count: 5, perSeconds: 3600 });
    assert.deepEqual(c.RATE_LIMIT_DISCOVERY, { count: 10, perSeconds: 1 });
    assert.equal(c.RATE_LIMIT_FEED, null);
  });

  test('given a bad limit, then the start fails naming the variable', () => {
    for (const v of ['0/min', '10', '10/day', '-1/s', 'lots'])
      assert.throws(() => loadConfig({ ...base, RATE_LIMIT_FEED: v }), /RATE_LIMIT_FEED/, v);
  });

  test('given TRUST_PROXY, then true is one proxy, a number that many, and addresses are kept; never trust-all', () => {
    assert.equal(loadConfig({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY, 1);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY, 2);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY, false);
    assert.equal(
      loadConfig({ ...base, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY,
      'loopback,10.0.0.0/8',
    );
    assert.throws(() => loadConfig({ ...base, TRUST_PROXY: 'everyone' }), /TRUST_PROXY/);
  });
});
