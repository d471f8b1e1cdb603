// Agent access in a real browser: a person issues a token bound to a persona with one scope, sees it
// once, uses it at /api/mcp with the MCP SDK client (it acts as the persona, and a tool outside its
// scope is refused), revokes it on the page, and the same token is then refused at /api/mcp. The
// connected-apps page in the same look. Every page through axe and screenshotted.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { actsAs, errorCodeOf, mcpClient, refused } from './mcp-helpers.js';
import { checkPage, screenshots, signUpInBrowser, webSuite } from './web-kit.js';

webSuite('agent access pages in a real browser', (web) => {
  test('given a person with a persona, when they issue a scoped token for it and later revoke it, then the token works as the persona only until revoked', async () => {
    const w = await web.signedUp('grace', { name: 'Grace Hopper' });
    const { page } = w;
    await page.getByLabel('Name', { exact: true }).fill('Compiler Bot');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();
    const me = (await page.locator('#me code').first().textContent())!.trim();
    const persona = (await web.t.instance.services.agents.read.personasOf(me))[0]!;

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agent access' }).click();
    await page.getByRole('heading', { name: 'Agent access', level: 1 }).waitFor();
    // The page calls them identities, as the home page does; the API's word is not in what a person reads.
    await page.getByText('act for you or one of your identities').waitFor();
    await page.getByText('A token bound to an identity acts only as that identity.').waitFor();
    await page.getByText('you, your identities, their profiles, tokens and history').waitFor();
    assert.doesNotMatch(await page.locator('body').innerText(), /persona/i);
    await checkPage(w, 'access-empty');

    // No label: refused with the reason under the field, and no token is written.
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.getByText('Please correct the fields marked below.').waitFor();
    const account = (await web.t.instance.services.instance.read.get())!.controllers[0]!;
    assert.equal((await web.t.instance.services.tokens.read.tokensOf(account)).length, 0);

    // A label but nothing it may do: refused (a token that may do nothing is never minted), nothing written.
    await page.getByLabel('What it is for').fill('profile reader');
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('[data-error-code="token.scopes_required"]').waitFor();
    assert.equal((await web.t.instance.services.tokens.read.tokensOf(account)).length, 0);
    await checkPage(w, 'access-no-scopes');

    await page.getByLabel('Acts as').selectOption({ label: 'Compiler Bot' });
    await page.getByRole('checkbox', { name: /svc\.profile\.read/ }).check();
    await page.getByLabel('Expires', { exact: true }).selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Issue token' }).click();
    // Post, redirect, show once: the page that shows it is a GET.
    await page.waitForURL(/\/access\?notice=token-issued/);
    const secret = page.locator('[data-secret]');
    await secret.waitFor();
    const token = (await secret.textContent())!.trim();
    assert.ok(token.length > 40, 'the token is shown');
    // Copy-ready configuration for common clients, each with the endpoint and this token.
    const cursor = JSON.parse((await page.locator('#config-cursor').textContent())!) as {
      mcpServers: Record<string, { url: string; headers: { Authorization: string } }>;
    };
    const [entry] = Object.values(cursor.mcpServers);
    assert.equal(entry?.url, `${web.t.url}/api/mcp`);
    assert.equal(entry?.headers.Authorization, `Bearer ${token}`);
    await page.getByText('VS Code (.vscode/mcp.json)').click();
    await checkPage(w, 'access-issued');

    // Reloading shows the token no more and mints nothing.
    await page.reload();
    await page.getByText('was shown once').waitFor();
    assert.equal(await page.locator('[data-secret]').count(), 0);
    assert.ok(!(await page.content()).includes(token), 'the token is not on the reloaded page');
    assert.equal(
      (await web.t.instance.services.tokens.read.tokensOf(account)).length,
      1,
      'the reload minted nothing',
    );
    await checkPage(w, 'access-reloaded');

    // On the instance: one active token for the persona with exactly that scope.
    const [record] = await web.t.instance.services.tokens.read.tokensOf(account);
    assert.equal(record?.label, 'profile reader');
    assert.equal(record?.personaId, persona.agentId);
    assert.deepEqual(record?.scopes, ['svc.profile.read']);
    assert.equal(record?.revokedAt, null);
    const days = (new Date(record!.expiresAt).getTime() - new Date(record!.createdAt).getTime()) / 86_400_000;
    assert.ok(Math.abs(days - 7) < 0.01, `expires in 7 days, not ${days}`);

    // It works at /api/mcp, as the persona, and only within its scope.
    assert.equal(await actsAs(web.t.url, token), persona.agentId);
    const client = await mcpClient(web.t.url, { bearer: token, userAgent: 'laptop-agent/1.2' });
    const outside = await client.callTool({ name: 'svc.agent.create_persona', arguments: { name: 'x' } });
    assert.equal(errorCodeOf(outside), 'auth.insufficient_scope');
    await client.close();

    // Shown once: the list never shows it again, and says when it was last used.
    await page.goto(`${web.t.url}/access`);
    assert.equal(await page.locator('[data-secret]').count(), 0);
    assert.ok(!(await page.content()).includes(token), 'the token is not on the page any more');
    const row = page.getByRole('row', { name: /profile reader/ });
    await row.getByText('Compiler Bot').waitFor();
    assert.ok(!(await row.textContent())!.includes('never'), 'last use is shown');
    await row.getByText('from laptop-agent/1.2').waitFor(); // and from which client
    await checkPage(w, 'access');

    // Revoke it (the confirm dialog is accepted by the kit).
    await row.getByRole('button', { name: 'Revoke profile reader' }).click();
    await page.getByText('Token revoked').waitFor();
    assert.ok(
      (await web.t.instance.services.tokens.read.tokensOf(account))[0]?.revokedAt,
      'revoked on the instance',
    );
    const refusal = await refused(mcpClient(web.t.url, { bearer: token }));
    assert.equal(refusal.status, 401);
    await page
      .getByRole('row', { name: /profile reader/ })
      .getByText('revoked')
      .waitFor();

    // The connected-apps page, in the same look, lists the token as revoked.
    await page.goto(`${web.t.url}/mcp/apps`);
    await page.getByRole('heading', { name: 'Connected apps', level: 1 }).waitFor();
    await page.locator('#tokens').getByText('revoked', { exact: false }).first().waitFor();
    await checkPage(w, 'connected-apps');
    await w.context.close();
  });

  test('given a preset and an expiry date, when a person issues a token, then it carries exactly the preset scopes until the end of that day', async () => {
    // Without scripts the server expands the preset; with them the boxes follow the preset too.
    const w = await web.page({ javaScriptEnabled: false });
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await signUpInBrowser(page, web.t.url, 'katherine', { name: 'Katherine Johnson' });
    const account = (await web.t.instance.services.accounts.read.accountByIdentifier('katherine'))!.accountId;
    await page.goto(`${web.t.url}/access`);
    await page.getByLabel('What it is for').fill('site robot');
    await page.getByRole('radio', { name: /^Manage my site/ }).check();
    await page.getByLabel('Expires', { exact: true }).selectOption({ label: 'Until a date I choose' });
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel(/^Expiry date/).fill(day);
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('[data-secret]').waitFor();
    // Without scripts nothing could copy: no Copy button shows.
    assert.equal(await page.locator('button[data-copy]').first().isVisible(), false);
    // axe needs scripts; the page is only photographed here.
    await screenshots(page, 'access-preset');
    const [record] = await web.t.instance.services.tokens.read.tokensOf(account);
    assert.deepEqual(
      [...record!.scopes].sort(),
      [
        'svc.agent.read',
        'svc.builder.read',
        'svc.builder.write',
        'svc.instance.read',
        'svc.manifest.read',
        'svc.manifest.write',
        'svc.profile.read',
        'svc.spatial.read',
        'svc.spatial.write',
      ].filter((s) => web.t.instance.services.config.scopesSupported.includes(s)),
    );
    // The end of that day (UTC); the lifetime is counted in whole seconds from when the form was posted.
    const late = Date.parse(`${day}T23:59:59Z`) - Date.parse(record!.expiresAt);
    assert.ok(late >= 0 && late <= 2000, `expires at ${record!.expiresAt}`);
    await w.context.close();

    const js = await web.signedUp('dorothy', { name: 'Dorothy Vaughan' });
    await js.page.goto(`${web.t.url}/access`);
    await js.page.getByRole('radio', { name: /^Read only/ }).check();
    const ticked = await js.page
      .locator('input[name="scopes"]:checked')
      .evaluateAll((els) => els.map((e) => e.getAttribute('value') ?? ''));
    assert.ok(ticked.length > 0 && ticked.every((s) => s.endsWith('.read')), ticked.join(' '));
    assert.ok(!ticked.includes('svc.admin'), 'a member is never offered svc.admin');
    await js.context.close();
  });

  test('given a token form with nothing it may do, when it is sent, then the page brings the reader to the error in the form’s words, and at phone width every token’s Revoke is in sight', async () => {
    const w = await web.signedUp('mary', { name: 'Mary Jackson' });
    const { page } = w;
    const account = (await web.t.instance.services.accounts.read.accountByIdentifier('mary'))!.accountId;
    await page.goto(`${web.t.url}/access`);
    await page.getByLabel('What it is for').fill('nothing ticked');
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('[data-error-code="token.scopes_required"]').waitFor();
    assert.equal((await web.t.instance.services.tokens.read.tokensOf(account)).length, 0, 'nothing written');
    // Focus is on the error summary, and the page is scrolled to it, not left at the top.
    assert.equal(await page.locator('#errors:focus').count(), 1, 'the error summary has focus');
    assert.ok(new URL(page.url()).hash === '#errors', page.url());
    const summary = (await page.locator('#errors').boundingBox())!;
    const height = page.viewportSize()!.height;
    assert.ok(summary.y >= 0 && summary.y < height, `the error summary is on screen (y=${summary.y})`);
    // The field's message uses the form's words and comes before the long list, not after it.
    const message = page.locator('#scopes').getByText('Choose at least one thing it may do, or a preset.');
    await message.waitFor();
    const firstGroup = (await page.locator('#scopes .scope-group').first().boundingBox())!;
    assert.ok((await message.boundingBox())!.y < firstGroup.y, 'the message is above the permission groups');
    await checkPage(w, 'access-no-scopes-focus');

    // Issued: what it may do, then its expiry as a sentence of its own.
    await page.getByRole('checkbox', { name: /svc\.profile\.read/ }).check();
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('[data-secret]').waitFor();
    await page.getByText(/^It can .+\. It works until \S/).waitFor();

    // At 390 px the tokens list needs no sideways scrolling: Revoke is within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${web.t.url}/access`);
    const wrap = page.locator('#tokens .table-wrap');
    assert.ok(
      await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth),
      'the table does not scroll sideways',
    );
    const revoke = page.getByRole('button', { name: 'Revoke nothing ticked' });
    const box = (await revoke.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `Revoke at x=${box.x}, width ${box.width}`);
    await checkPage(w, 'access-tokens-phone');
    await w.context.close();
  });
});
