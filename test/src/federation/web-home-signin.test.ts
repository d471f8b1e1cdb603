// "Sign in with your home instance" on /signin, in a real browser across a global and a group instance
// on loopback with the sync running: without a registered global peer the page offers nothing; once the
// global instance is a peer, the page links to its /signin, whose session hand-off for this instance
// lands the person back here as a remote viewer (docs/sso.md). The sign-in page through axe, screenshotted.
import { chromiumAvailable, eventually, browser as http } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkPage, launchBrowser, newWatchedPage } from '../e2e/web-kit.js';
import { register, startNode, type Node } from './federation-helpers.js';

const SYNC_ENV = {
  FEDERATION_SYNC: 'on',
  FEDERATION_SWEEP_MS: '50',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
  FEDERATION_QUEUE: 'in-process',
  RATE_LIMIT_SSO: '10000/min',
};
const PASSWORD = 'global password of ada';

describe.skipIf(!chromiumAvailable())('sign in with your home instance', () => {
  let g: Node; // the global instance: holds Ada's account
  let r: Node; // a group instance Ada visits
  let browser: Browser;
  let adaOnGlobal: string;

  beforeAll(async () => {
    [g, r] = await Promise.all([
      startNode('global', 'Global Commons', SYNC_ENV),
      startNode('group', 'Riverside', SYNC_ENV),
    ]);
    const onGlobal = await http(g.url).post('/api/auth/signup', {
      handle: 'ada',
      password: PASSWORD,
      name: 'Ada Lovelace',
    });
    assert.equal(onGlobal.status, 201, onGlobal.text);
    adaOnGlobal = onGlobal.json.agentId;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([g?.instance.destroy(), r?.instance.destroy()]);
  });

  test('given no global peer, then /signin offers no home sign-in; given the global instance as a peer, then its link hands the person back here as a remote viewer', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    await page.goto(`${r.url}/signin?return_to=/docs`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.locator('[data-home-signin]').count(), 0, 'no global peer: no link');

    await register(g, r);
    await register(r, g, { name: 'Global Commons' });
    // Ada's agent reaches the group instance through the feed (a landing needs it there).
    await eventually('Ada on the group instance', async () => {
      const { rows } = await r.instance.instance.pool.query(
        'SELECT 1 FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $2',
        [g.id, adaOnGlobal],
      );
      return rows.length > 0;
    });

    await page.goto(`${r.url}/signin?return_to=/docs`);
    const link = page.getByRole('link', { name: 'Sign in with your home instance' });
    const handoff = `/api/federation/sso/session-handoff?to=${encodeURIComponent(r.url)}&next=${encodeURIComponent('/docs')}`;
    assert.equal(await link.getAttribute('href'), `${g.url}/signin?return_to=${encodeURIComponent(handoff)}`);
    await page.getByText('Your account is on Global Commons?').waitFor();
    await checkPage(w, 'signin-home-instance');

    // A global peer that is blocked may not issue assertions: no link.
    const blocked = await r.operator.call('PATCH', '/api/federation/peers', {
      peerId: g.id,
      blocked: true,
      reason: 'testing',
    });
    assert.equal(blocked.status, 200, blocked.text);
    await page.reload();
    assert.equal(await page.locator('[data-home-signin]').count(), 0, 'blocked global: no link');
    const unblocked = await r.operator.call('PATCH', '/api/federation/peers', {
      peerId: g.id,
      blocked: false,
    });
    assert.equal(unblocked.status, 200, unblocked.text);
    await page.reload();

    // Sign in on the global instance; its hand-off lands the person back on /docs here.
    await link.click();
    await page.waitForURL(`${g.url}/signin?**`);
    await page.getByLabel('Email or handle').fill('ada');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${r.url}/docs`);
    assert.deepEqual(w.cspViolations, [], 'the form’s redirects to the landing are allowed');

    // The browser now holds a remote viewer's credential on the group instance, bound to Ada's agent.
    const sessions = await page.request.get(`${r.url}/api/federation/sso/sessions`);
    assert.equal(sessions.status(), 200, await sessions.text());
    const accepted = await r.instance.instance.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'sso.assertion_accepted'`,
    );
    assert.equal(accepted.rows[0].n, 1);
    await w.context.close();
  });
});
