// svc.manifest.set_publication on the real pipeline over the in-memory log: the flag an owner sets for
// a person, a persona or the instance's agent, the same choice again writing nothing, and refusals.
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
