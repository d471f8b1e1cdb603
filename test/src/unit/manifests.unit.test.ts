// svc.manifest.set_publication on the real pipeline over the in-memory log: the flag an owner sets for
// a person, a persona or the instance's agent, the same choice again writing nothing, and refusals; and
// the operations that sign with the instance key, on an instance composed without the federation surface.
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

describe('svc.manifest.set_publication', () => {
  test('given a person, when they publish, then manifest.publication_set; the same again writes nothing; withdrawing writes once', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.manifest.set_publication', { published: true }, ada.principal)).thenEvents([
      {
        type: 'manifest.publication_set',
        stream: `manifest-publication-${ada.agentId}`,
        data: { agentId: ada.agentId, published: true },
      },
    ]);
    (await t.when('svc.manifest.set_publication', { published: true }, ada.principal)).thenEvents([]);
    (await t.when('svc.manifest.set_publication', { published: false }, ada.principal)).thenEvents([
      { type: 'manifest.publication_set', data: { agentId: ada.agentId, published: false } },
    ]);
  });

  test('given a persona of theirs, when they publish it, then its own flag', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).thenEvents([{ type: 'agent.created' }]);
    (
      await t.when(
        'svc.manifest.set_publication',
        { targetAgentId: persona.agentId, published: true },
        ada.principal,
      )
    ).thenEvents([{ type: 'manifest.publication_set', data: { agentId: persona.agentId, published: true } }]);
  });

  test('given someone else’s agent or a bad input, then agent.not_found / input.invalid, nothing written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (
      await t.when(
        'svc.manifest.set_publication',
        { targetAgentId: bob.agentId, published: true },
        ada.principal,
      )
    ).thenError('agent.not_found');
    (await t.when('svc.manifest.set_publication', { published: 'yes' }, ada.principal)).thenError(
      'input.invalid',
    );
  });

  test('given the global instance’s own agent, when its operator publishes it, then manifest.not_an_agent_manifest', async () => {
    const t = await unitInstance({ role: 'global' });
    const op = await t.signUp('opal');
    (
      await t.when(
        'svc.manifest.set_publication',
        { targetAgentId: t.primaryAgentId, published: true },
        op.principal,
      )
    ).thenError('manifest.not_an_agent_manifest');
  });
});

describe('operations that sign or verify with the instance key', () => {
  // The in-memory services compose no federation surface (so no document signer): the catalogue answers
  // before the operation runs, as it does for an optional area that is not composed.
  test('given no federation surface, when a manifest, a presentation or an admission is asked for, then federation.unavailable, nothing written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const worldId = '0f7c2b4e-8a1d-4c3e-9b2a-5d6e7f8a9b0c';
    (await t.when('svc.manifest.read', { kind: 'person', id: ada.agentId }, ada.principal)).thenError(
      'federation.unavailable',
    );
    (await t.when('svc.spatial.present_traveller', { destination: { worldId } }, ada.principal)).thenError(
      'federation.unavailable',
    );
    (await t.when('svc.spatial.admit_traveller', { presentation: {} }, { kind: 'anonymous' })).thenError(
      'federation.unavailable',
    );
  });
});
