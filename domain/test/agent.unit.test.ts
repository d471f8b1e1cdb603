import {
  controls,
  decideCreatePersona,
  decideDeletePersona,
  decideGrantController,
  decideInitializeInstance,
  decideRevokeController,
  decideUpdateProfile,
  fold,
  foldFrom,
  initialClaimState,
  initialInstanceState,
  type AgentState,
  type InstanceState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const person: AgentState = { exists: true, agentId: 'p1', kind: 'person', name: 'Ada' };

describe('personas', () => {
  test('given a person, when creating a persona with a free handle, then the handle is claimed and the persona owned by them', () => {
    const events = decideCreatePersona(
      { personaId: 'x1', name: 'Cook', handle: 'cook' },
      { owner: person, handleClaim: initialClaimState() },
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['handle.claimed', 'agent.created'],
    );
    assert.deepEqual(events[1]!.data, {
      agentId: 'x1',
      kind: 'persona',
      name: 'Cook',
      handle: 'cook',
      ownerAgentId: 'p1',
    });
  });

  test('given a persona, when it tries to own a persona, then agent.persona_cannot_own', () => {
    const persona: AgentState = { ...person, agentId: 'x1', kind: 'persona', ownerAgentId: 'p1' };
    assert.equal(
      codeOf(() => decideCreatePersona({ personaId: 'x2', name: 'Sub' }, { owner: persona })),
      'agent.persona_cannot_own',
    );
  });

  test('given no such owner, then agent.not_found', () => {
    assert.equal(
      codeOf(() => decideCreatePersona({ personaId: 'x2', name: 'Sub' }, { owner: { exists: false } })),
      'agent.not_found',
    );
  });
});

describe('deleting a persona', () => {
  const persona: AgentState = {
    exists: true,
    agentId: 'x1',
    kind: 'persona',
    name: 'Cook',
    ownerAgentId: 'p1',
  };
  const created = {
    type: 'agent.created',
    data: { agentId: 'x1', kind: 'persona', name: 'Cook', ownerAgentId: 'p1' },
  };

  test('given a persona, when deleted, then agent.deleted on its stream, and the folded state is deleted', () => {
    const events = decideDeletePersona(persona);
    assert.deepEqual(events, [{ stream: 'agent-x1', type: 'agent.deleted', data: {} }]);
    const folded = fold<AgentState>(
      'agent-x1',
      [created, events[0]!].map((e, i) => ({ ...e, stream: 'agent-x1', streamVersion: i + 1 })),
    );
    assert.equal(folded.deleted, true);
    assert.equal(folded.name, 'Cook', 'what it was stays in its state');
  });

  test('given a deleted persona, when deleted again, updated or made an owner, then agent.not_found', () => {
    const deleted: AgentState = { ...persona, deleted: true };
    assert.equal(
      codeOf(() => decideDeletePersona(deleted)),
      'agent.not_found',
    );
    assert.equal(
      codeOf(() => decideUpdateProfile({ bio: 'still here?' }, deleted)),
      'agent.not_found',
    );
    assert.equal(
      codeOf(() =>
        decideCreatePersona({ personaId: 'x2', name: 'Sub' }, { owner: { ...person, deleted: true } }),
      ),
      'agent.not_found',
    );
  });

  test('given a person or no agent, when deleting it as a persona, then agent.not_a_persona or agent.not_found', () => {
    assert.equal(
      codeOf(() => decideDeletePersona(person)),
      'agent.not_a_persona',
    );
    assert.equal(
      codeOf(() => decideDeletePersona({ exists: false })),
      'agent.not_found',
    );
  });
});

describe('profiles', () => {
  test('given a profile, when updating with the same values, then no event is written', () => {
    assert.deepEqual(decideUpdateProfile({ name: 'Ada' }, person), []);
  });

  test('given a profile, when updating some fields, then only the changed ones are in the event', () => {
    const [e] = decideUpdateProfile({ name: 'Ada', bio: 'Hi' }, person);
    assert.deepEqual(e!.data, { bio: 'Hi' });
    const after = fold<AgentState>('agent-p1', [
      { type: 'agent.created', data: { agentId: 'p1', kind: 'person', name: 'Ada' }, streamVersion: 1 },
      { type: 'agent.profile_updated', data: e!.data, streamVersion: 2 },
    ]);
    assert.equal(after.bio, 'Hi');
    assert.equal(after.name, 'Ada');
  });
});

describe('the instance and its controllers', () => {
  const key = { keyId: 'k', publicKey: 'p'.repeat(43), validFrom: '2026-01-01T00:00:00Z' };
  const init = {
    instanceId: 'i',
    role: 'region' as const,
    name: 'Alps',
    baseUrl: 'http://x',
    primaryAgentId: 'g',
    signingKey: key,
  };

  test('given a fresh log, when initialized, then the instance and its primary agent of the same kind appear', () => {
    const events = decideInitializeInstance(init, initialInstanceState());
    assert.deepEqual(
      events.map((e) => [e.stream, e.type]),
      [
        ['instance', 'instance.initialized'],
        ['agent-g', 'agent.created'],
      ],
    );
    assert.equal((events[1]!.data as { kind: string }).kind, 'region');
    assert.equal(
      codeOf(() => decideInitializeInstance(init, { ...initialInstanceState(), initialized: true })),
      'instance.already_initialized',
    );
  });

  test('given one controller, when revoking them, then instance.last_controller; granting twice is a conflict', () => {
    const state: InstanceState = {
      ...initialInstanceState(),
      initialized: true,
      controllers: [{ accountId: 'a', agentId: 'x' }],
    };
    assert.equal(
      codeOf(() => decideRevokeController({ accountId: 'a' }, state)),
      'instance.last_controller',
    );
    assert.equal(
      codeOf(() => decideGrantController({ accountId: 'a', agentId: 'x', reason: 'admin' }, state)),
      'instance.already_controller',
    );
    assert.equal(
      codeOf(() => decideRevokeController({ accountId: 'zz' }, state)),
      'instance.not_controller',
    );
  });
});

describe('ownership', () => {
  const ctx = { selfAgentId: 'me', isInstanceController: false, primaryAgentId: 'primary' };
  test('given a person, then they control themselves and their personas, and nobody else', () => {
    assert.equal(controls(ctx, { agentId: 'me', kind: 'person', ownerAgentId: null }), true);
    assert.equal(controls(ctx, { agentId: 'p', kind: 'persona', ownerAgentId: 'me' }), true);
    assert.equal(controls(ctx, { agentId: 'other', kind: 'person', ownerAgentId: null }), false);
    assert.equal(controls(ctx, { agentId: 'primary', kind: 'group', ownerAgentId: null }), false);
  });
  test('given an instance controller, then the primary agent and its personas are theirs too; placeholders never', () => {
    const op = { ...ctx, isInstanceController: true };
    assert.equal(controls(op, { agentId: 'primary', kind: 'group', ownerAgentId: null }), true);
    assert.equal(controls(op, { agentId: 'pp', kind: 'persona', ownerAgentId: 'primary' }), true);
    assert.equal(
      controls(op, { agentId: 'me', kind: 'person', ownerAgentId: null, placeholder: true }),
      false,
    );
  });
});

describe('folding a stream from a held state', () => {
  const events = [
    { type: 'agent.created', data: { agentId: 'p1', kind: 'person', name: 'Ada' } },
    { type: 'agent.profile_updated', data: { bio: 'first' } },
    { type: 'agent.profile_updated', data: { name: 'Ada L.' } },
    { type: 'agent.profile_updated', data: { bio: 'second' } },
  ].map((e, i) => ({ ...e, stream: 'agent-p1', streamVersion: i + 1 }));

  test('given the state folded up to any version, when the later events are folded onto it, then it equals folding the whole stream', () => {
    const whole = fold<AgentState>('agent-p1', events);
    for (let v = 0; v <= events.length; v++) {
      const held = fold<AgentState>('agent-p1', events.slice(0, v));
      assert.deepEqual(foldFrom<AgentState>('agent-p1', held, events.slice(v)), whole, `from version ${v}`);
    }
    assert.equal(whole.name, 'Ada L.');
    assert.equal(whole.bio, 'second');
  });

  test('given a frozen held state, when events are folded onto it, then the fold builds new states and never writes to it', () => {
    const held = Object.freeze(fold<AgentState>('agent-p1', events.slice(0, 2)));
    assert.equal(foldFrom<AgentState>('agent-p1', held, events.slice(2)).bio, 'second');
    assert.equal(held.bio, 'first');
  });
});
