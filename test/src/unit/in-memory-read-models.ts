// The read models the pipeline and the operations read, derived on each read from the in-memory log by
// the same rules as the inline projections in projections/ (rm_instance, rm_agents, rm_accounts,
// rm_sessions, rm_mcp_tokens, rm_provenance, the OAuth tables, the peer registry, and the builder's
// rm_builder_sites, rm_builder_drafts, rm_builder_versions and rm_builder_media). Test layer only. They
// answer as the SQL queries do as far as test/src/harness/read-model-contract.ts holds for both.
import { inMemoryAssistantThreadReadModels } from './in-memory-assistant-read-models.js';
import { inMemoryFormReadModels } from './in-memory-form-read-models.js';
import {
  SITE_DEFAULTS,
  type AttachmentAddedData,
  type EventData,
  type McpTokenIssuedData,
  type MediaUploadedData,
  type McpTokenRevokedData,
  type OAuthRefreshIssuedData,
  type ProvenanceData,
} from '@tributary/domain';
import { inMemoryAddressReadModels } from './in-memory-address-read-models.js';
import type {
  PeerSyncState,
  SyncCursor,
  AccountView,
  AgentView,
  AttachmentReadModels,
  BuilderReadModels,
  SiteAddressReadModels,
  FormReadModels,
  DraftView,
  FederationReadModels,
  SiteHistoryEntryView,
  SiteVersionWithManifest,
  SiteView,
  InstanceView,
  McpTokenView,
  MediaReadModels,
  MediaView,
  OAuthClientView,
  OAuthGrantView,
  PeerView,
  PresenceReadModels,
  PresenceView,
  ProvenanceQuery,
  ProvenanceView,
  AssistantProvenanceQuery,
  ReadModels,
  SessionRecordView,
  SessionView,
  StoredEvent,
} from '@tributary/services';
import { inMemoryDomainReadModels } from './in-memory-domain-read-models.js';

interface Folded {
  instance: InstanceView | null;
  agents: Map<string, AgentView>;
  accounts: AccountView[];
  sessions: Map<string, SessionView & { tokenHash: string; startedAt: string }>;
  tokens: Map<string, Omit<McpTokenView, 'personaDeletedAt'>>;
  provenance: ProvenanceView[];
  /** The client each provenance entry names (rm_provenance.client), by entry id. */
  provenanceClients: Map<string, string>;
  oauthClients: Map<string, OAuthClientView>;
  /** rm_oauth_refresh_tokens: every refresh token's digest (current or rotated away) to its family. */
  oauthRefreshTokens: Map<string, string>;
  /** rm_oauth_families, in insertion order. */
  oauthFamilies: Map<string, OAuthFamilyRow>;
  /** rm_oauth_device_codes: user code digest to device digest. */
  oauthDeviceCodes: Map<string, string>;
  /** rm_peers with rm_peer_keys, in registration order. */
  peers: Map<string, PeerView>;
}

/** A row of rm_oauth_families as oauth-projection.ts writes it. */
interface OAuthFamilyRow {
  familyId: string;
  clientId: string;
  accountId: string;
  scopes: string[];
  personaId: string | null;
  createdAt: string;
  revokedAt: string | null;
  current: OAuthRefreshIssuedData;
  streamVersion: number;
}

export function inMemoryReadModels(log: { all(): readonly StoredEvent[] }): ReadModels {
  const folded = (): Folded => fold(log.all());
  const tokenView = (f: Folded, t: Omit<McpTokenView, 'personaDeletedAt'>): McpTokenView => ({
    ...t,
    personaDeletedAt: t.personaId ? (f.agents.get(t.personaId)?.deletedAt ?? null) : null,
  });
  /** A deleted persona reads as no agent, as in the Postgres read model. */
  const living = (f: Folded, agentId: string) => {
    const agent = f.agents.get(agentId);
    return agent && agent.deletedAt === null ? { ...agent } : null;
  };
  return {
    instance: {
      async get() {
        return folded().instance;
      },
      async withAgent(agentId: string | null) {
        const f = folded();
        if (!f.instance) return { instance: null, agent: null };
        return { instance: f.instance, agent: living(f, agentId ?? f.instance.primaryAgentId) };
      },
    },
    agents: {
      async agent(agentId: string) {
        return living(folded(), agentId);
      },
      async personasOf(ownerAgentId: string, options: { includeDeleted?: boolean } = {}) {
        return [...folded().agents.values()]
          .filter(
            (a) =>
              a.ownerAgentId === ownerAgentId &&
              a.kind === 'persona' &&
              (options.includeDeleted || a.deletedAt === null),
          )
          .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.agentId, b.agentId));
      },
    },
    accounts: {
      async accountById(accountId: string) {
        return folded().accounts.find((a) => a.accountId === accountId) ?? null;
      },
      async accountByIdentifier(identifier: string) {
        return folded().accounts.find((a) => a.email === identifier || a.handle === identifier) ?? null;
      },
      async sessionByTokenHash(tokenHash: string) {
        const s = [...folded().sessions.values()].find((x) => x.tokenHash === tokenHash);
        return s
          ? { sessionId: s.sessionId, accountId: s.accountId, expiresAt: s.expiresAt, endedAt: s.endedAt }
          : null;
      },
    },
    tokens: {
      async tokenByJti(jti: string) {
        const f = folded();
        const t = f.tokens.get(jti);
        return t ? tokenView(f, t) : null;
      },
      async tokensOf(accountId: string) {
        const f = folded();
        return [...f.tokens.values()]
          .filter((t) => t.accountId === accountId)
          .sort((a, b) => compare(b.createdAt, a.createdAt) || compare(a.jti, b.jti))
          .map((t) => ({
            ...tokenView(f, t),
            lastUsedAt:
              f.provenance
                .filter((p) => p.tokenJti === t.jti)
                .sort((a, b) => compare(b.entryId, a.entryId))[0]?.at ?? null,
            lastUsedClient: (() => {
              const last = f.provenance
                .filter((p) => p.tokenJti === t.jti)
                .sort((a, b) => compare(b.entryId, a.entryId))[0];
              return last ? (f.provenanceClients.get(last.entryId) ?? null) : null;
            })(),
          }));
      },
      async provenance(q: ProvenanceQuery) {
        const [key, value] =
          q.controllerAccountId !== undefined
            ? (['controllerAccountId', q.controllerAccountId] as const)
            : q.actorId !== undefined
              ? (['actorId', q.actorId] as const)
              : (['authMode', q.authMode] as const);
        return folded()
          .provenance.filter((p) => p[key] === value && (q.before === undefined || p.entryId < q.before))
          .sort((a, b) => compare(b.entryId, a.entryId))
          .slice(0, q.limit);
      },
      async assistantProvenance(q: AssistantProvenanceQuery) {
        return folded()
          .provenance.filter(
            (p) =>
              p.controllerAccountId === q.controllerAccountId &&
              (q.planId === undefined
                ? p.surface === 'assistant' || p.plan !== null
                : p.plan?.planId === q.planId) &&
              (q.before === undefined || p.entryId < q.before),
          )
          .sort((a, b) => compare(b.entryId, a.entryId))
          .slice(0, q.limit);
      },
      async sessionsOf(accountId: string): Promise<SessionRecordView[]> {
        return [...folded().sessions.values()]
          .filter((s) => s.accountId === accountId)
          .sort((a, b) => compare(b.startedAt, a.startedAt))
          .map((s) => ({
            sessionId: s.sessionId,
            startedAt: s.startedAt,
            expiresAt: s.expiresAt,
            endedAt: s.endedAt,
          }));
      },
    },
    oauth: {
      async oauthGrantsOf(accountId: string): Promise<OAuthGrantView[]> {
        const f = folded();
        return [...f.oauthFamilies.values()]
          .filter((r) => r.accountId === accountId)
          .sort((a, b) => compare(b.createdAt, a.createdAt))
          .map((r) => ({
            familyId: r.familyId,
            clientId: r.clientId,
            clientName: f.oauthClients.get(r.clientId)?.clientName ?? r.clientId,
            scopes: [...r.scopes],
            personaId: r.personaId,
            createdAt: r.createdAt,
            revokedAt: r.revokedAt,
            // The newest tool call made with any token this client holds for the account.
            lastUsedAt:
              f.provenance
                .filter((p) => {
                  const t = p.tokenJti === null ? undefined : f.tokens.get(p.tokenJti);
                  return t?.client === r.clientId && t.accountId === r.accountId;
                })
                .map((p) => p.at)
                .sort(compare)
                .at(-1) ?? null,
          }));
      },
      async oauthClient(clientId: string) {
        const client = folded().oauthClients.get(clientId);
        return client ? { ...client } : null;
      },
      async oauthDeviceOfUserCode(userCodeDigest: string) {
        return folded().oauthDeviceCodes.get(userCodeDigest) ?? null;
      },
      async oauthFamilyOfRefreshState(refreshDigest: string) {
        const f = folded();
        const familyId = f.oauthRefreshTokens.get(refreshDigest);
        if (familyId === undefined) return null;
        const row = f.oauthFamilies.get(familyId);
        return {
          familyId,
          current: row ? { ...row.current } : null,
          streamVersion: row?.streamVersion ?? null,
          revoked: row !== undefined && row.revokedAt !== null,
          createdAt: row?.createdAt ?? null,
        };
      },
      async oauthFamilyOfRefresh(refreshDigest: string) {
        return folded().oauthRefreshTokens.get(refreshDigest) ?? null;
      },
      async oauthAccessTokenClient(jti: string) {
        const f = folded();
        const t = f.tokens.get(jti);
        if (!t?.client) return null;
        const granted = [...f.oauthFamilies.values()].some(
          (r) => r.clientId === t.client && r.accountId === t.accountId,
        );
        return granted ? t.client : null;
      },
    },
    builder: (() => {
      const sites = inMemoryBuilderReadModels(log);
      return {
        ...sites,
        ...inMemoryDomainReadModels(log),
        ...inMemoryMediaReadModels(log),
        ...inMemoryAddressReadModels(log),
        ...inMemoryFormReadModels(log, sites),
      };
    })(),
    assistantThreads: inMemoryAssistantThreadReadModels(log),
    assistantVault: {
      async vaultDocument(): Promise<never> {
        // The vault's sections carry log positions, which only PostgreSQL assigns.
        throw new Error('vaultDocument: the vault document is not kept in memory (test it end to end)');
      },
    },
    presence: inMemoryPresenceReadModels(log),
    // rm_manifest_publications, by the rule of manifest-publications-projection.ts: the last choice wins.
    manifests: {
      async agentPublication(agentId: string) {
        const last = log
          .all()
          .filter(
            (e) =>
              e.type === 'manifest.publication_set' && (e.data as { agentId: string }).agentId === agentId,
          )
          .at(-1);
        return last
          ? { published: (last.data as { published: boolean }).published, updatedAt: last.occurredAt }
          : null;
      },
    },
    assistantAttachments: inMemoryAttachmentReadModels(log),
  };
}

/** The attachment reads, by the rules of projections/src/assistant/attachments-projection.ts. */
function inMemoryAttachmentReadModels(log: { all(): readonly StoredEvent[] }): AttachmentReadModels {
  return {
    async attachment(attachmentId) {
      // The first record of an id wins (ON CONFLICT DO NOTHING).
      const e = log
        .all()
        .find(
          (x) =>
            x.type === 'assistant.attachment_added' &&
            (x.data as AttachmentAddedData).attachmentId === attachmentId,
        );
      return e ? { ...(e.data as AttachmentAddedData), addedAt: e.occurredAt } : null;
    },
  };
}

/** The peer registry's reads (projections/src/federation/federation-read-models.ts), over the same log. */
export function inMemoryFederationReadModels(
  log: { all(): readonly StoredEvent[] },
  /** The sync cursors (in-memory-federation.ts), for the peers' states; none by default. */
  cursorList: () => Promise<SyncCursor[]> = () => Promise.resolve([]),
): FederationReadModels {
  const peers = () => [...fold(log.all()).peers.values()].map(copyPeer);
  const sorted = () =>
    peers().sort((a, b) => compare(a.registeredAt, b.registeredAt) || compare(a.peerId, b.peerId));
  const withStates = async () => {
    const cursors = await cursorList();
    return sorted().map((p) => {
      const mine = cursors.filter((c) => c.peerId === p.peerId);
      const state: PeerSyncState = p.blocked
        ? 'blocked'
        : mine.some((c) => c.attempts > 0)
          ? 'failing'
          : mine.some((c) => c.lastSuccessAt)
            ? 'reachable'
            : 'unknown';
      return { ...p, state, cursors: mine };
    });
  };
  const notKept = (name: string) => async (): Promise<never> => {
    // The registry lists remote agents materialized by imports, which only PostgreSQL holds.
    throw new Error(`${name}: the agent registry is not kept in memory (test it end to end)`);
  };
  return {
    async peer(peerId: string) {
      return peers().find((p) => p.peerId === peerId) ?? null;
    },
    // Origins known through a relay, and the following choice, are folded by PostgreSQL only.
    async relayOrigin() {
      return null;
    },
    async relayOrigins() {
      return [];
    },
    async relayFollowing() {
      return { following: { mode: 'all' as const, origins: [] }, version: 0 };
    },
    // Follows are folded by PostgreSQL only (test/src/federation/federation-relay-people.test.ts).
    async followedOrigins() {
      return [];
    },
    async followedBy() {
      return [];
    },
    async peers() {
      return sorted();
    },
    async peerPage(query) {
      const after = query.after;
      return (await withStates())
        .filter(
          (p) =>
            (!after ||
              compare(p.registeredAt, after.registeredAt) > 0 ||
              (p.registeredAt === after.registeredAt && compare(p.peerId, after.peerId) > 0)) &&
            (!query.state || p.state === query.state),
        )
        .slice(0, query.limit)
        .map(({ cursors: _c, ...p }) => p);
    },
    async peerSummary() {
      const all = await withStates();
      const behind = (direction: 'push' | 'pull') =>
        all
          .filter((p) => !p.blocked)
          .flatMap((p) => p.cursors.filter((c) => c.direction === direction))
          .map((c) => (direction === 'push' ? (c.backlog ?? 0) : (c.peerHead ?? 0) - c.position));
      const count = (state: PeerSyncState) => all.filter((p) => p.state === state).length;
      return {
        total: all.length,
        reachable: count('reachable'),
        failing: count('failing'),
        unknown: count('unknown'),
        blocked: count('blocked'),
        lag: {
          pushBehind: behind('push').filter((x) => x > 0).length,
          pushMaxBehind: Math.max(0, ...behind('push')),
          pullBehind: behind('pull').filter((x) => x > 0).length,
          pullMaxBehind: Math.max(0, ...behind('pull')),
        },
      };
    },
    async nodeStatusPeers(limit: number) {
      const open = (await withStates()).filter((p) => !p.blocked);
      const view = (p: (typeof open)[number]) => ({
        peerId: p.peerId,
        role: p.role,
        baseUrl: p.baseUrl,
        state: p.state as 'reachable' | 'failing' | 'unknown',
        lastContactAt:
          p.cursors
            .map((c) => c.lastSuccessAt)
            .filter((t): t is NonNullable<typeof t> => !!t)
            .map((t) => new Date(t).toISOString())
            .sort()
            .at(-1) ?? null,
      });
      const g = open.find((p) => p.role === 'global');
      return { count: open.length, global: g ? view(g) : null, peers: open.slice(0, limit).map(view) };
    },
    async peerByKeyId(keyId: string) {
      const holders = peers().filter((p) => p.keys.some((k) => k.keyId === keyId));
      // A key id held by two peers authenticates neither.
      if (holders.length !== 1) return null;
      const peer = holders[0]!;
      return { peer, key: peer.keys.find((k) => k.keyId === keyId)! };
    },
    registryAgents: notKept('registryAgents'),
    registryAgentsByIds: notKept('registryAgentsByIds'),
    heldFrom: notKept('heldFrom'),
  };
}

const copyPeer = (p: PeerView): PeerView => ({ ...p, keys: p.keys.map((k) => ({ ...k })) });

function fold(events: readonly StoredEvent[]): Folded {
  const f: Folded = {
    instance: null,
    agents: new Map(),
    accounts: [],
    sessions: new Map(),
    tokens: new Map(),
    provenance: [],
    provenanceClients: new Map(),
    oauthClients: new Map(),
    oauthRefreshTokens: new Map(),
    oauthFamilies: new Map(),
    oauthDeviceCodes: new Map(),
    peers: new Map(),
  };
  for (const e of events) {
    if (e.type.startsWith('peer.')) {
      foldPeer(f.peers, e);
      if (e.type === 'peer.registered') {
        // The local agent standing for a peer instance (what a peer principal acts as), as
        // projections/src/agents/federated-agents.ts keeps it.
        const d = e.data as EventData<'peer.registered'>;
        f.agents.set(d.agentId, {
          agentId: d.agentId,
          kind: d.role,
          name: d.name,
          handle: null,
          ownerAgentId: null,
          bio: null,
          avatarUrl: null,
          placeholder: false,
          origin: d.peerId,
          createdAt: e.occurredAt,
          deletedAt: null,
        });
      }
      continue;
    }
    switch (e.type) {
      case 'instance.initialized': {
        const d = e.data as EventData<'instance.initialized'>;
        f.instance = {
          instanceId: d.instanceId,
          role: d.role,
          name: d.name,
          baseUrl: d.baseUrl,
          primaryAgentId: d.primaryAgentId,
          controllers: [],
        };
        break;
      }
      case 'oauth_client.registered': {
        const d = e.data as EventData<'oauth_client.registered'>;
        f.oauthClients.set(d.clientId, {
          clientId: d.clientId,
          clientName: d.clientName,
          redirectUris: d.redirectUris,
          grantTypes: d.grantTypes,
          scope: d.scope ?? null,
          clientUri: d.clientUri ?? null,
          registeredAt: e.occurredAt,
        });
        break;
      }
      case 'oauth_refresh.issued': {
        const d = e.data as OAuthRefreshIssuedData;
        f.oauthRefreshTokens.set(d.refreshDigest, d.familyId);
        const row = f.oauthFamilies.get(d.familyId);
        // A family's first token inserts its row; each rotation updates scopes, token and version.
        if (row) Object.assign(row, { scopes: [...d.scopes], current: d, streamVersion: e.streamVersion });
        else
          f.oauthFamilies.set(d.familyId, {
            familyId: d.familyId,
            clientId: d.clientId,
            accountId: d.accountId,
            scopes: [...d.scopes],
            personaId: d.personaId ?? null,
            createdAt: e.occurredAt,
            revokedAt: null,
            current: d,
            streamVersion: e.streamVersion,
          });
        break;
      }
      case 'oauth_family.revoked': {
        const row = f.oauthFamilies.get((e.data as EventData<'oauth_family.revoked'>).familyId);
        if (row) {
          row.revokedAt ??= e.occurredAt;
          row.streamVersion = e.streamVersion;
        }
        break;
      }
      case 'oauth_device.requested': {
        const d = e.data as EventData<'oauth_device.requested'>;
        f.oauthDeviceCodes.set(d.userCodeDigest, d.deviceDigest);
        break;
      }
      case 'instance.controller_granted': {
        const d = e.data as EventData<'instance.controller_granted'>;
        f.instance?.controllers.push(d.accountId);
        break;
      }
      case 'instance.controller_revoked': {
        const d = e.data as EventData<'instance.controller_revoked'>;
        if (f.instance) f.instance.controllers = f.instance.controllers.filter((c) => c !== d.accountId);
        break;
      }
      case 'agent.created': {
        const d = e.data as EventData<'agent.created'>;
        f.agents.set(d.agentId, {
          agentId: d.agentId,
          kind: d.kind,
          name: d.name,
          handle: d.handle ?? null,
          ownerAgentId: d.ownerAgentId ?? null,
          bio: null,
          avatarUrl: null,
          placeholder: false,
          origin: e.origin,
          createdAt: e.occurredAt,
          deletedAt: null,
        });
        break;
      }
      case 'agent.profile_updated': {
        const d = e.data as EventData<'agent.profile_updated'>;
        const a = f.agents.get(e.stream.slice('agent-'.length));
        if (a) {
          a.name = d.name ?? a.name;
          a.bio = d.bio ?? a.bio;
          a.avatarUrl = d.avatarUrl ?? a.avatarUrl;
          a.handle = d.handle ?? a.handle;
        }
        break;
      }
      case 'agent.deleted': {
        const a = f.agents.get(e.stream.slice('agent-'.length));
        if (a) a.deletedAt = e.occurredAt;
        break;
      }
      case 'account.registered': {
        const d = e.data as EventData<'account.registered'>;
        f.accounts.push({
          accountId: d.accountId,
          agentId: d.agentId,
          email: d.email ?? null,
          handle: d.handle ?? null,
          createdAt: e.occurredAt,
          emailVerifiedAt: null,
          timeZone: null,
        });
        break;
      }
      case 'account.time_zone_set': {
        const a = f.accounts.find((x) => x.accountId === e.stream.slice('account-'.length));
        if (a) a.timeZone = (e.data as EventData<'account.time_zone_set'>).timeZone;
        break;
      }
      case 'account.email_verified': {
        const d = e.data as EventData<'account.email_verified'>;
        const a = f.accounts.find((x) => x.accountId === e.stream.slice('account-'.length));
        if (a && a.email === d.email) a.emailVerifiedAt = e.occurredAt;
        break;
      }
      case 'session.started': {
        const d = e.data as EventData<'session.started'>;
        f.sessions.set(d.sessionId, {
          sessionId: d.sessionId,
          accountId: d.accountId,
          tokenHash: d.tokenHash,
          expiresAt: d.expiresAt,
          startedAt: e.occurredAt,
          endedAt: null,
        });
        break;
      }
      case 'session.ended': {
        const s = f.sessions.get(e.stream.slice('session-'.length));
        if (s) s.endedAt = e.occurredAt;
        break;
      }
      case 'mcp_token.issued': {
        const d = e.data as McpTokenIssuedData;
        f.tokens.set(d.jti, {
          jti: d.jti,
          accountId: d.accountId,
          agentId: d.agentId,
          personaId: d.personaId ?? null,
          scopes: [...d.scopes],
          audience: d.audience,
          label: d.label,
          client: d.client ?? null,
          createdAt: e.occurredAt,
          expiresAt: d.expiresAt,
          revokedAt: null,
        });
        break;
      }
      case 'mcp_token.revoked': {
        const d = e.data as McpTokenRevokedData;
        const t = f.tokens.get(d.jti);
        if (t && t.revokedAt === null) t.revokedAt = e.occurredAt;
        break;
      }
      case 'provenance.recorded': {
        const d = e.data as ProvenanceData;
        f.provenance.push({
          entryId: e.envelope.id,
          at: e.occurredAt,
          tool: d.tool,
          surface: d.surface,
          authMode: d.authMode,
          tokenJti: d.tokenJti ?? null,
          controllerAccountId: d.controllerAccountId ?? null,
          controllerAgentId: d.controllerAgentId ?? null,
          actorId: d.actorId ?? null,
          args: d.args,
          outcome: d.outcome,
          errorCode: d.errorCode ?? null,
          durationMs: d.durationMs,
          requestId: d.requestId ?? null,
          plan: d.plan ?? null,
        });
        if (d.client) f.provenanceClients.set(e.envelope.id, d.client);
        break;
      }
    }
  }
  return f;
}

/** rm_peers and rm_peer_keys as peers-projection.ts keeps them. */
function foldPeer(peers: Map<string, PeerView>, e: StoredEvent) {
  const peerId = e.stream.slice('peer-'.length);
  if (e.type === 'peer.registered') {
    const d = e.data as EventData<'peer.registered'>;
    peers.set(d.peerId, {
      peerId: d.peerId,
      agentId: d.agentId,
      name: d.name,
      baseUrl: d.baseUrl,
      role: d.role,
      blocked: false,
      blockedReason: null,
      registeredAt: e.occurredAt,
      updatedAt: e.occurredAt,
      keys: [
        ...(d.previousKeys ?? []).map((k) => ({ ...k, revokedAfter: k.revokedAfter ?? null })),
        {
          keyId: d.keyId,
          publicKey: d.publicKey,
          validFrom: d.validFrom,
          validUntil: null,
          revokedAfter: null,
        },
      ],
    });
    return;
  }
  const p = peers.get(peerId);
  if (!p) return;
  switch (e.type) {
    case 'peer.key_rotated': {
      const d = e.data as EventData<'peer.key_rotated'>;
      const retired = p.keys.find((k) => k.keyId === d.retiredKeyId);
      if (retired) retired.validUntil = d.retiredAt;
      p.keys.push({
        keyId: d.keyId,
        publicKey: d.publicKey,
        validFrom: d.validFrom,
        validUntil: null,
        revokedAfter: null,
      });
      // Keys are listed by validity start, then key id.
      p.keys.sort((a, b) => compare(a.validFrom, b.validFrom) || compare(a.keyId, b.keyId));
      break;
    }
    case 'peer.base_url_changed':
      p.baseUrl = (e.data as EventData<'peer.base_url_changed'>).baseUrl;
      break;
    case 'peer.blocked':
      p.blocked = true;
      p.blockedReason = (e.data as EventData<'peer.blocked'>).reason;
      break;
    case 'peer.unblocked':
      p.blocked = false;
      p.blockedReason = null;
      break;
    case 'peer.secret_rotated':
      // The secret's hash is not in the view.
      break;
    default:
      return;
  }
  p.updatedAt = e.occurredAt;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface BuilderFolded {
  sites: Map<string, SiteView>;
  drafts: Map<string, DraftView>;
  /** Per site, oldest first (the order of the site stream). */
  versions: Map<string, SiteVersionWithManifest[]>;
  /** Per site, oldest first; the versions' publish times are joined when read, as the SQL query does. */
  history: Map<string, Omit<SiteHistoryEntryView, 'versionPublishedAt' | 'replacedVersionPublishedAt'>[]>;
}

/** The builder's read models, by the rules of projections/src/builder/builder-projection.ts. */
function inMemoryBuilderReadModels(log: {
  all(): readonly StoredEvent[];
}): Omit<
  BuilderReadModels,
  | 'domainBinding'
  | 'domainBindings'
  | keyof MediaReadModels
  | keyof SiteAddressReadModels
  | keyof FormReadModels
> {
  const folded = () => foldBuilder(log.all());
  const withoutManifest = ({ manifest: _m, ...v }: SiteVersionWithManifest) => v;
  return {
    async site(siteId) {
      const s = folded().sites.get(siteId);
      return s ? { ...s } : null;
    },
    async suspendedSites(page) {
      const when = new Map<string, string>();
      for (const e of log.all())
        if (e.type === 'site.suspended') when.set(e.stream.slice('site-'.length), e.occurredAt);
      return [...folded().sites.values()]
        .filter((s) => s.suspendedReason !== null && (page.after === undefined || s.siteId > page.after))
        .sort((a, b) => compare(a.siteId, b.siteId))
        .slice(0, page.limit)
        .map((s) => ({
          siteId: s.siteId,
          ownerAgentId: s.ownerAgentId,
          title: s.title,
          reason: s.suspendedReason!,
          suspendedAt: when.get(s.siteId) ?? s.updatedAt,
        }));
    },
    async sitesOf(ownerAgentId) {
      return [...folded().sites.values()]
        .filter((s) => s.ownerAgentId === ownerAgentId)
        .sort(
          (a, b) =>
            Number(b.isDefault) - Number(a.isDefault) ||
            compare(a.createdAt, b.createdAt) ||
            compare(a.siteId, b.siteId),
        );
    },
    async draft(siteId) {
      const d = folded().drafts.get(siteId);
      return d ? { ...d } : null;
    },
    async versionsOf(siteId, page) {
      const newest = [...(folded().versions.get(siteId) ?? [])]
        .reverse()
        .filter((v) => !page.publishedOnly || v.publishedAt !== null);
      const from = page.before === undefined ? 0 : newest.findIndex((v) => v.versionId === page.before) + 1;
      if (from === 0 && page.before !== undefined) return [];
      return newest.slice(from, from + page.limit).map(withoutManifest);
    },
    async historyOf(siteId, page) {
      return historyNewestFirst(folded(), siteId)
        .filter((h) => page.before === undefined || h.seq < page.before)
        .filter(
          (h) =>
            page.restoresOf === undefined || (h.action === 'restored' && h.versionId === page.restoresOf),
        )
        .slice(0, page.limit);
    },
    async restoreSaving(siteId, draftRevision) {
      return (
        historyNewestFirst(folded(), siteId).find(
          (h) => h.action === 'restored' && h.draftRevision === draftRevision,
        ) ?? null
      );
    },
    async lastRollbackBack(siteId) {
      const f = folded();
      const version = (versionId: string | null) =>
        f.versions.get(siteId)?.find((v) => v.versionId === versionId);
      const history = historyNewestFirst(f, siteId);
      const at = history.findIndex((h) => {
        const to = version(h.versionId);
        const from = version(h.replacedVersionId);
        if (h.action !== 'rolled_back' || !to?.publishedAt || !from?.publishedAt) return false;
        const [t, r] = [Date.parse(to.publishedAt), Date.parse(from.publishedAt)];
        return t < r || (t === r && to.draftRevision < from.draftRevision);
      });
      if (at < 0) return null;
      const entry = history[at]!;
      const since = history.slice(0, at + 1).flatMap((h) => {
        const v = version(h.versionId);
        return v ? [v.draftRevision] : [];
      });
      return {
        entry,
        replacedDraftRevision: version(entry.replacedVersionId)!.draftRevision,
        draftRevisionsSince: [...new Set(since)].sort((a, b) => a - b),
      };
    },
    async version(siteId, versionId) {
      return (
        folded()
          .versions.get(siteId)
          ?.find((v) => v.versionId === versionId) ?? null
      );
    },
  };
}

/** A site's history newest first, the versions' first publish times joined as the SQL query does. */
function historyNewestFirst(f: BuilderFolded, siteId: string): SiteHistoryEntryView[] {
  const publishedAt = (versionId: string | null) =>
    f.versions.get(siteId)?.find((v) => v.versionId === versionId)?.publishedAt ?? null;
  return [...(f.history.get(siteId) ?? [])].reverse().map((h) => ({
    ...h,
    versionPublishedAt: publishedAt(h.versionId),
    replacedVersionPublishedAt: publishedAt(h.replacedVersionId),
  }));
}

function foldBuilder(events: readonly StoredEvent[]): BuilderFolded {
  const f: BuilderFolded = { sites: new Map(), drafts: new Map(), versions: new Map(), history: new Map() };
  // By the rules of projections/src/builder/history-projection.ts.
  const record = (
    siteId: string,
    e: StoredEvent,
    entry: Pick<SiteHistoryEntryView, 'action' | 'versionId' | 'replacedVersionId'> & {
      draftRevision?: number;
      reason?: string;
    },
  ) => {
    const list = f.history.get(siteId) ?? [];
    list.push({
      seq: e.streamVersion,
      actorId: e.actorId,
      at: e.occurredAt,
      ...entry,
      draftRevision: entry.draftRevision ?? null,
      reason: entry.reason ?? null,
    });
    f.history.set(siteId, list);
  };
  for (const e of events) {
    // Only this instance's own site streams: imported events sit under `<origin>/<stream>`.
    if (!e.stream.startsWith('site-') && !e.stream.startsWith('draft-')) continue;
    const siteId = e.stream.slice(e.stream.indexOf('-') + 1);
    const site = f.sites.get(siteId);
    const touch = () => site && (site.updatedAt = e.occurredAt);
    switch (e.type) {
      case 'site.created': {
        const d = e.data as EventData<'site.created'>;
        f.sites.set(siteId, {
          siteId,
          ownerAgentId: d.ownerAgentId,
          title: d.title,
          isDefault: d.isDefault,
          ...SITE_DEFAULTS,
          draftRevision: 0,
          publishedVersionId: null,
          publishedAt: null,
          suspendedReason: null,
          createdAt: e.occurredAt,
          updatedAt: e.occurredAt,
        });
        break;
      }
      case 'site.settings_updated': {
        const d = e.data as EventData<'site.settings_updated'>;
        if (site) Object.assign(site, d);
        touch();
        break;
      }
      case 'site.draft_saved': {
        const d = e.data as EventData<'site.draft_saved'>;
        f.drafts.set(siteId, {
          siteId,
          revision: e.streamVersion,
          document: d.document,
          updatedAt: e.occurredAt,
        });
        if (site) site.draftRevision = e.streamVersion;
        touch();
        break;
      }
      case 'site.version_created': {
        const d = e.data as EventData<'site.version_created'>;
        const list = f.versions.get(siteId) ?? [];
        list.push({
          siteId,
          versionId: d.versionId,
          manifestHash: d.manifestHash,
          manifest: d.manifest,
          draftRevision: d.draftRevision,
          createdAt: e.occurredAt,
          publishedAt: null,
          publishedBy: null,
          note: null,
        });
        f.versions.set(siteId, list);
        break;
      }
      case 'site.published':
      case 'site.rolled_back': {
        const d = e.data as EventData<'site.published'>;
        if (site) {
          site.publishedVersionId = d.versionId;
          site.publishedAt = e.occurredAt;
        }
        const version = f.versions.get(siteId)?.find((v) => v.versionId === d.versionId);
        if (version && version.publishedAt === null) {
          version.publishedAt = e.occurredAt;
          version.publishedBy = e.actorId;
        }
        const live = f.history
          .get(siteId)
          ?.filter((h) => h.action === 'published' || h.action === 'rolled_back')
          .at(-1);
        record(siteId, e, {
          action: e.type === 'site.published' ? 'published' : 'rolled_back',
          versionId: d.versionId,
          replacedVersionId:
            e.type === 'site.rolled_back'
              ? (e.data as EventData<'site.rolled_back'>).fromVersionId
              : (live?.versionId ?? null),
        });
        touch();
        break;
      }
      case 'site.version_restored': {
        const d = e.data as EventData<'site.version_restored'>;
        record(siteId, e, {
          action: 'restored',
          versionId: d.versionId,
          replacedVersionId: null,
          draftRevision: d.draftRevision,
        });
        break;
      }
      case 'site.publish_noted': {
        const d = e.data as EventData<'site.publish_noted'>;
        const version = f.versions.get(siteId)?.find((v) => v.versionId === d.versionId);
        if (version && version.note === null) version.note = d.note;
        break;
      }
      case 'site.suspended': {
        const d = e.data as EventData<'site.suspended'>;
        if (site) site.suspendedReason = d.reason;
        record(siteId, e, {
          action: 'suspended',
          versionId: null,
          replacedVersionId: null,
          reason: d.reason,
        });
        touch();
        break;
      }
      case 'site.unsuspended':
        if (site) site.suspendedReason = null;
        record(siteId, e, { action: 'unsuspended', versionId: null, replacedVersionId: null });
        touch();
        break;
    }
  }
  return f;
}

/** The media read models, by the rules of projections/src/builder/media-projection.ts and its queries. */
function inMemoryMediaReadModels(log: { all(): readonly StoredEvent[] }): MediaReadModels {
  const live = () => {
    const items = new Map<string, MediaView>();
    for (const e of log.all()) {
      if (e.type === 'media.uploaded') {
        const { alt, ...d } = e.data as MediaUploadedData;
        items.set(d.mediaId, { ...d, alt: alt ?? null, uploadedAt: e.occurredAt });
      } else if (e.type === 'media.deleted') items.delete((e.data as { mediaId: string }).mediaId);
    }
    return items;
  };
  const newestFirst = (a: MediaView, b: MediaView) =>
    compare(b.uploadedAt, a.uploadedAt) || compare(b.mediaId, a.mediaId);
  return {
    async mediaItem(mediaId) {
      return live().get(mediaId) ?? null;
    },
    async mediaOf(ownerAgentId, page) {
      const mine = [...live().values()].filter((m) => m.ownerAgentId === ownerAgentId).sort(newestFirst);
      const from = page.before === undefined ? 0 : mine.findIndex((m) => m.mediaId === page.before) + 1;
      if (from === 0 && page.before !== undefined) return [];
      return mine.slice(from, from + page.limit);
    },
    async mediaHeld(ownerAgentId, mediaIds) {
      const items = live();
      return [...new Set(mediaIds)].filter((id) => items.get(id)?.ownerAgentId === ownerAgentId).sort();
    },
    async renderMedia(ownerAgentId, mediaIds) {
      const items = live();
      return [...new Set(mediaIds)].flatMap((id) => {
        const m = items.get(id);
        return m && m.ownerAgentId === ownerAgentId ? [m] : [];
      });
    },
    async sitesPublishingBytes(ownerAgentId, sha256) {
      const f = foldBuilder(log.all());
      return [...f.sites.values()]
        .filter((s) => s.ownerAgentId === ownerAgentId && s.publishedVersionId !== null)
        .filter((s) =>
          f.versions
            .get(s.siteId)
            ?.find((v) => v.versionId === s.publishedVersionId)
            ?.manifest.some((entry) => entry.sha256 === sha256),
        )
        .map((s) => s.siteId)
        .sort();
    },
  };
}

/** rm_spatial_presence, by the rules of projections/src/spatial/presence-projection.ts. */
function inMemoryPresenceReadModels(log: { all(): readonly StoredEvent[] }): PresenceReadModels {
  const all = () => {
    const rows = new Map<string, PresenceView>();
    for (const e of log.all()) {
      if (e.type !== 'presence.admitted') continue;
      const d = e.data as EventData<'presence.admitted'>;
      const was = rows.get(d.receiptId);
      rows.set(d.receiptId, {
        receiptId: d.receiptId,
        worldId: was?.worldId ?? d.worldId,
        subject: was?.subject ?? d.subject,
        issuer: was?.issuer ?? { instanceId: d.issuerInstanceId, baseUrl: d.issuerBaseUrl },
        content: d.content,
        admittedAt: was?.admittedAt ?? e.occurredAt,
        renewedAt: e.occurredAt,
        expiresAt: d.expiresAt,
      });
    }
    return [...rows.values()];
  };
  const live = (p: PresenceView, now: Date) => Date.parse(p.expiresAt) > now.getTime();
  return {
    async presence(receiptId) {
      return all().find((p) => p.receiptId === receiptId) ?? null;
    },
    async livePresenceOf(subject, now, worldId) {
      return (
        all()
          .filter(
            (p) => p.subject === subject && live(p, now) && (worldId === undefined || p.worldId === worldId),
          )
          .sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt))[0] ?? null
      );
    },
    async presenceCounts(worldId, now) {
      const at = all().filter((p) => p.worldId === worldId);
      return { active: at.filter((p) => live(p, now)).length, total: new Set(at.map((p) => p.subject)).size };
    },
  };
}
