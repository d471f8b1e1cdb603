// Commands start from the stream states earlier commands folded and read only what the streams gained
// since (services/src/pipeline/stream-state-cache.ts). What another process appended must never be
// missed: here a second set of services with a cache of its own stands for that process.
import { startTestInstance, type TestInstance } from '@tributary/test';
import {
  createStreamStateCache,
  execute,
  getOperation,
  signUp,
  type Principal,
  type Services,
} from '@tributary/services';
import { agentStream } from '@tributary/domain';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

describe('held stream states', () => {
  let node: TestInstance;
  let here: Services;
  let elsewhere: Services;
  let principal: Principal;
  const update = getOperation('svc.profile.update')!;
  const setBio = async (services: Services, bio: string) =>
    (await execute(services, update, { bio }, principal, 'http')).commit?.events.length ?? 0;

  beforeAll(async () => {
    node = await startTestInstance();
    here = node.instance.services;
    elsewhere = { ...here, streamStates: createStreamStateCache() };
    const { result } = await execute(
      here,
      signUp,
      { handle: `held${Date.now().toString(36)}`, password: 'correct horse battery staple', name: 'Held' },
      { kind: 'anonymous' },
      'http',
    );
    principal = {
      kind: 'session',
      sessionId: result.session.sessionId,
      accountId: result.accountId,
      agentId: result.agentId,
    };
  });
  afterAll(async () => {
    await node?.destroy();
  });

  test('given a state held here, when another process changes the stream, then the next command here starts from the change', async () => {
    assert.equal(await setBio(here, 'keeps bees'), 1);
    const held = here.streamStates!.get(agentStream(principal.kind === 'session' ? principal.agentId : ''));
    assert.ok(held, 'the command left its folded state');

    assert.equal(await setBio(elsewhere, 'mends nets'), 1);
    // Here the held bio is still "keeps bees"; only the events past the held version say otherwise.
    assert.equal(await setBio(here, 'keeps bees'), 1, 'the update was taken for a no-op');
    assert.equal(await setBio(here, 'keeps bees'), 0, 'the same bio again changes nothing');

    const agent = await here.agents.read.agent(principal.kind === 'session' ? principal.agentId : '');
    assert.equal(agent?.bio, 'keeps bees');
    const stream = await here.store.readStream(agentStream(agent!.agentId));
    assert.deepEqual(
      stream.flatMap((e) =>
        e.type === 'agent.profile_updated' && 'bio' in (e.data as object)
          ? [(e.data as { bio: string }).bio]
          : [],
      ),
      ['keeps bees', 'mends nets', 'keeps bees'],
    );
  });

  test('given a stream of many events, when commands run one after another, then each reads only the events it has not folded', async () => {
    const agentId = principal.kind === 'session' ? principal.agentId : '';
    for (let i = 0; i < 20; i++) assert.equal(await setBio(here, `update ${i}`), 1);
    // A command holds the state it read (its own event comes with the next read): one more, a no-op.
    assert.equal(await setBio(here, 'update 19'), 0);
    const held = here.streamStates!.get(agentStream(agentId))!;
    const all = await here.store.readStream(agentStream(agentId));
    assert.equal(held.version, all[all.length - 1]!.streamVersion);
    const tail = await here.store.readStreams(
      [agentStream(agentId)],
      new Map([[agentStream(agentId), held.version - 2]]),
    );
    assert.deepEqual(
      tail.get(agentStream(agentId))!.map((e) => e.streamVersion),
      [held.version - 1, held.version],
    );
  });
});
