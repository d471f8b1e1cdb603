// The scope grammar: svc.<area>.<read|write>, plus separately granted scopes and one wildcard marker.
import { z } from 'zod';

export const SEPARATE_SCOPES = [
  'svc.wallet.read',
  'svc.wallet.spend',
  'svc.account.export',
  'svc.admin',
] as const;
export const LEGACY_UNSCOPED = 'svc.legacy.unscoped';
const AREA_SCOPE = /^svc\.([a-z][a-z0-9_]*)\.(read|write)$/;

export const isValidScope = (s: string): boolean =>
  s === LEGACY_UNSCOPED ||
  (SEPARATE_SCOPES as readonly string[]).includes(s) ||
  (AREA_SCOPE.test(s) && !s.startsWith('svc.wallet.') && !s.startsWith('svc.account.export'));

export const scopeSchema = z.string().refine(isValidScope, { message: 'not a known scope form' });

interface ScopeGrant {
  scopes: readonly string[];
  /** When `svc.legacy.unscoped` stops being honoured; undefined means no sunset configured (honoured). */
  legacySunset?: Date | undefined;
  now: Date;
}

/**
 * Which of the required scopes the grant lacks. Every required scope must be present by name:
 * a read scope never implies write or spend, and nothing is inferred from scopes a credential lacks.
 * The only wildcard is the legacy marker, and only before its sunset.
 */
export function missingScopes(required: readonly string[], grant: ScopeGrant): string[] {
  const granted = new Set(grant.scopes);
  if (granted.has(LEGACY_UNSCOPED) && (!grant.legacySunset || grant.now < grant.legacySunset)) return [];
  return required.filter((s) => !granted.has(s));
}

export const isLegacyExpired = (grant: ScopeGrant) =>
  grant.scopes.includes(LEGACY_UNSCOPED) && !!grant.legacySunset && grant.now >= grant.legacySunset;
