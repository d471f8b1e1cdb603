// The connected external-assistant account on /assistant/account with a provider configured, in a real
// browser (docs/web.md#assistant, docs/assistant.md#connected-external-assistant-account). A scripted
// provider on loopback plays the device flow (RFC 8628: the device endpoint, a token endpoint that
// answers authorization_pending until the person approves) and the models list. The person starts
// signing in, sees the code to enter and the provider's page, checks before approving (not yet), approves
// at the provider, and the page — polling by itself — shows the account connected with its models; the
// person chooses one in the settings and disconnects. Each step is checked on the instance's state.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, test } from 'vitest';
import { checkPage, webSuite, type WebSuiteOptions } from './web-kit.js';

const USER_CODE = 'WDJB-MJHT';
const ACCESS = 'acct-access-web-5e1f';

/** The provider: one pending device code until `approve()`, then its token; models for that token. */
async function startScriptedProvider() {
  let approved = false;
  let polls = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/device')
        return send(200, {
          device_code: 'device-web-1',
          user_code: USER_CODE,
          verification_uri: `${url}/activate`,
          expires_in: 600,
          interval: 1,
        });
      if (req.method === 'POST' && req.url === '/token') {
        if (form.get('device_code') !== 'device-web-1') return send(400, { error: 'invalid_grant' });
        polls++;
        if (!approved) return send(400, { error: 'authorization_pending' });
        return send(200, {
          access_token: ACCESS,
          token_type: 'Bearer',
          refresh_token: 'r-1',
          expires_in: 3600,
        });
      }
      if (req.method === 'GET' && req.url === '/v1/models') {
        if (req.headers.authorization !== `Bearer ${ACCESS}`) return send(401, { error: { message: 'no' } });
        return send(200, {
          object: 'list',
          data: [
            { id: 'acct-large', object: 'model', owned_by: 'p' },
            { id: 'acct-small', object: 'model', owned_by: 'p' },
          ],
        });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    approve: () => (approved = true),
    get polls() {
      return polls;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let provider: Awaited<ReturnType<typeof startScriptedProvider>>;
const withProvider: WebSuiteOptions = {
  instance: async () => {
    provider = await startScriptedProvider();
    return {
      env: {
        ASSISTANT_PROVIDER_NAME: 'Scripted AI',
        ASSISTANT_PROVIDER_DEVICE_URL: `${provider.url}/device`,
        ASSISTANT_PROVIDER_TOKEN_URL: `${provider.url}/token`,
        ASSISTANT_PROVIDER_MODELS_URL: `${provider.url}/v1/models`,
        ASSISTANT_PROVIDER_API_URL: `${provider.url}/v1`,
        ASSISTANT_PROVIDER_CLIENT_ID: 'tributary-web-test',
      },
    };
  },
};

webSuite('the connected account page with a provider configured', withProvider, (web) => {
  afterAll(async () => {
    await provider?.close();
  });

  test('given a provider, when the person signs in with the device code and approves, then the account is connected, its models listed, and one chosen', async () => {
    const w = await web.signedUp('ada', { name: 'Ada' });
    const { page } = w;
    const account = async () =>
      (
        (await (await page.request.get(`${web.t.url}/api/autobot/codex`)).json()) as {
          result: { connected: boolean; provider: string | null; pendingSignIn: unknown };
        }
      ).result;
    assert.equal((await account()).connected, false);

    await page.goto(`${web.t.url}/assistant/account`);
    await page.getByRole('heading', { name: 'Connect an account' }).waitFor();
    await page.getByText('Scripted AI').first().waitFor();
    await checkPage(w, 'assistant-account-provider');

    // Start: the code to enter, large, and the provider's page to enter it on.
    await page.getByRole('button', { name: 'Start signing in' }).click();
    const code = page.locator('[data-field="user-code"]');
    await code.waitFor();
    assert.equal((await code.innerText()).trim(), USER_CODE);
    const link = page.getByRole('link', { name: `${provider.url}/activate` });
    assert.equal(await link.getAttribute('href'), `${provider.url}/activate`);
    assert.ok((await account()).pendingSignIn, 'a sign-in is pending on the instance');
    await checkPage(w, 'assistant-account-code');

    // Checking before approving: not yet, and nothing connected.
    await page.getByRole('button', { name: 'I have approved it — check' }).click();
    await page.getByText('Not approved yet').first().waitFor();
    assert.equal((await account()).connected, false);
    // The instance asks the provider no sooner than its interval (1 s) allows, so a check clicked at once
    // may be answered without asking it; the page keeps polling by itself, and the provider is asked then.
    await eventually('the provider to be asked', async () => provider.polls >= 1);

    // The person approves at the provider; the page polls by itself and shows the account connected.
    provider.approve();
    await page.getByRole('heading', { name: 'Connected' }).waitFor({ timeout: 60_000 });
    await page.getByText('acct-small').waitFor();
    await checkPage(w, 'assistant-account-connected');
    const connected = await account();
    assert.equal(connected.connected, true);
    assert.equal(connected.provider, 'Scripted AI');
    assert.ok(!JSON.stringify(connected).includes(ACCESS), 'no answer carries the token');

    // Choose one of its models in the settings.
    await page.getByRole('link', { name: 'Choose one in the settings' }).click();
    await page.getByLabel('Model').selectOption('acct-small');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByLabel('Model').and(page.locator('select')).waitFor();
    const settings = (await (await page.request.get(`${web.t.url}/api/autobot/settings`)).json()) as {
      result: { model: string | null };
    };
    assert.equal(settings.result.model, 'acct-small');
    await checkPage(w, 'assistant-settings-account-model');

    // Disconnect: the account is gone and the page offers to connect again.
    await page.goto(`${web.t.url}/assistant/account`);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('heading', { name: 'Connect an account' }).waitFor();
    assert.equal((await account()).connected, false);
    await w.context.close();
  });
});
