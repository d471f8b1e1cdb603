// This area's operations as plan steps read (services/src/shared/step-words.ts). A persona is an
// "identity" in words a person reads, as on the pages; the operations keep their names.
import { opt, q, type DescribeStep } from '../shared/step-words.js';

export const agentsStepWords: Record<string, DescribeStep> = {
  'svc.agent.create_persona': (a) =>
    `Create an identity named ${q(a.name)}${opt('with the handle', a.handle)}`,
  'svc.agent.delete_persona': (a, n) => `Delete the identity ${n.agent(a.targetAgentId)}`,
  'svc.agent.list_personas': () => 'List your identities',
  'svc.profile.read': (a, n) => `Read the profile of ${n.agent(a.targetAgentId)}`,
  'svc.profile.update': (a, n) => {
    const what = [
      a.name !== undefined && `the name to ${q(a.name)}`,
      a.bio !== undefined && `the bio to ${q(a.bio)}`,
      a.avatarUrl !== undefined && `the picture to ${q(a.avatarUrl)}`,
    ].filter(Boolean);
    return `Change the profile of ${n.agent(a.targetAgentId)}${what.length ? `: ${what.join(', ')}` : ''}`;
  },
};
