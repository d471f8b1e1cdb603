// The site server's settings: SITES_DOMAIN is a DNS name that is never the application's host nor
// holds it (a site's origin is never the application's); the cache and max-age are bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

describe('site serving configuration', () => {
  test('given no settings, then sites are served under sites.localhost with the documented defaults', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    assert.equal(c.SITES_DOMAIN, 'sites.localhost');
    assert.equal(c.SITES_CACHE_BYTES, 64 * 1024 * 1024);
    assert.equal(c.SITES_PAGE_MAX_AGE_SECONDS, 0);
    assert.equal(c.SITES_CHANGE_POLL_SECONDS, 10);
  });

  test('given SITES_DOMAIN in capitals with a trailing dot, then it is kept lower-case without the dot', () => {
    assert.equal(
      loadConfig({ NODE_ENV: 'test', SITES_DOMAIN: 'Sites.Example.ORG.' }).SITES_DOMAIN,
      'sites.example.org',
    );
  });

  test('given a SITES_DOMAIN that is not a DNS name, or is or holds the application host, then start is refused', () => {
    for (const SITES_DOMAIN of [
      'https://sites.example.org',
      '*.sites.example.org',
      'sites.example.org:8080',
      '-x.example',
      'a..b',
    ])
      assert.throws(() => loadConfig({ NODE_ENV: 'test', SITES_DOMAIN }), /SITES_DOMAIN/, SITES_DOMAIN);
    for (const [BASE_URL, SITES_DOMAIN] of [
      ['https://example.org', 'example.org'],
      ['https://app.sites.example.org', 'sites.example.org'],
    ])
      assert.throws(
        () => loadConfig({ NODE_ENV: 'test', BASE_URL, SITES_DOMAIN }),
        /SITES_DOMAIN/,
        SITES_DOMAIN,
      );
    assert.equal(
      loadConfig({ NODE_ENV: 'test', BASE_URL: 'https://example.org', SITES_DOMAIN: 'sites.example.org' })
        .SITES_DOMAIN,
      'sites.example.org',
    );
  });

  test('given a cache under 1 MiB or a max-age over a day, then start is refused', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'test', SITES_CACHE_BYTES: '1000' }), /SITES_CACHE_BYTES/);
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', SITES_PAGE_MAX_AGE_SECONDS: '86401' }),
      /SITES_PAGE_MAX_AGE/,
    );
  });
});
