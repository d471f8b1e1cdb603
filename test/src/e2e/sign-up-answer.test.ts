// The first sign-up changes the instance: its account becomes the operator, and on a person instance
// it becomes the instance's person (the primary agent takes its name). The sign-up answer says so, and
// MCP's initialize names the instance as it is named now.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { issueToken, mcpClient, password, type Person } from './mcp-helpers.js';

/** The name MCP's initialize gives the instance (serverInfo.title), as the official SDK client reads it. */
async function mcpInstanceName(url: string, person: Person): Promise<string | undefined> {
  const { token } = await issueToken(person, { scopes: ['svc.profile.read'] });
  const client = await mcpClient(url, { bearer: token });
  try {
    return client.getServerVersion()?.title;
  } finally {
    await client.close();
  }
}

async function signUpAs(url: string, body: Record<string, string>) {
  const b = browser(url);
  const r = await b.post('/api/auth/signup', { password, ...body });
  assert.equal(r.status, 201, r.text);
  return { r, person: { browser: b, accountId: r.json.accountId, agentId: r.json.agentId } as Person };
}

describe('what the first sign-up did, said', () => {
  const instances: TestInstance[] = [];
  const start = async (role: string, name: string) => {
    const i = await startTestInstance({ env: { INSTANCE_ROLE: role, INSTANCE_NAME: name } });
    instances.push(i);
    return i;
  };
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.destroy()));
  });

  describe('on a person instance', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await start('person', 'Fresh person instance');
    });

    test('given the first sign-up, then the answer says it is the operator and the instance’s person, and initialize names the instance after them', async () => {
      const primaryAgentId = (await instance.instance.services.instance.read.get())!.primaryAgentId;
      const { r, person: ada } = await signUpAs(instance.url, { handle: 'ada', name: 'Ada Lovelace' });
      assert.equal(r.json.operator, true);
      assert.equal(r.json.instancePerson, true);
      assert.equal(r.json.agentId, primaryAgentId);
      const me = await ada.browser.get('/api/auth/me');
      assert.equal(me.json.isOperator, true, 'the answer agrees with /api/auth/me');
      assert.equal(me.json.agent.name, 'Ada Lovelace');

      assert.equal(await mcpInstanceName(instance.url, ada), 'Ada Lovelace');
      // Renamed later: initialize follows.
      const renamed = await ada.browser.post('/api/ops/svc.profile.update', { name: 'Ada King' });
      assert.equal(renamed.status, 201, renamed.text);
      assert.equal(await mcpInstanceName(instance.url, ada), 'Ada King');

      const { r: second } = await signUpAs(instance.url, { handle: 'ben' });
      assert.equal(second.json.operator, false);
      assert.equal(second.json.instancePerson, false);
      assert.notEqual(second.json.agentId, primaryAgentId);
    });
  });

  describe('on a group instance', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await start('group', 'Riverside Allotments');
    });

    test('given the first sign-up, then the answer says it is the operator but not the instance’s person; initialize names the group as it is named now', async () => {
      const primaryAgentId = (await instance.instance.services.instance.read.get())!.primaryAgentId;
      const { r, person: ann } = await signUpAs(instance.url, { email: 'ann@example.org', name: 'Ann' });
      assert.equal(r.json.operator, true);
      assert.equal(r.json.instancePerson, false);
      assert.notEqual(r.json.agentId, primaryAgentId);
      assert.equal(await mcpInstanceName(instance.url, ann), 'Riverside Allotments');

      const renamed = await ann.browser.post('/api/ops/svc.profile.update', {
        targetAgentId: primaryAgentId,
        name: 'Riverside Gardens',
      });
      assert.equal(renamed.status, 201, renamed.text);
      assert.equal(await mcpInstanceName(instance.url, ann), 'Riverside Gardens');

      const { r: second } = await signUpAs(instance.url, { handle: 'bob' });
      assert.deepEqual([second.json.operator, second.json.instancePerson], [false, false]);
    });
  });
});
