// Remote-viewer credentials (`svc_remote_viewer`, docs/assistant.md#remote-viewers): a person signed in on
// another instance, viewing here read-only as the local agent that stands for them. The single-sign-on
// flow calls `mintRemoteViewerCredential` once it has verified the visitor's assertion; tests call the
// same function. The cookie carries a random secret; only its SHA-256 is kept.
import { invalid, notFound } from '@tributary/domain';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../pipeline/principal.js';
import type { AgentsServices } from '../agents/ports.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AssistantOperationServices } from './assistant-operation.js';
import type { AssistantServices } from './ports/index.js';

/** How long a remote-viewer credential may live at most (its SSO assertion is re-verified after). */
export const REMOTE_VIEWER_MAX_SECONDS = 12 * 3600;
export const REMOTE_VIEWER_DEFAULT_SECONDS = 3600;

export interface MintRemoteViewer {
  /** The local (materialized) agent of the visiting person. */
  agentId: string;
  /** The visitor's home instance: an http(s) base URL. */
  home: string;
  lifetimeSeconds?: number;
  /** The credential's id, when the caller recorded it first (single sign-on burns it with the nonce). */
  credentialId?: string;
}

export interface MintedRemoteViewer {
  /** The cookie's value: shown once, never stored. */
  token: string;
  credentialId: string;
  expiresAt: string;
}

function homeUrl(home: string): string {
  let url: URL;
  try {
    url = new URL(home);
  } catch {
    throw invalid('assistant.remote_viewer_invalid', 'the home base URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('assistant.remote_viewer_invalid', 'the home base URL must be http(s)');
  return url.origin;
}

export async function mintRemoteViewerCredential(
  services: CoreServices & AgentsServices & Pick<AssistantServices, 'assistant'>,
  m: MintRemoteViewer,
): Promise<MintedRemoteViewer> {
  const lifetime = m.lifetimeSeconds ?? REMOTE_VIEWER_DEFAULT_SECONDS;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > REMOTE_VIEWER_MAX_SECONDS)
    throw invalid('assistant.remote_viewer_invalid', 'the lifetime is out of range', {
      max: REMOTE_VIEWER_MAX_SECONDS,
    });
  const home = homeUrl(m.home);
  const agent = await services.agents.read.agent(m.agentId);
  if (!agent || agent.placeholder) throw notFound('agent.not_found', 'no such local agent for the visitor');
  const token = randomBytes(32).toString('base64url');
  const now = services.clock.now();
  const credentialId = m.credentialId ?? services.ids.eventId();
  const expiresAt = new Date(now.getTime() + lifetime * 1000).toISOString();
  await services.assistant.remoteViewers.insert({
    credentialId,
    tokenHash: services.ids.sha256(token),
    agentId: agent.agentId,
    home,
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { token, credentialId, expiresAt };
}

export async function revokeRemoteViewerCredential(
  services: AssistantOperationServices,
  credentialId: string,
) {
  return services.assistant.remoteViewers.revoke(credentialId, services.clock.now().toISOString());
}

/** The remote-viewer principal a cookie value stands for, or null (unknown, expired, revoked). */
export async function remoteViewerPrincipal(
  services: AssistantOperationServices,
  token: string | undefined,
): Promise<Extract<Principal, { kind: 'remote_viewer' }> | null> {
  if (!token) return null;
  const r = await services.assistant.remoteViewers.byTokenHash(services.ids.sha256(token));
  if (!r || r.revokedAt || new Date(r.expiresAt) <= services.clock.now()) return null;
  return { kind: 'remote_viewer', credentialId: r.credentialId, agentId: r.agentId, home: r.home };
}
