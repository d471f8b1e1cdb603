// A read never writes: every catalogue operation classed as a read (`kind: 'query'`) is run over REST
// (POST /api/ops/<name>) for a person who has just signed up and has nothing yet, and the log must hold
// exactly the events it held before. The assistant may run such a read on its own, after reading hostile
// content, so a read that writes would be a write nobody confirmed.
import { allOperations, jsonSchemaOf, type Operation } from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp } from './mcp-helpers.js';
import { sample, type Schema } from './schema-sample.js';

const inputOf = (op: Operation<unknown, unknown>) => sample(jsonSchemaOf(op.input) as Schema);

const reads = allOperations().filter((op) => op.kind === 'query' && !op.public);

describe('a read never writes', () => {
  let instance: TestInstance;
  const eventCount = async () =>
    Number((await instance.instance.pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Reads' } });
    // The first person to sign up may be the instance's operator: reads are run by people who are not.
    await signUp(instance.url, 'opal');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a fresh account each, when every operation classed as a read runs over REST, then the log gains no event', async () => {
    assert.ok(reads.length > 20, `only ${reads.length} reads found: the enumeration is broken`);
    const wrote: string[] = [];
    const answered = new Map<string, number>();
    for (const [i, op] of reads.entries()) {
      const person = await signUp(instance.url, `reader${i}`);
      const before = await eventCount();
      const r = await person.browser.post(`/api/ops/${op.name}`, inputOf(op));
      answered.set(op.name, r.status);
      const after = await eventCount();
      if (after !== before) wrote.push(`${op.name} (${r.status}): ${after - before} events`);
    }
    assert.deepEqual(wrote, [], `reads that wrote:\n${wrote.join('\n')}`);
    // The reads that act on what a fresh account has by default really ran (and found its default site).
    for (const name of ['svc.builder.list_sites', 'svc.builder.read_site', 'svc.builder.read_draft'])
      assert.equal(answered.get(name), 200, `${name} answered ${answered.get(name)}`);
  });

  test('given a person, when they ask the assistant to run the signing of a traveller presentation unconfirmed, then it is refused as a write and nothing is written', async () => {
    const person = await signUp(instance.url, 'traveller');
    const before = await eventCount();
    const r = await person.browser.post('/api/autobot/settings', {
      autoRunReadTools: ['svc.spatial.present_traveller'],
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, 'assistant.auto_run_write_tool');
    assert.equal(await eventCount(), before);
  });
});
