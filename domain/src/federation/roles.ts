// What only the global instance may do (connected payment accounts, onboarding, refunds, …)
// is refused on every other instance with one clear code.
import { forbidden } from '../shared/errors.js';
import type { InstanceRole } from '../instance/index.js';

export const GLOBAL_ROLE: InstanceRole = 'global';

export const isGlobalInstance = (role: string | undefined): boolean => role === GLOBAL_ROLE;

/** Throws `federation.global_only` unless this instance's role is `global`. */
export function requireGlobalInstance(role: string | undefined, action: string): void {
  if (!isGlobalInstance(role))
    throw forbidden('federation.global_only', `only the global instance may ${action}`, {
      action,
      role: role ?? null,
    });
}
