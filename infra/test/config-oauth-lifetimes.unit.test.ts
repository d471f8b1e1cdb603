// The OAuth lifetimes are configuration: defaults when unset, bounds and their relation checked by the
// zod config at start, never at the first token.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

const base = { NODE_ENV: 'test' };

describe('OAuth lifetime configuration', () => {
  test('given nothing set, then the documented defaults', () => {
    const c = loadConfig(base);
    assert.deepEqual(
      [
        c.OAUTH_CODE_SECONDS,
        c.OAUTH_ACCESS_TOKEN_SECONDS,
        c.OAUTH_REFRESH_TOKEN_SECONDS,
        c.OAUTH_REFRESH_ABSOLUTE_SECONDS,
        c.OAUTH_DEVICE_CODE_SECONDS,
        c.OAUTH_DEVICE_INTERVAL_SECONDS,
      ],
      [120, 3600, 2_592_000, 7_776_000, 600, 5],
    );
  });

  test('given values in range, then they are used as numbers', () => {
    const c = loadConfig({
      ...base,
      OAUTH_CODE_SECONDS: '30',
      OAUTH_ACCESS_TOKEN_SECONDS: '300',
      OAUTH_REFRESH_TOKEN_SECONDS: '86400',
      OAUTH_DEVICE_CODE_SECONDS: '900',
    });
    assert.deepEqual(
      [
        c.OAUTH_CODE_SECONDS,
        c.OAUTH_ACCESS_TOKEN_SECONDS,
        c.OAUTH_REFRESH_TOKEN_SECONDS,
        c.OAUTH_DEVICE_CODE_SECONDS,
      ],
      [30, 300, 86400, 900],
    );
  });

  for (const [name, value] of [
    ['OAUTH_CODE_SECONDS', '5'],
    ['OAUTH_CODE_SECONDS', '3600'],
    ['OAUTH_ACCESS_TOKEN_SECONDS', '10'],
    ['OAUTH_ACCESS_TOKEN_SECONDS', 'an hour'],
    ['OAUTH_REFRESH_TOKEN_SECONDS', '1.5'],
    ['OAUTH_REFRESH_ABSOLUTE_SECONDS', String(731 * 24 * 60 * 60)],
    ['OAUTH_DEVICE_CODE_SECONDS', '30'],
    ['OAUTH_DEVICE_CODE_SECONDS', '7200'],
  ] as const)
    test(`given ${name}=${value}, then the configuration is refused naming it`, () => {
      assert.throws(() => loadConfig({ ...base, [name]: value }), new RegExp(`configuration: ${name}:`));
    });

  test('given refresh tokens shorter-lived than access tokens, then the configuration is refused', () => {
    assert.throws(
      () => loadConfig({ ...base, OAUTH_ACCESS_TOKEN_SECONDS: '7200', OAUTH_REFRESH_TOKEN_SECONDS: '3600' }),
      /configuration: OAUTH_REFRESH_TOKEN_SECONDS: must be at least OAUTH_ACCESS_TOKEN_SECONDS/,
    );
  });

  test('given a family lifetime shorter than one refresh token, then the configuration is refused', () => {
    assert.throws(
      () =>
        loadConfig({ ...base, OAUTH_REFRESH_TOKEN_SECONDS: '86400', OAUTH_REFRESH_ABSOLUTE_SECONDS: '3600' }),
      /configuration: OAUTH_REFRESH_ABSOLUTE_SECONDS: must be at least OAUTH_REFRESH_TOKEN_SECONDS/,
    );
  });
});
