// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

export const adminStepWords: Record<string, DescribeStep> = {
  'svc.admin.grant_controller': (a) => `Make the account ${q(a.account)} an operator`,
  'svc.admin.move_controller': (a) => `Move the operator role from ${q(a.from)} to ${q(a.to)}`,
  'svc.admin.disable_account': (a) =>
    `Disable the account ${q(a.account)}${a.reason ? ` (${q(a.reason)})` : ''}`,
  'svc.admin.enable_account': (a) => `Enable the account ${q(a.account)} again`,
};
