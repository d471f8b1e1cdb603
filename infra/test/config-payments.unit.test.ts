// The Stripe settings (docs/payments.md#configuration): both secrets or neither, and the Connect
// endpoint's own signing secret only alongside the platform's.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '../src/config/config.js';

const base = { NODE_ENV: 'test' };
const stripe = { STRIPE_SECRET_KEY: 'sk_test_0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_platform01' };

describe('payments configuration', () => {
  test('given the platform and the Connect webhook secrets, then both are taken', () => {
    const c = loadConfig({ ...base, ...stripe, STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect001' });
    assert.equal(c.STRIPE_WEBHOOK_SECRET, 'whsec_platform01');
    assert.equal(c.STRIPE_CONNECT_WEBHOOK_SECRET, 'whsec_connect001');
    assert.equal(loadConfig({ ...base, ...stripe }).STRIPE_CONNECT_WEBHOOK_SECRET, undefined);
  });

  test('given a Connect webhook secret without the platform’s, or one secret of the pair, then the start stops naming it', () => {
    assert.throws(
      () => loadConfig({ ...base, STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect001' }),
      /STRIPE_CONNECT_WEBHOOK_SECRET/,
    );
    assert.throws(
      () => loadConfig({ ...base, STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY }),
      /STRIPE_SECRET_KEY/,
    );
    assert.throws(
      () => loadConfig({ ...base, ...stripe, STRIPE_CONNECT_WEBHOOK_SECRET: 'short' }),
      /STRIPE_CONNECT_WEBHOOK_SECRET/,
    );
  });
});
