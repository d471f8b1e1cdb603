// BASE_URL is the instance's public address, written into instance.initialized and every link it
// serves: an http(s) URL only, refused at start otherwise.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

describe('BASE_URL configuration', () => {
  test('given a BASE_URL that is not an http(s) URL, then the configuration is refused naming it', () => {
    for (const BASE_URL of ['javascript:alert(1)', 'ftp://example.org', 'https://user:pw@example.org']) {
      assert.throws(
        () => loadConfig({ NODE_ENV: 'test', BASE_URL }),
        (e: Error) => /BASE_URL/.test(e.message),
        BASE_URL,
      );
    }
    assert.equal(
      loadConfig({ NODE_ENV: 'test', BASE_URL: 'https://example.org/' }).BASE_URL,
      'https://example.org',
    );
  });
});
