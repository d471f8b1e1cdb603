// This area's operations as plan steps read (services/src/shared/step-words.ts).
import type { DescribeStep } from '../shared/step-words.js';

export const ssoStepWords: Record<string, DescribeStep> = {
  'svc.sso.list_remote_sessions': () => 'List your sessions on other instances',
  'svc.sso.end_remote_sessions': () => 'End your sessions on every other instance',
};
