// The read models the pipeline and the operations read, derived on each read from the in-memory log by
// the same rules as the inline projections in projections/ (rm_instance, rm_agents, rm_accounts,
// rm_sessions, rm_mcp_tokens, rm_provenance, and rm_oauth_clients). Test layer only. The other OAuth
// read models (grants, refresh families, device codes) are not kept here: those operations are tested
// end to end on PostgreSQL, and asking for them throws.
import type { EventData, McpTokenIssuedData, McpTokenRevokedData, ProvenanceData } from '@tributary/domain';
import type {
  AccountView,
  AgentView,
  InstanceView,
  McpTokenView,
  OAuthClientView,
  ProvenanceQuery,
  ProvenanceView,
  ReadModels,
  SessionRecordView,
  SessionView,
  StoredEvent,
} from '@tributary/services';

interface Folded {
  instance: InstanceView | null;
  agents: Map<string, AgentView>;
  accounts: AccountView[];
  sessions: Map<string, SessionView & { tokenHash: string; startedAt: string }>;
  tokens: Map<string, Omit<McpTokenView, 'personaDeletedAt'>>;
  provenance: ProvenanceView[];
  oauthClients: Map<string, OAuthClientView>;
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
  const notKept = (name: string) => async (): Promise<never> => {
    throw new Error(`${name}: the OAuth read models are not kept in memory (test OAuth end to end)`);
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
      oauthGrantsOf: notKept('oauthGrantsOf'),
      async oauthClient(clientId: string) {
        const client = folded().oauthClients.get(clientId);
        return client ? { ...client } : null;
      },
      oauthDeviceOfUserCode: notKept('oauthDeviceOfUserCode'),
      oauthFamilyOfRefreshState: notKept('oauthFamilyOfRefreshState'),
      oauthFamilyOfRefresh: notKept('oauthFamilyOfRefresh'),
    },
  };
}

function fold(events: readonly StoredEvent[]): Folded {
  const f: Folded = {
    instance: null,
    agents: new Map(),
    accounts: [],
    sessions: new Map(),
    tokens: new Map(),
    provenance: [],
    oauthClients: new Map(),
  };
  for (const e of events) {
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
        });
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
        });
        break;
      }
    }
  }
  return f;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
