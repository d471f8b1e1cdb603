// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

export const manifestsStepWords: Record<string, DescribeStep> = {
  'svc.manifest.set_publication': (a, n) =>
    a.published
      ? `Publish the universal manifest of ${n.agent(a.targetAgentId)}`
      : `Withdraw the universal manifest of ${n.agent(a.targetAgentId)}`,
  'svc.manifest.read': (a) => `Read the universal manifest of ${q(a.kind)} ${q(a.id)}`,
};
