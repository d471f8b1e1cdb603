// The account pages and the home page in a real browser: sign up through the form, create, rename and
// delete a persona, sign out and back in; each step checked on the instance itself (its read models and
// log), every page through axe and screenshotted at phone and desktop width. And the same core flow
// with JavaScript off: forms post and redirect.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, PASSWORD, signInInBrowser, signUpInBrowser, webSuite } from './web-kit.js';

webSuite('account and home pages in a real browser', (web) => {
  test('given a new visitor, when they sign up and manage a persona on the home page, then the instance holds exactly what they did', async () => {
    const w = await web.page();
    const { page } = w;
    await page.goto(`${web.t.url}/`);
    await checkPage(w, 'landing');
    await page.goto(`${web.t.url}/signup`);
    await checkPage(w, 'signup');

    // A bad password is refused with the reason under the field, and nothing is written.
    await page.getByLabel('Handle').fill('ada');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please correct the fields marked below.').waitFor();
    assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    await checkPage(w, 'signup-error');
    assert.equal(
      (await web.t.instance.services.instance.read.get())?.controllers.length,
      0,
      'no account yet',
    );

    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada Lovelace' });
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    const instance = await web.t.instance.services.instance.read.get();
    assert.equal(instance?.controllers.length, 1, 'the first account is the operator');
    const account = await web.t.instance.services.accounts.read.accountById(instance!.controllers[0]!);
    assert.equal(account?.handle, 'ada');
    await checkPage(w, 'home-empty');

    // Create a persona.
    await page.getByLabel('Name', { exact: true }).fill('Ada the Writer');
    await page.getByLabel('Handle (optional)').fill('ada_writes');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();
    let personas = await web.t.instance.services.agents.read.personasOf(account!.agentId);
    assert.deepEqual(
      personas.map((p) => [p.name, p.handle]),
      [['Ada the Writer', 'ada_writes']],
    );
    const personaId = personas[0]!.agentId;

    // A taken handle is refused with its code shown, and no second persona appears.
    await page.getByLabel('Name', { exact: true }).fill('Copy');
    await page.getByLabel('Handle (optional)').fill('ada_writes');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.locator('[data-error-code="agent.handle_taken"]').waitFor();
    assert.equal((await web.t.instance.services.agents.read.personasOf(account!.agentId)).length, 1);
    await checkPage(w, 'home-error');

    // Rename it.
    await page.locator('summary', { hasText: 'Rename Ada the Writer' }).click();
    await page.getByLabel('New name for Ada the Writer').fill('Ada the Novelist');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Identity renamed.').waitFor();
    assert.equal((await web.t.instance.services.agents.read.agent(personaId))?.name, 'Ada the Novelist');
    await page.locator('#personas').getByRole('cell', { name: 'Ada the Novelist @ada_writes' }).waitFor();
    // The card says "identities" throughout; "persona" is the API's word, not the page's.
    assert.doesNotMatch(await page.locator('#personas').innerText(), /persona/i);
    // The recent events show what was done, from the log, in words; the event's technical name only
    // once asked for.
    await page.locator('#events').getByText('A name or profile was changed').first().waitFor();
    const code = page.locator('#events code[data-event-type]', { hasText: 'agent.profile_updated' }).first();
    assert.equal(await code.isVisible(), false, 'no event code in plain view');
    await page.locator('#events summary', { hasText: 'Show the technical name of each event' }).click();
    await code.waitFor();
    await checkPage(w, 'home');

    // Delete it (the password is asked again; a wrong one deletes nothing).
    await page.locator('summary', { hasText: 'Delete Ada the Novelist' }).click();
    await page.getByLabel('Your password, to confirm').fill('not my password');
    await page.getByRole('button', { name: 'Delete Ada the Novelist' }).click();
    await page.locator('[data-error-code]').first().waitFor();
    assert.equal((await web.t.instance.services.agents.read.agent(personaId))?.deletedAt, null);
    await page.locator('summary', { hasText: 'Delete Ada the Novelist' }).click();
    await page.getByLabel('Your password, to confirm').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete Ada the Novelist' }).click();
    await page.getByText('Identity deleted.').waitFor();
    const all = await web.t.instance.services.agents.read.personasOf(account!.agentId, {
      includeDeleted: true,
    });
    assert.ok(all.find((p) => p.agentId === personaId)?.deletedAt, 'deleted in the read model');
    personas = await web.t.instance.services.agents.read.personasOf(account!.agentId);
    assert.equal(personas.length, 0);

    // Sign out ends the session on the instance.
    const sessionsBefore = await web.t.instance.services.tokens.read.sessionsOf(account!.accountId);
    assert.equal(sessionsBefore.filter((s) => !s.endedAt).length, 1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    const sessionsAfter = await web.t.instance.services.tokens.read.sessionsOf(account!.accountId);
    assert.equal(sessionsAfter.filter((s) => !s.endedAt).length, 0);
    await checkPage(w, 'signin');

    // The guard: /home without a session goes to sign-in and comes back after it.
    await page.goto(`${web.t.url}/home`);
    assert.match(page.url(), /\/signin\?return_to=%2Fhome$/);
    await signInInBrowser(page, web.t.url, 'ada');
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    await w.context.close();
  });

  test('given JavaScript is off, when a person signs up and creates a persona, then the forms alone do it', async () => {
    const w = await web.signedUp('nojs', { javaScriptEnabled: false, desktop: false });
    await w.page.getByLabel('Name', { exact: true }).fill('Plain');
    await w.page.getByRole('button', { name: 'Create identity' }).click();
    await w.page.getByText('Identity created.').waitFor();
    const me = await w.page.locator('#me code').first().textContent();
    const personas = await web.t.instance.services.agents.read.personasOf(me!.trim());
    assert.deepEqual(
      personas.map((p) => p.name),
      ['Plain'],
    );
    await w.context.close();
  });

  test('given a form post without the session’s CSRF token or from another origin, then it is refused and writes nothing', async () => {
    const w = await web.signedUp('eve');
    const me = (await w.page.locator('#me code').first().textContent())!.trim();
    const post = (body: string, origin = web.t.url) =>
      w.page.request.post(`${web.t.url}/home/personas`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        data: body,
        maxRedirects: 0,
      });
    assert.equal((await post('name=Forged')).status(), 403);
    assert.equal((await post('name=Forged&csrf=wrong')).status(), 403);
    const csrf = await w.page
      .locator('form[action="/home/personas"] input[name="csrf"]')
      .getAttribute('value');
    assert.equal((await post(`name=Forged&csrf=${csrf}`, 'http://evil.example')).status(), 403);
    assert.equal((await web.t.instance.services.agents.read.personasOf(me)).length, 0);
    // With the token and our origin, the same post works.
    assert.equal((await post(`name=Real&csrf=${csrf}`)).status(), 303);
    assert.equal((await web.t.instance.services.agents.read.personasOf(me)).length, 1);
    await w.context.close();
  });
});
