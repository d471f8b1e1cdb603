// Writes with an idempotency key, on the real pipeline over the in-memory log: a retry answers the first
// outcome and writes nothing, whether the first answer arrived or was lost with the database.
import { DomainError, isDomainError } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

interface Persona {
  agentId: string;
  name: string;
}

describe('a write with an idempotency key', () => {
  test('given a persona created with a key, when the same call comes again, then the same persona is answered and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const first = (
      await t.when<Persona>('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, {
        idempotencyKey: 'k-1',
      })
    ).thenEvents([{ type: 'agent.created' }, { type: 'idempotency.claimed' }]);
    const again = await t.when<Persona>('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, {
      idempotencyKey: 'k-1',
    });
    assert.deepEqual(again.thenEvents([]), first);
    // Another session of the same person is the same principal; another person's key is their own.
    const later = await t.when<Persona>(
      'svc.agent.create_persona',
      { name: 'Scribe' },
      { ...ada.principal, sessionId: 'another' },
      { idempotencyKey: 'k-1' },
    );
    assert.equal(later.thenEvents([]).agentId, first.agentId);
    const bea = await t.signUp('bea');
    const hers = (
      await t.when<Persona>('svc.agent.create_persona', { name: 'Scribe' }, bea.principal, {
        idempotencyKey: 'k-1',
      })
    ).thenEvents([{ type: 'agent.created' }, { type: 'idempotency.claimed' }]);
    assert.notEqual(hers.agentId, first.agentId);
  });

  test('given a key already used, when it comes with another input, then request.idempotency_key_reused and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (
      await t.when('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, { idempotencyKey: 'k' })
    ).thenEvents([{ type: 'agent.created' }, { type: 'idempotency.claimed' }]);
    (
      await t.when('svc.agent.create_persona', { name: 'Other' }, ada.principal, { idempotencyKey: 'k' })
    ).thenError('request.idempotency_key_reused');
  });

  test('given the database goes away while a keyed write commits, when it is retried with the key, then the first outcome is answered and the write is in the log once', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    // The append lands, and then the answer is lost: what a crash during COMMIT looks like.
    const append = t.store.append.bind(t.store);
    t.store.append = async (streams) => {
      t.store.append = append;
      await append(streams);
      throw new DomainError('log.outcome_unknown', 'unavailable', 'lost');
    };
    const lost = await t.when<Persona>('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, {
      idempotencyKey: 'k-lost',
    });
    assert.ok(isDomainError(lost.error) && lost.error.code === 'log.outcome_unknown');
    const created = lost.events.filter((e) => e.type === 'agent.created');
    assert.equal(created.length, 1);
    // The problem names the command: the id of its first event.
    assert.equal(lost.error.details?.commandId, created[0]!.envelope.id);

    const retry = await t.when<Persona>('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, {
      idempotencyKey: 'k-lost',
    });
    const persona = retry.thenEvents([]);
    assert.equal(`agent-${persona.agentId}`, created[0]!.stream);
    assert.equal(persona.name, 'Scribe');
  });

  test('given a write without a key, when the database goes away while it commits, then log.outcome_unknown names the command', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const append = t.store.append.bind(t.store);
    t.store.append = async (streams) => {
      t.store.append = append;
      await append(streams);
      throw new DomainError('log.outcome_unknown', 'unavailable', 'lost');
    };
    const lost = await t.when('svc.agent.create_persona', { name: 'Scribe' }, ada.principal);
    assert.ok(isDomainError(lost.error) && lost.error.code === 'log.outcome_unknown');
    assert.equal(lost.error.details?.commandId, lost.events[0]!.envelope.id);
  });

  test('given a malformed key on a tool call, then request.idempotency_key_invalid, nothing written but its provenance entry', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    for (const key of ['', 'k'.repeat(256), 'caf\u00e9']) {
      const before = t.store.all().length;
      (
        await t.when('svc.agent.create_persona', { name: 'Scribe' }, ada.principal, {
          surface: 'mcp',
          recorded: true,
          idempotencyKey: key,
        })
      ).thenError('request.idempotency_key_invalid');
      const written = t.store.all().slice(before);
      assert.deepEqual(
        written.map((e) => [e.type, e.data.errorCode]),
        [['provenance.recorded', 'request.idempotency_key_invalid']],
      );
    }
  });

  test('given a query, when it carries a key, then nothing is claimed', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.agent.list_personas', {}, ada.principal, { idempotencyKey: 'q' })).thenEvents([]);
  });
});
