// The server-side record of remote-viewer credentials (`svc_remote_viewer`): a person from another
// instance, signed in there, viewing here read-only. The cookie holds a random secret; only its digest is
// kept, with the local agent that stands for the visitor, their home instance, the expiry and revocation.
export interface RemoteViewerCredentialRecord {
  credentialId: string;
  /** SHA-256 (hex) of the secret the cookie carries. */
  tokenHash: string;
  /** The local (materialized) agent of the visiting person. */
  agentId: string;
  /** The visitor's home instance (its base URL). */
  home: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface RemoteViewerCredentials {
  insert(record: Omit<RemoteViewerCredentialRecord, 'revokedAt'>): Promise<void>;
  byTokenHash(tokenHash: string): Promise<RemoteViewerCredentialRecord | null>;
  /** Marks it revoked (idempotent); false when there is no such credential. */
  revoke(credentialId: string, at: string): Promise<boolean>;
}
