// The public reference site at /docs in a real browser, without signing in: what the instance is, how to
// connect an agent, the API reference and the MCP tool catalogue — checked against the instance's own
// /api/openapi.json and the tools its MCP endpoint lists, so the pages cannot drift from them. Every
// page through axe and screenshotted.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { issueToken, mcpClient, signUp } from './mcp-helpers.js';
import { checkPage, webSuite } from './web-kit.js';

webSuite('the reference site in a real browser', (web) => {
  test('given a visitor, when they open /docs, then a guide for people is beside the reference: their site, their assistant, connecting an agent', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await page.goto(`${web.t.url}/docs`);
    await page
      .getByRole('navigation', { name: 'Reference' })
      .getByRole('link', { name: 'Start here' })
      .click();
    await page.waitForURL(`${web.t.url}/docs/guide`);
    for (const [heading, href] of [
      ['2. Your site', '/builder'],
      ['3. Your assistant', '/assistant'],
      ['4. Connecting an agent', '/access'],
    ] as const) {
      const section = page.locator('section.card', { has: page.getByRole('heading', { name: heading }) });
      assert.equal(await section.count(), 1, heading);
      assert.ok((await section.locator(`a[href="${href}"]`).count()) >= 1, `${heading} links to ${href}`);
    }
    await checkPage(w, 'docs-guide');
    await w.context.close();
  });

  test('given the guide’s words for the site builder, when a new person follows them, then every label it quotes is on the pages they meet', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await page.goto(`${web.t.url}/docs/guide`);
    const quoted = (await page.locator('#site [data-ui]').allTextContents()).map((s) => s.trim());
    assert.ok(quoted.length >= 10, `the guide quotes the pages: ${quoted.join(', ')}`);
    // The pages met on the way: the sites page (no site yet), the editor, publishing, the address.
    const seen: string[] = [];
    const signedUp = await web.signedUp('guided', { name: 'Guided' });
    const p = signedUp.page;
    const lookAt = async () => seen.push(await p.locator('main').innerText());
    await p.goto(`${web.t.url}/builder`);
    await lookAt();
    await p.getByLabel('Title').fill('Guided tour');
    await p.getByRole('button', { name: 'Create site' }).click();
    await p.getByText('Site created.').waitFor();
    await lookAt();
    await p.getByRole('link', { name: 'Publish and versions' }).click();
    await p.getByRole('button', { name: 'Publish the draft' }).click();
    await p.getByText('Published: the site now serves this draft.').waitFor();
    await lookAt();
    await p.getByRole('link', { name: 'Address and domains' }).click();
    await lookAt();
    const said = seen.join('\n');
    assert.deepEqual(
      quoted.filter((label) => !said.includes(label)),
      [],
      'labels the guide quotes that no page shows',
    );
    await signedUp.context.close();
    await w.context.close();
  });

  test('given a visitor, when they read /docs, then it names the instance and renders every API route and every MCP tool with its scopes', async () => {
    const w = await web.page();
    const { page } = w;
    await page.goto(`${web.t.url}/docs`);
    assert.equal(
      await page.locator('[data-field="key-id"]').first().textContent(),
      web.t.instance.services.signer.keyId,
    );
    await checkPage(w, 'docs');

    await page
      .getByRole('navigation', { name: 'Reference' })
      .getByRole('link', { name: 'Connect an agent' })
      .click();
    assert.equal(
      (await page.locator('[data-field="mcp-endpoint"]').textContent())?.trim(),
      `${web.t.url}/api/mcp`,
    );
    await checkPage(w, 'docs-connect');

    // Every route of the served OpenAPI document is on the API page.
    const doc = (await (await fetch(`${web.t.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    await page.getByRole('navigation', { name: 'Reference' }).getByRole('link', { name: 'HTTP API' }).click();
    const rendered = new Set(
      (await page.locator('td:first-child').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim()),
    );
    const expected = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.ok(expected.length > 100, `only ${expected.length} routes in the document`);
    assert.deepEqual(
      expected.filter((e) => !rendered.has(e)),
      [],
    );
    await checkPage(w, 'docs-api');

    // Every tool the MCP endpoint lists to a token holding every scope is in the catalogue, with its scopes.
    const person = await signUp(web.t.url, 'reader');
    const scopes = web.t.instance.services.config.scopesSupported.filter((s) => s !== 'svc.admin');
    const { token } = await issueToken(person, { label: 'all', scopes: [...scopes] });
    const client = await mcpClient(web.t.url, { bearer: token });
    const listed = (await client.listTools()).tools;
    await client.close();
    await page
      .getByRole('navigation', { name: 'Reference' })
      .getByRole('link', { name: 'MCP tools' })
      .click();
    for (const tool of listed) {
      const entry = page.locator(`[id="${tool.name}"]`);
      assert.equal(await entry.count(), 1, `${tool.name} is in the catalogue`);
    }
    const profileRead = page.locator('[id="svc.profile.read"]');
    assert.deepEqual(await profileRead.locator('[data-scope]').allTextContents(), ['svc.profile.read']);
    await checkPage(w, 'docs-tools');

    await page
      .getByRole('navigation', { name: 'Reference' })
      .getByRole('link', { name: 'Federation' })
      .click();
    await page.getByRole('link', { name: '/api/federation/manifest' }).click();
    const manifest = JSON.parse((await page.locator('body').textContent()) ?? '{}') as { keyId?: string };
    assert.equal(manifest.keyId, web.t.instance.services.signer.keyId);
    await page.goBack();
    await checkPage(w, 'docs-federation');
    await w.context.close();
  });
});
