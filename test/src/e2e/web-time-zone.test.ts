// A person chooses the time zone of their pages on the home page (docs/web.md#times): the server sets the
// same `tz` cookie app.js sets, marked as chosen, so app.js leaves it; every time then reads in that zone,
// page after page, whatever the browser's own zone. "My browser's time zone" hands the choice back to
// app.js. A zone Intl does not know is refused in words and changes nothing.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, webSuite } from './web-kit.js';

webSuite('choosing the time zone of the pages', (web) => {
  test('given a browser in Paris, when its person chooses Auckland on the home page, then the times stay in Auckland across pages until they choose the browser’s zone again', async () => {
    const w = await web.signedUp('zoe', { timezoneId: 'Europe/Paris' });
    const { page, context } = w;
    const zoneCookie = async () => (await context.cookies()).find((c) => c.name === 'tz')?.value;
    const shownZone = () => page.locator('[data-field="time-zone"]').innerText();

    await page.goto(`${web.t.url}/home`);
    assert.equal(await shownZone(), 'Europe/Paris, your browser’s');
    assert.equal(await page.locator('#events time').first().getAttribute('data-zone'), 'Europe/Paris');

    await page.getByText('Change the time zone').click();
    await page.getByLabel('Show times in').selectOption('Pacific/Auckland');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times are now shown in the time zone you chose').waitFor();
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose');
    assert.equal(await page.locator('#events time').first().getAttribute('data-zone'), 'Pacific/Auckland');
    await checkPage(w, 'home-time-zone-chosen');

    // app.js runs on every page: the chosen zone stays.
    for (const path of ['/access', '/home']) await page.goto(`${web.t.url}${path}`);
    assert.equal(await zoneCookie(), 'Pacific/Auckland');
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose');
    assert.equal(await page.locator('#events time').first().getAttribute('data-zone'), 'Pacific/Auckland');

    // A zone no list offers (a forged form) is refused in words and changes nothing.
    await page.getByText('Change the time zone').click();
    await page.evaluate(
      `document.querySelector('select[name=zone] option[value="UTC"]').value = 'Mars/Olympus'`,
    );
    await page.getByLabel('Show times in').selectOption('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.locator('[data-error-code="input.invalid"]').waitFor();
    assert.equal(await zoneCookie(), 'Pacific/Auckland');

    await page.goto(`${web.t.url}/home`);
    await page.getByText('Change the time zone').click();
    await page.getByLabel('Show times in').selectOption('');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times now follow your browser’s time zone.').waitFor();
    // The page after the choice came without a zone; app.js has set the browser's and rewritten its times.
    await page.locator('#events time[data-zone="Europe/Paris"]').first().waitFor();
    assert.equal(await zoneCookie(), 'Europe/Paris');
    await page.goto(`${web.t.url}/home`);
    assert.equal(await shownZone(), 'Europe/Paris, your browser’s');
    await context.close();
  });
});
