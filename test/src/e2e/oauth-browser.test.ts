// A real browser (playwright-core driving Debian's chromium): a person signs in on the consent page,
// consents, and approves a device code, without JavaScript on our pages. Skipped when no chromium.
import { CHROMIUM, chromiumAvailable, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { chromium, type Browser } from 'playwright-core';
import { password, signUp } from './mcp-helpers.js';
import { authorizeUrl, REDIRECT, registeredClient } from './oauth-helpers.js';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

describe.skipIf(!chromiumAvailable())('OAuth pages in a real browser', () => {
  let instance: TestInstance;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    await signUp(url, 'ada');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
  });

  test('given a person without a session, when they sign in on the consent page and allow, then the client gets a code it exchanges', async () => {
    const config = await registeredClient(url);
    const a = await authorizeUrl(config, 'svc.profile.read');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // The client's redirect target is not a server here: catch the navigation to it.
    let redirected: URL | undefined;
    await page.route(`${REDIRECT}**`, (route) => {
      redirected = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'done' });
    });
    await page.goto(a.url.toString());
    await page.getByLabel('Email or handle').fill('ada');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow Test Agent?' }).waitFor();
    assert.match(await page.content(), /read your profile/);
    // A self-registered client is marked unverified, visibly, above the buttons.
    const note = page.getByRole('note').filter({ hasText: 'Unverified app.' });
    assert.ok(await note.isVisible());
    const noteBox = (await note.boundingBox())!;
    const allowBox = (await page.getByRole('button', { name: 'Allow' }).boundingBox())!;
    assert.ok(noteBox.y + noteBox.height <= allowBox.y, 'the note comes before the buttons');
    assert.equal(
      // Runs in the page; the test's own types have no DOM.
      await note.evaluate(
        (el) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { borderTopStyle: string } }
          ).getComputedStyle(el).borderTopStyle,
      ),
      'solid',
      'it is set apart from the text',
    );
    // For a person to look at: OAUTH_SCREENSHOT=/path/consent.png
    if (process.env.OAUTH_SCREENSHOT)
      await page.screenshot({ path: process.env.OAUTH_SCREENSHOT, fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${REDIRECT}**`);
    assert.ok(redirected?.searchParams.get('code'));
    const tokens = await oidc.authorizationCodeGrant(config, redirected!, {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    assert.ok(tokens.access_token);
    await context.close();
  });

  test('given a device code, when a signed-in person types it at /mcp/authorize and approves, then the device gets its token', async () => {
    const config = await registeredClient(url, {
      redirect_uris: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
    });
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${url}/mcp/authorize`);
    await page.getByLabel('Email or handle').fill('ada');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Code shown on your device').fill(d.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Connect Test Agent?' }).waitFor();
    assert.ok(await page.getByRole('note').filter({ hasText: 'Unverified app.' }).isVisible());
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device connected' }).waitFor();
    const r = await fetch(`${url}/api/mcp/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: d.device_code,
        client_id: config.clientMetadata().client_id,
      }),
    });
    assert.equal(r.status, 200);
    await context.close();
  });
});
