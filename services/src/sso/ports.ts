// What single sign-on needs from outside the services (docs/sso.md): its read models, the client of the
// global instance (adapters: signed peer requests through the outbound client), its settings, and the
// log where the precise reason of a refused assertion goes (the client only ever gets a generic answer).

/** A sign-on accepted here: the remote-viewer credential it minted. */
export interface SsoSessionView {
  credentialId: string;
  /** The local agent of the visiting person. */
  agentId: string;
  issuerInstanceId: string;
  home: string;
  credentialVersion: number;
  acceptedAt: string;
  expiresAt: string;
  /** Ended here: revoked (by the person's home, or by them) or expired; null while it holds. */
  endedAt: string | null;
}

/** An assertion this instance issued for one of its people. */
export interface SsoIssuedView {
  nonce: string;
  audience: string;
  credentialVersion: number;
  issuedAt: string;
  expiresAt: string;
}

export interface SsoReadModels {
  /** The local agent a person of another instance is bound to here (materialized from `origin`), or null. */
  localAgentOf(origin: string, remoteAgentId: string): Promise<string | null>;
  /** The global instance: the peer id of this person's recorded home instance, or null. */
  homeOf(agentId: string): Promise<string | null>;
  /** A delegating instance: the account's link to the person's agent at the global instance, or null. */
  linkOfAccount(
    accountId: string,
  ): Promise<{ agentId: string; origin: string; remoteAgentId: string } | null>;
  /** The local account linked to this agent of `origin` (the global instance), or null. */
  accountLinkedTo(origin: string, remoteAgentId: string): Promise<string | null>;
  /** The account whose own agent this is, or null. */
  accountOfAgent(agentId: string): Promise<string | null>;
  /** The highest credential version a revocation of this (local) agent announced; 0 when none. */
  credentialVersion(agentId: string): Promise<number>;
  /** The sign-ons accepted here for this local agent, newest first. */
  sessions(agentId: string, limit: number): Promise<SsoSessionView[]>;
  /** The assertions issued here for this agent, newest first. */
  issued(agentId: string, limit: number): Promise<SsoIssuedView[]>;
  /** Whether an assertion for this agent was ever issued here for `audience` (an origin). */
  issuedTo(agentId: string, audience: string): Promise<boolean>;
}

/** The answer of the global instance's delegated account routes. */
export interface DelegatedAccountAnswer {
  accountId: string;
  agentId: string;
  created: boolean;
}

/**
 * The global instance as a sovereign instance sees it. Each call is one signed request; a refusal comes
 * back as a DomainError carrying the global instance's own code, an unreachable instance (or no answer
 * within the timeout) as an `unavailable` one.
 */
export interface SsoGlobalClient {
  issue(
    globalBaseUrl: string,
    body: { identifier: string; password: string; audience: string },
  ): Promise<{ assertion: string }>;
  /**
   * POST remote-password/verify: whether `password` is right for the account the global instance holds
   * (identified by the person's agent id there). true, or false for its generic no.
   */
  verifyPassword(globalBaseUrl: string, body: { identifier: string; password: string }): Promise<boolean>;
  signUp(
    globalBaseUrl: string,
    body: { requestKey: string; email?: string; handle?: string; name: string; password: string },
  ): Promise<DelegatedAccountAnswer>;
  siteAccount(
    globalBaseUrl: string,
    body: { requestKey: string; email: string; name: string },
  ): Promise<DelegatedAccountAnswer>;
}

export interface SsoPorts {
  read: SsoReadModels;
  /** SSO_ASSERTION_SECONDS: how long an assertion this instance issues lives. */
  assertionSeconds: number;
  /** SSO_REMOTE_VIEWER_SECONDS: how long a remote-viewer credential minted from an assertion lives. */
  remoteViewerSeconds: number;
  /** SSO_DELEGATION: a sovereign instance checks passwords and creates accounts at the global instance. */
  delegation: boolean;
  /** Absent where this process makes no outbound calls (delegation then cannot reach the global). */
  global?: SsoGlobalClient | undefined;
  /** Test-only failpoints (TRIBUTARY_FAILPOINTS, NODE_ENV=test). */
  failpoints?: {
    /** `sso.signup.after-global`: the global instance made the account, nothing is committed here yet. */
    afterGlobalSignUp?: () => void;
  };
  /** Where the precise reason of a refusal is written (the logger); never the client. */
  log(entry: { event: string; reason: string; [key: string]: unknown }): void;
}

/** Single sign-on (docs/sso.md); composed only where it is configured. */
export interface SsoServices {
  sso: SsoPorts;
}
