// Concurrent first sign-ups: one becomes the operator (on a person instance, the instance's person too),
// every other becomes an ordinary account. None is a 500 or a 409, none is half-written.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';
const RACERS = 6;

describe.each(['person', 'group'])('concurrent first sign-ups on a %s instance', (role) => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: role, INSTANCE_NAME: 'Raced' } });
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given several sign-ups at once on a fresh instance, then each gets an account, exactly one becomes the operator (the person on a person instance), and each can sign in', async () => {
    const primaryAgentId = (await instance.instance.services.instance.read.get())!.primaryAgentId;
    const handles = Array.from({ length: RACERS }, (_, i) => `racer${i}`);
    const answers = await Promise.all(
      handles.map((handle) => browser(instance.url).post('/api/auth/signup', { handle, password })),
    );
    for (const [i, r] of answers.entries()) assert.equal(r.status, 201, `${handles[i]}: ${r.text}`);
    const operators = answers.filter((r) => r.json.operator === true);
    assert.equal(operators.length, 1, 'one operator');
    const people = answers.filter((r) => r.json.instancePerson === true);
    if (role === 'person') {
      assert.deepEqual(people, operators, 'the operator is the instance’s person');
      assert.equal(people[0]!.json.agentId, primaryAgentId);
    } else assert.equal(people.length, 0);
    assert.equal(new Set(answers.map((r) => r.json.agentId)).size, RACERS, 'an agent each');
    assert.ok(!answers.some((r) => r.json.agentId === primaryAgentId && r.json.instancePerson !== true));

    const instanceNow = (await instance.instance.services.instance.read.get())!;
    assert.deepEqual(instanceNow.controllers, [operators[0]!.json.accountId]);
    for (const handle of handles) {
      const signedIn = await browser(instance.url).post('/api/auth/signin', { identifier: handle, password });
      assert.equal(signedIn.status, 200, `${handle}: ${signedIn.text}`);
    }
  });
});
