// GET /api/federation/discover?q=: where an identity lives — this instance (with its agent id), a
// registered peer (with its base URL), or not found. One cue per request, at most 320 characters.
// Anyone may resolve what is already public (handles, agent and instance ids, domains); an email is
// resolved only for a peer-signed request, so strangers cannot test which emails have accounts here.
import {
  emailSchema,
  forbidden,
  handleSchema,
  invalid,
  normalizeEmail,
  UUID_V1_TO_V5,
} from '@tributary/domain';
import { z } from 'zod';
import type { DiscoverPeerView } from './ports/federation-surface.js';
import type { RegistryAgentView, RelayOriginView } from './ports/federation.js';
import type { Principal } from '../pipeline/principal.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';

const DISCOVER_MAX_CUE = 320;
export const discoverQuery = z.strictObject({ q: z.string().trim().min(1).max(DISCOVER_MAX_CUE) });

type CueKind = 'email' | 'handle' | 'id' | 'domain';

interface PublicAgent {
  agentId: string;
  kind: string;
  name: string;
  handle: string | null;
}

type Discovery =
  | { cue: CueKind; found: false }
  | {
      cue: CueKind;
      found: true;
      where: 'this_instance';
      instance: { instanceId: string; name: string; role: string; baseUrl: string };
      agent?: PublicAgent;
    }
  | {
      cue: CueKind;
      found: true;
      where: 'peer';
      peer: { peerId: string; name: string; role: string; baseUrl: string };
      /** For an agent of that peer known here: its id here and its id at the peer. */
      agent?: PublicAgent & { remoteAgentId: string | null };
    }
  | {
      cue: CueKind;
      found: true;
      /** An instance known here only through a relay (docs/federation.md#relay). */
      where: 'relayed_origin';
      origin: { instanceId: string; name: string; role: string; baseUrl: string };
      agent?: PublicAgent & { remoteAgentId: string | null };
    };

export function parseDiscoverQuery(raw: unknown): string {
  const q = discoverQuery.safeParse(raw);
  if (!q.success) {
    if (q.error.issues.some((i) => i.code === 'unrecognized_keys'))
      throw invalid('query.unknown_parameter', 'only q is accepted');
    throw invalid('discover.bad_cue', `q: one identity cue of 1–${DISCOVER_MAX_CUE} characters`);
  }
  return q.data.q;
}

const HOST =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/i;

/** Which kind of cue this is, and its normalized value. */
function classifyCue(q: string): { kind: CueKind; value: string; host?: string } {
  if (UUID_V1_TO_V5.test(q)) return { kind: 'id', value: q.toLowerCase() };
  // @alice or alice: a handle here; @alice@host: a handle on that host.
  const at = /^@?([^@\s]+)@([^@\s]+)$/.exec(q);
  if (q.startsWith('@') && at && handleSchema.safeParse(at[1]!.toLowerCase()).success && HOST.test(at[2]!))
    return { kind: 'handle', value: at[1]!.toLowerCase(), host: at[2]!.toLowerCase() };
  if (emailSchema.safeParse(q).success) return { kind: 'email', value: normalizeEmail(q) };
  const bare = q.startsWith('@') ? q.slice(1) : q;
  if (handleSchema.safeParse(bare.toLowerCase()).success && !bare.includes('.'))
    return { kind: 'handle', value: bare.toLowerCase() };
  if (/^https?:\/\//i.test(q)) {
    try {
      return { kind: 'domain', value: new URL(q).host.toLowerCase() };
    } catch {
      throw invalid('discover.bad_cue', 'that URL does not parse');
    }
  }
  if (HOST.test(q) && q.includes('.')) return { kind: 'domain', value: q.toLowerCase() };
  throw invalid('discover.bad_cue', 'q must be an email, a handle, an agent or instance id, or a domain');
}

export async function discoverIdentity(
  services: FederationWithSurfaceServices,
  principal: Principal,
  q: string,
): Promise<Discovery> {
  const surface = services.federationSurface;
  const fed = services.federation;
  const instance = (await services.instance.read.get())!;
  const here = {
    instanceId: instance.instanceId,
    name: instance.name,
    role: instance.role,
    baseUrl: instance.baseUrl,
  };
  const ourHost = new URL(instance.baseUrl).host.toLowerCase();
  const cue = classifyCue(q);
  const none = { cue: cue.kind, found: false } as const;
  const atPeer = (peer: DiscoverPeerView, agent?: RegistryAgentView): Discovery => ({
    cue: cue.kind,
    found: true,
    where: 'peer',
    peer: { peerId: peer.peerId, name: peer.name, role: peer.role, baseUrl: peer.baseUrl },
    ...(agent && { agent: { ...publicAgent(agent), remoteAgentId: agent.remote?.agentId ?? null } }),
  });
  const atHome = (agent?: RegistryAgentView): Discovery => ({
    cue: cue.kind,
    found: true,
    where: 'this_instance',
    instance: here,
    ...(agent && { agent: publicAgent(agent) }),
  });
  const atRelayed = (o: RelayOriginView, agent?: RegistryAgentView): Discovery => ({
    cue: cue.kind,
    found: true,
    where: 'relayed_origin',
    origin: { instanceId: o.origin, name: o.name, role: o.role, baseUrl: o.baseUrl },
    ...(agent && { agent: { ...publicAgent(agent), remoteAgentId: agent.remote?.agentId ?? null } }),
  });
  /** Origins known only through a relay whose base URL has this host. */
  const relayedByHost = async (host: string) =>
    (await fed.read.relayOrigins()).filter((o) => {
      const h = new URL(o.baseUrl).host.toLowerCase();
      return h === host || h.replace(/:\d+$/, '') === host;
    });
  /** An agent known here: ours, a peer's (materialized, or the agent standing for the peer), or a relayed origin's. */
  const placeAgent = async (agent: RegistryAgentView): Promise<Discovery> => {
    if (agent.origin === instance.instanceId) return atHome(agent);
    const peer = agent.origin ? await surface.read.peerById(agent.origin) : null;
    if (peer) return atPeer(peer, agent);
    const relayed = agent.origin ? await fed.read.relayOrigin(agent.origin) : null;
    return relayed ? atRelayed(relayed, agent) : none;
  };

  switch (cue.kind) {
    case 'email': {
      if (principal.kind !== 'peer')
        throw forbidden(
          'discover.email_requires_peer',
          'emails are resolved only for signed peer requests (see docs/federation.md)',
        );
      const agentId = await surface.read.agentIdByEmail(cue.value);
      if (!agentId) return none;
      const [agent] = await fed.read.registryAgentsByIds([agentId]);
      return agent ? atHome(agent) : atHome();
    }
    case 'handle': {
      if (cue.host && cue.host !== ourHost) {
        const peers = await surface.read.peersByHost(cue.host);
        if (peers[0]) return atPeer(peers[0]);
        const relayed = await relayedByHost(cue.host);
        if (!relayed[0]) return none;
        const agent = await surface.read.agentByHandle(cue.value);
        const theirs = agent && relayed.find((o) => o.origin === agent.origin);
        return theirs ? atRelayed(theirs, agent) : atRelayed(relayed[0]);
      }
      const agent = await surface.read.agentByHandle(cue.value);
      if (!agent) return none;
      // A handle names an agent of this instance only when it is ours; a remote handle points home.
      return placeAgent(agent);
    }
    case 'id': {
      if (cue.value === instance.instanceId) return atHome();
      const peer = await surface.read.peerById(cue.value);
      if (peer) return atPeer(peer);
      const relayed = await fed.read.relayOrigin(cue.value);
      if (relayed) return atRelayed(relayed);
      const [agent] = await fed.read.registryAgentsByIds([cue.value]);
      return agent ? placeAgent(agent) : none;
    }
    case 'domain': {
      if (cue.value === ourHost || cue.value === ourHost.replace(/:\d+$/, '')) return atHome();
      const peers = await surface.read.peersByHost(cue.value);
      if (peers[0]) return atPeer(peers[0]);
      const relayed = await relayedByHost(cue.value);
      return relayed[0] ? atRelayed(relayed[0]) : none;
    }
  }
}

const publicAgent = (a: RegistryAgentView): PublicAgent => ({
  agentId: a.agentId,
  kind: a.kind,
  name: a.name,
  handle: a.handle,
});
