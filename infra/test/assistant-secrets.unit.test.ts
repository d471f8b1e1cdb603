// The assistant account secrets' key and cipher: AES-256-GCM bound to the row and column (a value moved
// elsewhere, or opened with another key, does not open), the key from ASSISTANT_SECRET_KEY or a key file
// created 0600 and refused when others may read it; the provider settings all-or-nothing; and the
// logger's redaction of token fields.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createSecretCipher, loadOrCreateSecretKey, secretKeyBytes } from '../src/assistant/secret-key.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/logger.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trib-assistant-key-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('assistant secret cipher', () => {
  const key = randomBytes(32);
  const cipher = createSecretCipher(key);

  test('given a sealed value, then it opens only with the same key and context, and never shows the plaintext', () => {
    const sealed = cipher.seal('access-token-value', 'account:a:access_token');
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes('access-token-value'));
    assert.equal(cipher.open(sealed, 'account:a:access_token'), 'access-token-value');
    assert.equal(cipher.open(sealed, 'account:b:access_token'), undefined);
    assert.equal(cipher.open(sealed, 'account:a:refresh_token'), undefined);
    assert.equal(createSecretCipher(randomBytes(32)).open(sealed, 'account:a:access_token'), undefined);
    // A fresh nonce each time: the same secret never seals to the same text.
    assert.notEqual(cipher.seal('access-token-value', 'account:a:access_token'), sealed);
    // Tampering is detected.
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    assert.equal(cipher.open(flipped, 'account:a:access_token'), undefined);
    assert.equal(cipher.open('v2.x.y', 'account:a:access_token'), undefined);
  });

  test('given key text, then 32 bytes as base64, base64url or hex are taken and anything else refused', () => {
    const k = randomBytes(32);
    assert.deepEqual(secretKeyBytes(k.toString('base64')), k);
    assert.deepEqual(secretKeyBytes(k.toString('base64url')), k);
    assert.deepEqual(secretKeyBytes(k.toString('hex')), k);
    assert.equal(secretKeyBytes(randomBytes(16).toString('base64')), undefined);
    assert.equal(secretKeyBytes('not a key'), undefined);
  });

  test('given no key in the environment, then a key file is created 0600 and read back; one others may read is refused', async () => {
    const path = join(dir, 'keys', 'assistant-secrets.key');
    const first = loadOrCreateSecretKey(undefined, path);
    assert.deepEqual([first.source, first.created], ['file', true]);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'keys'))).mode & 0o777, 0o700);
    const again = loadOrCreateSecretKey(undefined, path);
    assert.deepEqual([again.created, again.key], [false, first.key]);
    assert.ok((await readFile(path, 'utf8')).trim().length >= 43);
    await chmod(path, 0o644);
    assert.throws(() => loadOrCreateSecretKey(undefined, path), /accessible by group or others/);
    const env = loadOrCreateSecretKey(randomBytes(32).toString('hex'), join(dir, 'unused.key'));
    assert.equal(env.source, 'env');
    assert.throws(() => loadOrCreateSecretKey('short', path), /ASSISTANT_SECRET_KEY/);
  });
});

describe('assistant provider configuration', () => {
  test('given part of a provider, then start is refused; given none or all, then accepted', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).ASSISTANT_PROVIDER_DEVICE_URL, undefined);
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', ASSISTANT_PROVIDER_DEVICE_URL: 'https://p.example/device' }),
      /ASSISTANT_PROVIDER_DEVICE_URL/,
    );
    const c = loadConfig({
      NODE_ENV: 'test',
      ASSISTANT_PROVIDER_DEVICE_URL: 'https://p.example/device',
      ASSISTANT_PROVIDER_TOKEN_URL: 'https://p.example/token',
      ASSISTANT_PROVIDER_CLIENT_ID: 'client',
    });
    assert.equal(c.ASSISTANT_REFRESH_MARGIN_SECONDS, 120);
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', ASSISTANT_PROVIDER_MODELS_URL: 'javascript:alert(1)' }),
      /ASSISTANT_PROVIDER_MODELS_URL/,
    );
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', ASSISTANT_SECRET_KEY: 'short' }),
      /ASSISTANT_SECRET_KEY/,
    );
  });
});

describe('log redaction', () => {
  test('given token fields in a log line, then they are redacted', () => {
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info(
      {
        accessToken: 'SECRET-A',
        tokens: { refreshToken: 'SECRET-R', access_token: 'SECRET-B', device_code: 'SECRET-D' },
        req: { headers: { authorization: 'Bearer SECRET-H' } },
      },
      'refreshed',
    );
    assert.match(written, /refreshed/);
    assert.ok(!/SECRET-/.test(written), written);
  });
});
