// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, shortId, type DescribeStep } from '../shared/step-words.js';

export const tokensStepWords: Record<string, DescribeStep> = {
  'svc.tokens.issue': (a) => `Issue an access token labelled ${q(a.label)}`,
  'svc.tokens.list': () => 'List your access tokens',
  'svc.tokens.revoke': (a) => `Revoke the access token ${shortId(a.jti)}`,
  'svc.audit.recent': () => 'Read the recent tool calls made on your behalf',
  'svc.log.read_mine': () => 'Read your events on the log',
};
