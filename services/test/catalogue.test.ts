// Every operation an area defines is in the catalogue composed from the areas' lists; those reached only
// at their own endpoint (OAuth's, a site's form submission) stay out of everything callable by name.
import { allOperations, catalogueOperations, getOperation, mcpTools } from '@tributary/services';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const NOT_AREAS = new Set(['shared', 'pipeline', 'ports']);

const isOperation = (v: unknown): v is { name: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { name?: unknown }).name === 'string' &&
  (v as { name: string }).name.startsWith('svc.') &&
  typeof (v as { run?: unknown }).run === 'function';

async function definedOperations(): Promise<[area: string, name: string, op: { name: string }][]> {
  const out: [string, string, { name: string }][] = [];
  for (const entry of readdirSync(SRC, { withFileTypes: true })) {
    if (!entry.isDirectory() || NOT_AREAS.has(entry.name)) continue;
    const mod = (await import(`${SRC}${entry.name}/index.ts`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod))
      if (isOperation(value)) out.push([entry.name, name, value]);
  }
  return out;
}

describe('the catalogue', () => {
  test('given every operation an area defines, then each is in the catalogue', async () => {
    const defined = await definedOperations();
    const catalogue = catalogueOperations();
    assert.ok(defined.length >= catalogue.length);
    for (const [area, name, op] of defined)
      assert.ok(
        catalogue.includes(op as never),
        `${area}: ${name} (${op.name}) is in no area's operations list`,
      );
    assert.equal(new Set(catalogue.map((op) => op.name)).size, catalogue.length, 'one entry per name');
  });

  test('given the OAuth operations, the global address registry’s, the payment platform’s, the site form submission, delegated mail and single sign-on’s, then none is a tool or callable by name: they have their own endpoints', () => {
    const own = catalogueOperations().filter((op) => op.ownEndpoint);
    assert.deepEqual(own.map((op) => op.name).sort(), [
      'svc.builder.deregister_address',
      'svc.builder.record_address_instance',
      'svc.builder.register_address',
      'svc.builder.submit_form',
      'svc.mail.send_delegated',
      'svc.oauth.authorize',
      'svc.oauth.device.decide',
      'svc.oauth.device.request',
      'svc.oauth.grant.revoke',
      'svc.oauth.register',
      'svc.oauth.token.authorization_code',
      'svc.oauth.token.device_code',
      'svc.oauth.token.refresh_token',
      'svc.oauth.token.revoke',
      'svc.payments.create_checkout',
      'svc.payments.onboard_seller',
      'svc.payments.read_connected_account',
      'svc.payments.refund',
      'svc.payments.request_payout',
      'svc.payments.settle_obligation',
      'svc.sso.accept_assertion',
      'svc.sso.delegated_sign_up',
      'svc.sso.issue_assertion',
      'svc.sso.session_handoff',
      'svc.sso.site_account',
      'svc.sso.verify_password',
    ]);
    for (const op of own) {
      assert.deepEqual(op.enabledFor, []);
      assert.equal(getOperation(op.name), undefined, op.name);
      assert.ok(!allOperations().includes(op), op.name);
      assert.ok(!mcpTools().includes(op), op.name);
    }
  });

  test('given every tool, then only the personal data export is for sessions alone: every other is enabled for tokens too (interface §5.2)', () => {
    const sessionOnly = mcpTools()
      .filter((op) => !op.enabledFor.includes('token'))
      .map((op) => op.name);
    assert.deepEqual(sessionOnly, ['svc.account.export_data']);
  });
});
