// Which scopes an OAuth client may be granted: only scopes this instance supports (scopes_supported),
// and, when the client registered a `scope` (or its metadata document names one), only those. The
// bound is applied at registration, at consent, at the device request and again at every refresh, so
// a grant never carries a scope that means nothing here or that its client did not ask to be allowed.
import { oauthError } from '@tributary/domain';
import type { OAuthClientView } from './ports/oauth-read-models.js';

/**
 * What the 401 challenge on /api/mcp names as `scope` (RFC 6750 §3), so a client that asks for what the
 * challenge names (the MCP SDK does) starts with reading who it acts for and nothing else: the
 * instance's context, the person's profile and their personas. Writes, the token list, the audit trail,
 * and the separately granted scopes (wallet, export, admin) are asked for explicitly or not at all.
 */
export const DEFAULT_OAUTH_SCOPES: readonly string[] = [
  'svc.agent.read',
  'svc.instance.read',
  'svc.profile.read',
];

/** A space-separated `scope` value as a list (RFC 6749 §3.3), duplicates dropped. */
const scopeList = (scope: string | null | undefined): string[] => [
  ...new Set((scope ?? '').split(' ').filter(Boolean)),
];

/** Registration's check of its `scope` metadata: every scope must be one this instance supports. */
export function checkRegisteredScope(
  scope: string | undefined,
  scopesSupported: readonly string[],
): string | undefined {
  if (scope === undefined) return undefined;
  const scopes = scopeList(scope);
  const supported = new Set(scopesSupported);
  for (const s of scopes)
    if (!supported.has(s)) throw oauthError('invalid_client_metadata', `scope ${s} is not supported here`);
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}

/** The scopes `client` may hold: scopes_supported, narrowed to its registered `scope` when it has one. */
export function clientScopeBound(
  client: Pick<OAuthClientView, 'scope'>,
  scopesSupported: readonly string[],
): Set<string> {
  const supported = scopesSupported;
  if (client.scope === null || client.scope === undefined) return new Set(supported);
  const registered = new Set(scopeList(client.scope));
  return new Set(supported.filter((s) => registered.has(s)));
}

/**
 * The scopes a request asks for, checked against the client's bound. A request that names none gets the
 * default the 401 challenge on /api/mcp names (RFC 6749 §3.3 lets the server pick a default), narrowed to
 * the client's bound: a grant that can call nothing is never what a client meant by asking for nothing.
 * When even that leaves nothing (a client registered only other scopes), it is `invalid_scope`.
 */
export function requestedScopes(
  client: Pick<OAuthClientView, 'scope'>,
  scopes: readonly string[],
  scopesSupported: readonly string[],
): string[] {
  if (scopes.length > 0) {
    checkRequestedScopes(client, scopes, scopesSupported);
    return [...new Set(scopes)].sort();
  }
  const bound = clientScopeBound(client, scopesSupported);
  const granted = DEFAULT_OAUTH_SCOPES.filter((s) => bound.has(s));
  if (granted.length === 0)
    throw oauthError(
      'invalid_scope',
      'name the scopes to grant: this client may hold none of the default ones',
    );
  return [...granted].sort();
}

/** Refuses (invalid_scope) any requested scope outside the client's bound. */
export function checkRequestedScopes(
  client: Pick<OAuthClientView, 'scope'>,
  scopes: readonly string[],
  scopesSupported: readonly string[],
) {
  const bound = clientScopeBound(client, scopesSupported);
  const registered = client.scope !== null && client.scope !== undefined;
  for (const s of scopes)
    if (!bound.has(s))
      throw oauthError(
        'invalid_scope',
        registered
          ? `${s} is not among the scopes this client registered (or not supported here)`
          : `${s} is not a scope this instance supports`,
      );
}
