// The operator's pages in a real browser, with a second instance on loopback: the operator adds it from
// its URL (a wrong key id is refused and registers nothing; the right one registers it and shows the
// shared secret once), sees its federation status move as sync runs, blocks and unblocks it; the log
// page shows the last `log verify`. A person who is not an operator is refused the pages. Each step is
// checked on the instance's own state; every page through axe and screenshotted.
import { lastLogVerifyRun, recordLogVerifyRun, verifyLog } from '@tributary/infra';
import { chromiumAvailable, eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  checkPage,
  launchBrowser,
  newWatchedPage,
  signInInBrowser,
  signUpInBrowser,
} from '../e2e/web-kit.js';
import { password, startNode, type Loose, type Node } from './federation-helpers.js';

describe.skipIf(!chromiumAvailable())('operator pages in a real browser', () => {
  let a: Node;
  let b: Node;
  let browser: Browser;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      // A may call loopback addresses (B is on 127.0.0.1) and syncs with its peers, as a deployment does.
      startNode('global', 'Global Commons', {
        OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
        FEDERATION_SYNC: 'on',
        FEDERATION_SWEEP_MS: '200',
      }),
      startNode('person', 'Riverside'),
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  const peersOfA = async () =>
    ((await a.operator.get('/api/federation/peers')).json as Loose).result.peers as Loose[];

  test('given two instances, when the operator adds the second from its URL on the pages, then it is registered with its key and its sync status shows', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    await signInInBrowser(page, a.url, 'op_global', password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
    await page.getByRole('heading', { name: 'Peers', exact: true }).waitFor();
    await checkPage(w, 'operator-empty');

    // Read B's manifest.
    await page.getByLabel('Peer address').fill(b.url);
    await page.getByRole('button', { name: 'Read its manifest' }).click();
    await page.getByRole('heading', { name: 'Add Riverside?' }).waitFor();
    assert.equal(await page.locator('[data-field="manifest-key-id"]').textContent(), b.keyId);
    await checkPage(w, 'operator-add-peer');

    // A key id that is not the manifest's: refused, nothing registered.
    await page.getByLabel('Key id, as the peer’s operator gave it').fill('not-the-key-id');
    await page.getByRole('button', { name: 'Register this peer' }).click();
    await page.locator('[data-error-code="federation.key_id_mismatch"]').waitFor();
    assert.deepEqual(await peersOfA(), []);

    // The right one: registered, the shared secret shown once.
    await page.getByLabel('Peer address').fill(b.url);
    await page.getByRole('button', { name: 'Read its manifest' }).click();
    await page.getByLabel('Key id, as the peer’s operator gave it').fill(b.keyId);
    await page.getByRole('button', { name: 'Register this peer' }).click();
    await page.locator('[data-secret]').waitFor();
    const [peer] = await peersOfA();
    assert.equal(peer?.peerId, b.id);
    assert.equal(peer?.baseUrl, b.url);
    assert.equal(peer?.role, 'person');
    assert.deepEqual(
      (peer?.keys as Loose[]).map((k) => k.keyId),
      [b.keyId],
    );
    await checkPage(w, 'operator-peer-added');

    // Its federation status: A pushes to B (B does not know A, so the push fails and says why) and
    // pulls B's feed; the page shows where each cursor stands.
    await eventually('both cursors of B on the status page', async () => {
      await page.goto(`${a.url}/operator`);
      const text = (await page.locator('#federation').textContent()) ?? '';
      return !text.includes('not started') && text.includes('Riverside');
    });
    const status = ((await a.operator.post('/api/ops/svc.federation.status', {})).json as Loose).result
      .peers as Loose[];
    assert.equal(status[0]?.peerId, b.id);
    assert.ok(status[0]?.pull, 'A has pulled from B');
    const pullCell = page.locator('#federation').getByRole('row', { name: /Riverside/ });
    await pullCell.getByText(`at ${status[0]!.pull.position}`).first().waitFor();
    await checkPage(w, 'operator');

    // Block with a reason, then unblock.
    await page.locator('#peers summary', { hasText: 'Block' }).click();
    await page.getByLabel('Why block Riverside').fill('testing the pages');
    await page.getByRole('button', { name: 'Block Riverside' }).click();
    await page.getByText('Peer blocked').waitFor();
    let [after] = await peersOfA();
    assert.equal(after?.blocked, true);
    assert.equal(after?.blockedReason, 'testing the pages');
    await page.getByRole('button', { name: 'Unblock Riverside' }).click();
    await page.getByText('Peer unblocked.').waitFor();
    [after] = await peersOfA();
    assert.equal(after?.blocked, false);

    // The log page: no verify yet, then the last run's result.
    await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'Log' }).click();
    await page.getByText('The log has not been verified on this instance yet.').waitFor();
    const pool = a.instance.instance.pool;
    const startedAt = new Date();
    const report = await verifyLog(pool);
    assert.equal(report.ok, true);
    await recordLogVerifyRun(pool, { startedAt, finishedAt: new Date(), ...report });
    assert.equal((await lastLogVerifyRun(pool))?.events, report.events);
    await page.reload();
    await page.getByText('The log verified.').waitFor();
    await page.locator('#verify').getByText(String(report.events), { exact: true }).waitFor();
    await page.locator('#events tbody tr').first().waitFor();
    await checkPage(w, 'operator-log');
    await w.context.close();
  });

  test('given the operator on the peers page, when they rotate the signing key and then revoke the old one (each asking to confirm), then the manifest shows it', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    await signInInBrowser(page, a.url, 'op_global', password);
    await page.goto(`${a.url}/operator`);
    await page.getByRole('heading', { name: 'This instance’s signing keys' }).waitFor();
    const manifest = async () => (await (await fetch(`${a.url}/api/federation/manifest`)).json()) as Loose;
    const before = (await manifest()).keyId as string;

    // The buttons ask first (data-confirm); the kit's pages accept every dialog.
    assert.ok(await page.locator('form[action="/operator/keys/rotate"][data-confirm]').count());
    await page.getByRole('button', { name: 'Rotate the signing key' }).click();
    await page.waitForLoadState('load');
    await page.getByText('New signing key in use.').waitFor();
    const rotated = await eventually('the new key to sign the manifest', async () => {
      const m = await manifest();
      return m.keyId !== before ? m : undefined;
    });
    assert.deepEqual(
      (rotated.keys as Loose[]).map((k) => [k.keyId, k.validUntil === null]),
      [
        [before, false],
        [rotated.keyId, true],
      ],
    );
    await checkPage(w, 'operator-keys-rotated');

    await page.locator(`form[action="/operator/keys/revoke"]:has(input[value="${before}"]) button`).click();
    await page.getByText('Key revoked:').waitFor();
    const revoked = ((await manifest()).keys as Loose[]).find((k) => k.keyId === before)!;
    assert.ok(revoked.revokedAfter, 'the old key is revoked');
    assert.equal(await page.getByRole('button', { name: /^Revoke / }).count(), 0);
    await w.context.close();
  });

  test('given a person who is not an operator, when they open the operator pages or post to them, then they are refused and nothing changes', async () => {
    const w = await newWatchedPage(browser);
    await signUpInBrowser(w.page, b.url, 'visitor');
    const r = await w.page.goto(`${b.url}/operator`);
    assert.equal(r?.status(), 403);
    await w.page.getByRole('heading', { name: 'Operators only' }).waitFor();
    assert.equal(
      await w.page.getByRole('link', { name: 'Operator' }).count(),
      0,
      'no Operator link in the nav',
    );
    const csrf = await w.page.locator('form[action="/signout"] input[name="csrf"]').getAttribute('value');
    const post = await w.page.request.post(`${b.url}/operator/peers/check`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.url },
      data: `csrf=${csrf}&baseUrl=${encodeURIComponent(a.url)}`,
      maxRedirects: 0,
    });
    assert.equal(post.status(), 403);
    const peers = ((await b.operator.get('/api/federation/peers')).json as Loose).result.peers as Loose[];
    assert.deepEqual(peers, []);
    await w.context.close();
  });
});
