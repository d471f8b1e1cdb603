// The public form submissions' settings: the documented defaults, and bounds that refuse a start.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

describe('form submission configuration', () => {
  test('given no settings, then 5 a minute, 50 a day and 32 KiB bodies', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    assert.equal(c.BUILDER_FORM_SUBMISSIONS_PER_MINUTE, 5);
    assert.equal(c.BUILDER_FORM_SUBMISSIONS_PER_DAY, 50);
    assert.equal(c.BUILDER_FORM_MAX_BODY_BYTES, 32 * 1024);
  });

  test('given values out of bounds, then start is refused naming the variable', () => {
    for (const [name, value] of [
      ['BUILDER_FORM_SUBMISSIONS_PER_MINUTE', '0'],
      ['BUILDER_FORM_SUBMISSIONS_PER_DAY', '-1'],
      ['BUILDER_FORM_MAX_BODY_BYTES', '512'],
      ['BUILDER_FORM_MAX_BODY_BYTES', String(128 * 1024 + 1)],
      ['BUILDER_FORM_SUBMISSIONS_PER_MINUTE', 'many'],
    ] as const)
      assert.throws(() => loadConfig({ NODE_ENV: 'test', [name]: value }), new RegExp(name));
    assert.equal(
      loadConfig({ NODE_ENV: 'test', BUILDER_FORM_MAX_BODY_BYTES: String(64 * 1024) })
        .BUILDER_FORM_MAX_BODY_BYTES,
      64 * 1024,
    );
  });
});
