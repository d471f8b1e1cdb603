// The time zone of a person's pages is kept on their account (svc.account.set_time_zone,
// docs/web.md#times), through its real surfaces: the catalogue's REST route, the MCP tool and
// /api/auth/me. A zone not in the list is problem+json with its code and writes nothing; one person's
// choice is theirs alone.
import { accountStream } from '@tributary/domain';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, structured } from './mcp-helpers.js';

describe('the time zone kept on the account, over HTTP and MCP', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance();
  });
  afterAll(async () => {
    await instance?.destroy();
  });
  const accountEvents = async (accountId: string) =>
    (await instance.instance.services.store.readStream(accountStream(accountId))).length;

  test('given a person, when they choose a zone over REST, then /api/auth/me says it; the same again writes nothing; null gives it back', async () => {
    const ada = await signUp(instance.url, 'ada_tz');
    assert.equal((await ada.browser.get('/api/auth/me')).json.timeZone, null);

    const set = await ada.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'Europe/Paris' });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(set.json.result, { timeZone: 'Europe/Paris' });
    assert.deepEqual(
      set.json.events.map((e: { type: string }) => e.type),
      ['account.time_zone_set'],
    );
    assert.equal((await ada.browser.get('/api/auth/me')).json.timeZone, 'Europe/Paris');

    const again = await ada.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'Europe/Paris' });
    assert.equal(again.status, 200, again.text);

    const utc = await ada.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'UTC' });
    assert.equal(utc.status, 201, utc.text);
    assert.equal((await ada.browser.get('/api/auth/me')).json.timeZone, 'UTC');

    const back = await ada.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: null });
    assert.equal(back.status, 201, back.text);
    assert.equal((await ada.browser.get('/api/auth/me')).json.timeZone, null);
  });

  test('given a person with a zone, when they name one not in the list, then 400 problem+json account.time_zone_unknown and nothing changes', async () => {
    const bo = await signUp(instance.url, 'bo_tz');
    assert.equal(
      (await bo.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'Asia/Tokyo' })).status,
      201,
    );
    const before = await accountEvents(bo.accountId);
    for (const timeZone of ['Mars/Olympus', 'US/Pacific', 'asia/tokyo', '']) {
      const r = await bo.browser.post('/api/ops/svc.account.set_time_zone', { timeZone });
      assert.equal(r.status, 400, `${timeZone}: ${r.text}`);
      assert.match(r.headers.get('content-type')!, /application\/problem\+json/);
      assert.equal(r.json.code, 'account.time_zone_unknown');
    }
    const malformed = await bo.browser.post('/api/ops/svc.account.set_time_zone', { zone: 'Asia/Tokyo' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.code, 'input.invalid');
    assert.equal(await accountEvents(bo.accountId), before);
    assert.equal((await bo.browser.get('/api/auth/me')).json.timeZone, 'Asia/Tokyo');
  });

  test('given two people, when each chooses a zone, then neither sees nor changes the other’s', async () => {
    const cy = await signUp(instance.url, 'cy_tz');
    const di = await signUp(instance.url, 'di_tz');
    assert.equal(
      (await cy.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'America/Chicago' })).status,
      201,
    );
    assert.equal((await di.browser.get('/api/auth/me')).json.timeZone, null);
    const diBefore = await accountEvents(di.accountId);
    const cyBefore = await accountEvents(cy.accountId);

    // The operation takes no account to act on: whatever di sends changes di's own zone only.
    const foreign = await di.browser.post('/api/ops/svc.account.set_time_zone', {
      timeZone: 'Australia/Perth',
      accountId: cy.accountId,
    });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.json.code, 'input.invalid');
    assert.equal(await accountEvents(cy.accountId), cyBefore);

    assert.equal(
      (await di.browser.post('/api/ops/svc.account.set_time_zone', { timeZone: 'Australia/Perth' })).status,
      201,
    );
    assert.equal((await cy.browser.get('/api/auth/me')).json.timeZone, 'America/Chicago');
    assert.equal((await di.browser.get('/api/auth/me')).json.timeZone, 'Australia/Perth');
    assert.equal(await accountEvents(cy.accountId), cyBefore);
    assert.equal(await accountEvents(di.accountId), diBefore + 1);
  });

  test('given a token with svc.profile.write, when its agent calls the MCP tool, then the person’s account holds the zone; a bad one is the same code', async () => {
    const ed = await signUp(instance.url, 'ed_tz');
    const token = await issueToken(ed, { scopes: ['svc.profile.write'] });
    const mcp = await mcpClient(instance.url, { bearer: token.token });
    try {
      const tools = await mcp.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'svc.account.set_time_zone'));
      const out = structured(
        await mcp.callTool({ name: 'svc.account.set_time_zone', arguments: { timeZone: 'Africa/Nairobi' } }),
      );
      assert.equal(out.timeZone, 'Africa/Nairobi');
      assert.equal((await ed.browser.get('/api/auth/me')).json.timeZone, 'Africa/Nairobi');
      const refused = await mcp.callTool({
        name: 'svc.account.set_time_zone',
        arguments: { timeZone: 'Atlantis/Capital' },
      });
      assert.equal(errorCodeOf(refused), 'account.time_zone_unknown');
      assert.equal((await ed.browser.get('/api/auth/me')).json.timeZone, 'Africa/Nairobi');
    } finally {
      await mcp.close();
    }
  });
});
