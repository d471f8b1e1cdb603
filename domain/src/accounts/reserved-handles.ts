// Handles nobody may sign up with: names people read as the instance itself or its staff, and names
// mail and web conventions give a role. Operators add their own (the run-time setting
// `reservedHandles`, docs/operations.md#run-time-settings). Every sign-up path refuses them — the
// instance's own and a peer's delegated sign-up at the global instance.
import { invalid } from '../shared/errors.js';

export const RESERVED_HANDLES: readonly string[] = [
  'abuse',
  'account',
  'accounts',
  'admin',
  'administrator',
  'api',
  'billing',
  'help',
  'hostmaster',
  'info',
  'mail',
  'moderator',
  'noreply',
  'no_reply',
  'null',
  'official',
  'operator',
  'operators',
  'postmaster',
  'root',
  'security',
  'staff',
  'support',
  'system',
  'tributary',
  'undefined',
  'webmaster',
  'www',
];

const BUILT_IN = new Set(RESERVED_HANDLES);

/** account.handle_reserved (400) when `handle` is on the built-in list or the operators' own. */
export function refuseReservedHandle(handle: string | undefined, operators: readonly string[]): void {
  if (!handle) return;
  const h = handle.toLowerCase();
  if (BUILT_IN.has(h) || operators.includes(h))
    throw invalid('account.handle_reserved', `the handle @${h} is reserved on this instance`, { handle: h });
}
