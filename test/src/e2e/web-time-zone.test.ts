// A person chooses the time zone of their pages on the home page (docs/web.md#times). The choice is kept
// on their account (svc.account.set_time_zone): every page they see signed in, on any device, writes its
// times in that zone, and the page tells app.js to leave them so (html[data-zone-chosen]), whatever the
// browser's own zone. The list shows each zone's offset from UTC. "My browser's time zone" hands the
// choice back to each browser. A zone not in the list is refused in words and changes nothing.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { eventually } from '@tributary/test';
import type { Page } from 'playwright-core';
import { checkPage, PASSWORD, screenshots, signInInBrowser, webSuite } from './web-kit.js';

/**
 * The zones the home page's recent events are written in, once the events are there: they reach the
 * page after the sequencer has numbered them, so the page is loaded again until they have.
 */
const eventZones = (page: Page, url: string) =>
  eventually('times in the home page’s recent events', async () => {
    await page.goto(`${url}/home`);
    const zones = await page
      .locator('#events time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('data-zone') ?? ''));
    return zones.length > 0 ? zones : undefined;
  });

webSuite('choosing the time zone of the pages', (web) => {
  test('given a browser in Paris, when its person chooses Auckland on the home page, then the times stay in Auckland across pages until they choose the browser’s zone again', async () => {
    const w = await web.signedUp('zoe', { timezoneId: 'Europe/Paris' });
    const { page, context } = w;
    const shownZone = () => page.locator('[data-field="time-zone"]').innerText();
    const firstTimeZone = () => page.locator('#events time').first().getAttribute('data-zone');

    assert.deepEqual([...new Set(await eventZones(page, web.t.url))], ['Europe/Paris']);
    assert.equal(await shownZone(), 'Europe/Paris, your browser’s');

    await page.getByText('Change the time zone').click();
    const list = page.getByLabel('Show times in');
    // Each zone with its offset now (summer time moves some), by name, UTC first after the browser's.
    assert.match(
      (await list.locator('option[value="Pacific/Auckland"]').innerText()).trim(),
      /^Pacific\/Auckland \(UTC\+1[23]:00\)$/,
    );
    assert.match(
      (await list.locator('option[value="America/St_Johns"]').innerText()).trim(),
      /^America\/St Johns \(UTC-0[23]:30\)$/,
    );
    const values = await list
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
    assert.deepEqual(values.slice(0, 2), ['', 'UTC']);
    const named = values.slice(2);
    assert.deepEqual(named, [...named].sort());
    assert.equal(await list.inputValue(), '');

    await list.selectOption('Pacific/Auckland');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times are now shown in the time zone you chose').waitFor();
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose');
    assert.equal(await firstTimeZone(), 'Pacific/Auckland');
    assert.equal(await page.getByLabel('Show times in').inputValue(), 'Pacific/Auckland');
    await checkPage(w, 'home-time-zone-chosen');

    // app.js runs on every page: the chosen zone stays.
    for (const path of ['/access', '/home']) await page.goto(`${web.t.url}${path}`);
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose');
    assert.equal(await firstTimeZone(), 'Pacific/Auckland');

    // A zone no list offers (a forged form) is refused in words and changes nothing.
    await page.getByText('Change the time zone').click();
    await page.evaluate(
      `document.querySelector('select[name=zone] option[value="UTC"]').value = 'Mars/Olympus'`,
    );
    await page.getByLabel('Show times in').selectOption('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.locator('[data-error-code="account.time_zone_unknown"]').waitFor();
    await page.goto(`${web.t.url}/home`);
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose');

    await page.getByText('Change the time zone').click();
    await page.getByLabel('Show times in').selectOption('');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times now follow the time zone of the browser you use.').waitFor();
    await page.locator('#events time[data-zone="Europe/Paris"]').first().waitFor();
    assert.equal(await shownZone(), 'Europe/Paris, your browser’s');
    await context.close();
  });

  test('given a zone chosen on one device, when the person signs in on a second device in another zone, then its pages show times in the chosen zone', async () => {
    const first = await web.signedUp('yuki', { timezoneId: 'Europe/Paris' });
    await first.page.goto(`${web.t.url}/home`);
    await first.page.getByText('Change the time zone').click();
    await first.page.getByLabel('Show times in').selectOption('Asia/Tokyo');
    await first.page.getByRole('button', { name: 'Save time zone' }).click();
    await first.page.getByText('Times are now shown in the time zone you chose').waitFor();
    await first.context.close();

    // A fresh context: no cookie of the first, and a browser that says it is in New York.
    const second = await web.page({ timezoneId: 'America/New_York', desktop: false });
    const { page } = second;
    await signInInBrowser(page, web.t.url, 'yuki', PASSWORD);
    // Read after app.js has run (goto waits for the load event): it left the times in Tokyo, not New York.
    assert.deepEqual([...new Set(await eventZones(page, web.t.url))], ['Asia/Tokyo']);
    assert.equal(await page.locator('[data-field="time-zone"]').innerText(), 'Asia/Tokyo, as you chose');
    assert.equal(await page.locator('html').getAttribute('data-zone-chosen'), 'Asia/Tokyo');
    // The words agree with Tokyo's clock (UTC+9, no summer time) for the instant in the markup.
    const first_ = page.locator('#events time[data-zone]').first();
    const at = new Date((await first_.getAttribute('datetime'))!);
    const tokyo = new Date(at.getTime() + 9 * 3600_000);
    const hhmm = `${String(tokyo.getUTCHours()).padStart(2, '0')}:${String(tokyo.getUTCMinutes()).padStart(2, '0')}`;
    assert.ok((await first_.innerText()).includes(hhmm), `${await first_.innerText()} shows ${hhmm}`);
    await page.getByText('Change the time zone').click();
    const list = page.getByLabel('Show times in');
    assert.equal(await list.inputValue(), 'Asia/Tokyo');
    assert.equal((await list.locator('option:checked').innerText()).trim(), 'Asia/Tokyo (UTC+09:00)');
    await checkPage(second, 'home-time-zone-second-device');
    await second.context.close();
  });

  test('given a browser without JavaScript, when its person chooses São Paulo on the home page, then the form saves it to the account and the times are in it', async () => {
    const w = await web.signedUp('noa', { javaScriptEnabled: false, timezoneId: 'Europe/Paris' });
    const { page } = w;
    page.setDefaultTimeout(30_000);
    assert.deepEqual([...new Set(await eventZones(page, web.t.url))], ['']);
    // No script has told the server the browser's zone: UTC, and the page says so.
    assert.equal(
      await page.locator('[data-field="time-zone"]').innerText(),
      'UTC: your browser has not told us its time zone',
    );
    await page.getByText('Change the time zone').click();
    await page.getByLabel('Show times in').selectOption('America/Sao_Paulo');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times are now shown in the time zone you chose').waitFor();
    assert.equal(
      await page.locator('[data-field="time-zone"]').innerText(),
      'America/Sao Paulo, as you chose',
    );
    assert.deepEqual([...new Set(await eventZones(page, web.t.url))], ['America/Sao_Paulo']);
    // axe needs scripts; the page is only photographed here.
    await screenshots(page, 'home-time-zone-nojs');
    await w.context.close();
  });

  test('given a zone chosen in this browser before the account kept it, when the person saves a choice, then the account holds it and the old cookies go', async () => {
    const w = await web.signedUp('ines', { timezoneId: 'Europe/Paris' });
    const { page, context } = w;
    // What the home page's form used to leave in a browser: the zone, and the mark that it was chosen.
    await context.addCookies(
      ['tz=Pacific/Auckland', 'tz_chosen=1'].map((c) => {
        const [name, value] = c.split('=') as [string, string];
        return { name, value, url: web.t.url };
      }),
    );
    await page.goto(`${web.t.url}/home`);
    const shownZone = () => page.locator('[data-field="time-zone"]').innerText();
    assert.equal(await shownZone(), 'Pacific/Auckland, as you chose in this browser');
    assert.equal(await page.getByLabel('Show times in').inputValue(), 'Pacific/Auckland');

    await page.getByText('Change the time zone').click();
    await page.getByLabel('Show times in').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times are now shown in the time zone you chose').waitFor();
    assert.equal(await shownZone(), 'Asia/Tokyo, as you chose');
    const names = (await context.cookies()).map((c) => c.name);
    assert.equal(names.includes('tz_chosen'), false, names.join(', '));
    const account = await web.t.instance.services.accounts.read.accountByIdentifier('ines');
    assert.equal(account?.timeZone, 'Asia/Tokyo');
    await context.close();
  });
});
