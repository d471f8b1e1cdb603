// Suspension on the real pipeline over the in-memory log: an operator suspends and lifts someone else's
// site (by siteId or by its owner's default site), the owner sees the state and the reason and can lift
// nothing; every refusal writes nothing.
import { defaultSiteId, type Principal, type SiteView } from '@tributary/services';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'vitest';
import { givenDefaultSite } from './builder-given.js';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

const ids = { sha256: (s: string) => createHash('sha256').update(s).digest('hex') };
const tokenOf = (a: UnitAccount, scopes: readonly string[]): Principal => ({
  kind: 'token',
  jti: 'j',
  accountId: a.accountId,
  agentId: a.agentId,
  scopes,
});

/** ada is the operator (first account); bob owns a default site. */
async function setUp(): Promise<{ t: UnitInstance; ada: UnitAccount; bob: UnitAccount; siteId: string }> {
  const t = await unitInstance();
  const ada = await t.signUp('ada');
  const bob = await t.signUp('bob');
  await givenDefaultSite(t, bob);
  return { t, ada, bob, siteId: defaultSiteId(ids, bob.agentId) };
}

const ownerView = async (t: UnitInstance, who: UnitAccount, siteId: string) =>
  (await t.when<{ site: SiteView }>('svc.builder.read_site', { siteId }, who.principal)).result.site;

describe('svc.builder.suspend_site', () => {
  test("given the operator, when suspending the owner's default site by targetAgentId, then site.suspended by the operator, and the owner reads the reason", async () => {
    const { t, ada, bob, siteId } = await setUp();
    const r = await t.when(
      'svc.builder.suspend_site',
      { targetAgentId: bob.agentId, reason: '  Phishing page  ' },
      ada.principal,
    );
    const result = r.thenEvents([
      { type: 'site.suspended', stream: `site-${siteId}`, data: { siteId, reason: 'Phishing page' } },
    ]);
    assert.equal(r.events[0]!.actorId, ada.agentId, 'the operator acts as themselves');
    assert.deepEqual(result, { siteId, ownerAgentId: bob.agentId, suspended: true, reason: 'Phishing page' });
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, 'Phishing page');
  });

  test('given the operator, when suspending by siteId (with or without the owner named), then it is suspended; the same reason again writes nothing', async () => {
    const { t, ada, bob, siteId } = await setUp();
    (await t.when('svc.builder.suspend_site', { siteId, reason: 'spam' }, ada.principal)).thenEvents([
      { type: 'site.suspended', data: { siteId, reason: 'spam' } },
    ]);
    (
      await t.when(
        'svc.builder.suspend_site',
        { siteId, targetAgentId: bob.agentId, reason: 'spam' },
        ada.principal,
      )
    ).thenEvents([]);
    (await t.when('svc.builder.suspend_site', { siteId, reason: 'malware' }, ada.principal)).thenEvents([
      { type: 'site.suspended', data: { siteId, reason: 'malware' } },
    ]);
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, 'malware');
  });

  test("given a persona's site, then the operator suspends it like any other", async () => {
    const { t, ada, bob } = await setUp();
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, bob.principal)
    ).result;
    await givenDefaultSite(t, bob, persona.agentId);
    (
      await t.when(
        'svc.builder.suspend_site',
        { targetAgentId: persona.agentId, reason: 'spam' },
        ada.principal,
      )
    ).thenEvents([{ type: 'site.suspended', data: { siteId: defaultSiteId(ids, persona.agentId) } }]);
  });

  test('given a site that does not exist, is not that owner’s, or an owner without a default site yet, then builder.site_not_found', async () => {
    const { t, ada, bob, siteId } = await setUp();
    const cyd = await t.signUp('cyd');
    for (const input of [
      { siteId: '0f8fad5b-d9cb-469f-a165-70867728950e', reason: 'x' },
      { siteId, targetAgentId: cyd.agentId, reason: 'x' },
      { targetAgentId: cyd.agentId, reason: 'x' },
    ])
      (await t.when('svc.builder.suspend_site', input, ada.principal)).thenError('builder.site_not_found');
    (await t.when('svc.builder.unsuspend_site', { targetAgentId: cyd.agentId }, ada.principal)).thenError(
      'builder.site_not_found',
    );
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, null);
  });

  test('given no site named, no reason, an empty or multi-line reason, or an unknown member, then input.invalid', async () => {
    const { t, ada, bob, siteId } = await setUp();
    for (const input of [
      { reason: 'spam' },
      { siteId },
      { siteId, reason: '  ' },
      { siteId, reason: 'a\nb' },
      { siteId, reason: 'x'.repeat(501) },
      { siteId, reason: 'x', extra: 1 },
      { siteId: 'not-a-uuid', reason: 'x' },
    ])
      (await t.when('svc.builder.suspend_site', input, ada.principal)).thenError('input.invalid');
    (await t.when('svc.builder.unsuspend_site', {}, ada.principal)).thenError('input.invalid');
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, null);
  });

  test('given the owner (not an operator), then auth.controller_only for suspending and for lifting, even on their own site', async () => {
    const { t, ada, bob, siteId } = await setUp();
    (await t.when('svc.builder.suspend_site', { siteId, reason: 'x' }, bob.principal)).thenError(
      'auth.controller_only',
    );
    await t.when('svc.builder.suspend_site', { siteId, reason: 'spam' }, ada.principal);
    (await t.when('svc.builder.unsuspend_site', { siteId }, bob.principal)).thenError('auth.controller_only');
    (await t.when('svc.builder.unsuspend_site', { siteId }, tokenOf(bob, ['svc.admin']))).thenError(
      'auth.controller_only',
    );
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, 'spam');
  });

  test('given the operator on a token, then svc.admin is the scope it needs', async () => {
    const { t, ada, siteId } = await setUp();
    (
      await t.when('svc.builder.suspend_site', { siteId, reason: 'x' }, tokenOf(ada, ['svc.builder.write']))
    ).thenError('auth.insufficient_scope');
    (
      await t.when('svc.builder.suspend_site', { siteId, reason: 'x' }, tokenOf(ada, ['svc.admin']))
    ).thenEvents([{ type: 'site.suspended' }]);
  });
});

describe('svc.builder.unsuspend_site', () => {
  test('given a suspended site, when the operator lifts it, then site.unsuspended and the owner reads no reason; lifting again writes nothing', async () => {
    const { t, ada, bob, siteId } = await setUp();
    await t.when('svc.builder.suspend_site', { siteId, reason: 'spam' }, ada.principal);
    const result = (
      await t.when('svc.builder.unsuspend_site', { targetAgentId: bob.agentId }, ada.principal)
    ).thenEvents([{ type: 'site.unsuspended', stream: `site-${siteId}`, data: { siteId } }]);
    assert.deepEqual(result, { siteId, ownerAgentId: bob.agentId, suspended: false, reason: null });
    assert.equal((await ownerView(t, bob, siteId)).suspendedReason, null);
    (await t.when('svc.builder.unsuspend_site', { siteId }, ada.principal)).thenEvents([]);
  });
});
