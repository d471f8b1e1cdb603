// This area's operations as plan steps read (services/src/shared/step-words.ts).
import type { DescribeStep } from '../shared/step-words.js';

export const mailStepWords: Record<string, DescribeStep> = {
  'svc.mail.list_outbox': () => 'Read the outbox',
};
