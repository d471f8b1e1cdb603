// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

export const instanceStepWords: Record<string, DescribeStep> = {
  'svc.instance.context': () => 'Read this instance’s context',
  'svc.instance.read_settings': () => 'Read this instance’s run-time settings',
  'svc.instance.update_settings': (a) => {
    const what = [
      a.signupOpen !== undefined && (a.signupOpen ? 'open sign-up' : 'close sign-up'),
      a.notice !== undefined && (a.notice ? `show the notice ${q(a.notice)}` : 'remove the notice'),
      a.mailPaused !== undefined && (a.mailPaused ? 'pause mail' : 'resume mail'),
      a.reservedHandles !== undefined && 'change the reserved handles',
    ].filter(Boolean);
    return `Change this instance’s settings${what.length ? `: ${what.join(', ')}` : ''}`;
  },
  'svc.instance.rotate_key': () => 'Rotate this instance’s signing key',
  'svc.instance.revoke_key': (a) => `Revoke the signing key ${q(a.keyId)}`,
};
