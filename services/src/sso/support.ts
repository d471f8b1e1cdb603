// What the single-sign-on operations share (docs/sso.md): the area's ports, assertions encoded for
// transport, the global peer, the password check with the sign-in throttle, issuing an assertion, and
// verifying one in the stated order with one generic refusal.
import {
  accountStream,
  DomainError,
  GLOBAL_ROLE,
  isDomainError,
  SSO_ASSERTION_MAX_CHARS,
  SSO_ASSERTION_MAX_SECONDS,
  SSO_ASSERTION_TYPE,
  SSO_CLOCK_SKEW_SECONDS,
  ssoAssertionSchema,
  ssoAuthorityStream,
  ssoTiming,
  unauthenticated,
  type NewEvent,
  type SsoAssertion,
  type SsoAuthorityState,
  type SsoClaims,
} from '@tributary/domain';
import { randomBytes } from 'node:crypto';
import type { SsoOperationContext } from './sso-operation.js';
import type { SsoAreaServices, SsoOperationServices } from './sso-operation.js';
import type { FederationServices, FederationSurfaceServices, PeerView } from '../federation/ports/index.js';
import {
  accountBudget,
  identifierBudget,
  normalizeIdentifier,
  refuseWhileOverBudget,
  restoreBudget,
  spendBudget,
} from '../shared/password-budget.js';

/** The origin of an http(s) URL, or null. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** An assertion as it travels (a query parameter or a JSON string): base64url of its JSON text. */
export const encodeAssertion = (a: SsoAssertion): string =>
  Buffer.from(JSON.stringify(a), 'utf8').toString('base64url');

/** The registered, unblocked peer whose role is `global`, or null (none, or this is the global). */
export async function globalPeerOf(services: SsoAreaServices): Promise<PeerView | null> {
  const peers = (await services.federation?.read.peers()) ?? [];
  return peers.find((p) => p.role === GLOBAL_ROLE && !p.blocked) ?? null;
}

/** The registered, unblocked peer at this origin, or null. */
export async function peerAtOrigin(services: SsoAreaServices, origin: string): Promise<PeerView | null> {
  const peers = (await services.federation?.read.peers()) ?? [];
  return peers.find((p) => !p.blocked && originOf(p.baseUrl) === origin) ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The account's current password hash: a reset (account.password_changed) replaces the one sign-up set.
 * (The accounts area has the same read; this area may not import it, as accounts imports this one.)
 */
export async function currentPasswordHash(services: SsoAreaServices, accountId: string): Promise<string> {
  return (await passwordState(services, accountId)).hash;
}

/** The account's current password hash, and whether an operator disabled the account. */
async function passwordState(services: SsoAreaServices, accountId: string) {
  const events = await services.store.readStream(accountStream(accountId));
  const latest = events
    .filter((e) => e.type === 'account.registered' || e.type === 'account.password_changed')
    .at(-1);
  const disabled = events.filter((e) => e.type === 'account.disabled' || e.type === 'account.enabled').at(-1);
  return { hash: String(latest?.data.passwordHash ?? ''), disabled: disabled?.type === 'account.disabled' };
}

/**
 * The local account an identifier and password stand for, or null for a wrong password and an unknown
 * account alike (a dummy hash is checked then, so both take the same time). Failures count against the
 * identifier's and the account's password budgets, the same ones sign-in spends; over either it is 429
 * `auth.throttled`. An account `visibleTo` refuses is treated as unknown: its hash is not checked and
 * its own budget is not spent. A disabled account is a no too.
 */
export async function checkLocalPassword(
  services: SsoOperationServices,
  identifier: string,
  password: string,
  options: {
    byAgentId?: boolean;
    visibleTo?: (account: { accountId: string; agentId: string }) => Promise<boolean>;
  } = {},
): Promise<{ accountId: string; agentId: string } | null> {
  const id = normalizeIdentifier(identifier);
  const keys = [identifierBudget(services, id)];
  await refuseWhileOverBudget(services, keys);
  // A peer that linked an account to one of our people names it by its agent id (docs/sso.md#one-agent).
  const byAgent = options.byAgentId && UUID.test(id) ? await services.sso.read.accountOfAgent(id) : null;
  const found = byAgent
    ? await services.accounts.read.accountById(byAgent)
    : await services.accounts.read.accountByIdentifier(id);
  const account = found && (!options.visibleTo || (await options.visibleTo(found))) ? found : null;
  if (account) {
    keys.push(accountBudget(account.accountId));
    await refuseWhileOverBudget(services, keys.slice(1));
  }
  let matches = false;
  let disabled = false;
  if (account) {
    // The latest hash: a reset (account.password_changed) replaces the one sign-up set.
    const state = await passwordState(services, account.accountId);
    matches = await services.accounts.passwords.verify(password, state.hash);
    disabled = state.disabled;
  } else await services.accounts.passwords.verifyDummy(password);
  if (!account || !matches) {
    await spendBudget(services, keys);
    return null;
  }
  await restoreBudget(services, keys);
  // A disabled account vouches for no one: the same no as a wrong password (it was not a guess).
  if (disabled) return null;
  return { accountId: account.accountId, agentId: account.agentId };
}

/**
 * Issues an assertion for one of this instance's people, for one registered peer (`audience`, an
 * origin), and records it on the person's authority stream (what `svc.sso.list_remote_sessions` shows).
 */
export async function issueAssertionFor(
  ctx: SsoOperationContext,
  agentId: string,
  audience: string,
): Promise<{ assertion: string; expiresAt: string; audience: string; claims: SsoClaims }> {
  const { services } = ctx;
  const sso = services.sso;
  const agent = await services.agents.read.agent(agentId);
  if (!agent) throw new DomainError('agent.not_found', 'not_found', 'no such agent');
  const now = services.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const lifetime = Math.min(Math.max(1, sso.assertionSeconds), SSO_ASSERTION_MAX_SECONDS);
  const nonce = randomBytes(16).toString('base64url');
  const base = ctx.instance.baseUrl.replace(/\/+$/, '');
  // The person's home: the one recorded here (a sovereign whose sign-up made the account), else here.
  const homeId = await sso.read.homeOf(agentId);
  const homePeer = homeId ? await services.federation.read.peer(homeId) : null;
  const home = (homePeer && !homePeer.blocked && originOf(homePeer.baseUrl)) || originOf(base)!;
  const stream = ssoAuthorityStream(agentId);
  let claims: SsoClaims | undefined;
  await ctx.commit(
    [stream],
    (states): NewEvent[] => {
      const authority = states.get(stream) as SsoAuthorityState;
      claims = {
        v: 1,
        type: SSO_ASSERTION_TYPE,
        sub: agentId,
        handle: agent.handle ?? null,
        name: agent.name,
        home,
        iss: { instanceId: ctx.instance.instanceId, baseUrl: base },
        aud: audience,
        cv: authority.credentialVersion,
        iat,
        exp: iat + lifetime,
        nonce,
      };
      return [
        {
          stream,
          type: 'sso.assertion_issued',
          data: {
            agentId,
            audience,
            nonce,
            credentialVersion: authority.credentialVersion,
            issuedAt: new Date(iat * 1000).toISOString(),
            expiresAt: new Date((iat + lifetime) * 1000).toISOString(),
          },
        },
      ];
    },
    { actorId: agentId },
  );
  const documents = services.federationSurface.documents;
  const assertion: SsoAssertion = {
    claims: claims!,
    signature: {
      algorithm: 'Ed25519',
      canonicalization: 'JCS-RFC8785',
      keyId: documents.keyId,
      value: documents.sign(claims!),
    },
  };
  return {
    assertion: encodeAssertion(assertion),
    expiresAt: new Date(claims!.exp * 1000).toISOString(),
    audience,
    claims: claims!,
  };
}

/** The one answer every refused assertion gets; the reason goes to the log only. */
export function assertionRejected(
  services: SsoAreaServices,
  reason: string,
  extra: Record<string, unknown> = {},
) {
  services.sso?.log({ event: 'sso.assertion_rejected', reason, ...extra });
  return unauthenticated('sso.assertion_rejected', 'the sign-on assertion was not accepted');
}

export interface VerifiedAssertion {
  claims: SsoClaims;
  /** The local agent the person is bound to here. */
  localAgentId: string;
}

/**
 * Checks an assertion in the stated order (docs/sso.md#verification): shape, audience, issuer, time,
 * signature, then the person's local agent and credential version. The nonce is burned by the caller,
 * after this and before anything is minted. Every failure is `sso.assertion_rejected`.
 */
export async function verifyAssertion(
  ctx: SsoOperationContext,
  encoded: unknown,
): Promise<VerifiedAssertion> {
  const { services } = ctx;
  const sso = services.sso;
  const claims = await verifySignedAssertion(ctx, encoded);
  const reject = (reason: string, extra?: Record<string, unknown>) =>
    assertionRejected(services, reason, extra);
  // 6. The person as known here: their local agent, and a credential version not revoked since.
  const localAgentId = await sso.read.localAgentOf(claims.iss.instanceId, claims.sub);
  const agent = localAgentId ? await services.agents.read.agent(localAgentId) : null;
  if (!agent || agent.placeholder) throw reject('unknown_person', { subject: claims.sub });
  if (claims.cv < (await sso.read.credentialVersion(agent.agentId)))
    throw reject('revoked_credential_version', { cv: claims.cv });
  return { claims, localAgentId: agent.agentId };
}

/** What the signature checks need: the federation slices, present in an sso operation or a delegation. */
export interface AssertionCheckContext {
  instance: { baseUrl: string };
  services: SsoAreaServices & FederationServices & FederationSurfaceServices;
}

/** Steps 1–5 of the verification: shape, audience, issuer, time, signature. */
export async function verifySignedAssertion(
  ctx: AssertionCheckContext,
  encoded: unknown,
): Promise<SsoClaims> {
  const { services } = ctx;
  const reject = (reason: string, extra?: Record<string, unknown>) =>
    assertionRejected(services, reason, extra);
  // 1. Shape: bounded, base64url, strict JSON (no duplicate keys), exactly the claims and nothing else.
  if (typeof encoded !== 'string' || encoded.length === 0) throw reject('missing');
  if (encoded.length > SSO_ASSERTION_MAX_CHARS) throw reject('oversized', { length: encoded.length });
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) throw reject('not_base64url');
  let parsed: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64url'));
    parsed = services.federationSurface.documents.parseStrict(text);
  } catch (e) {
    if (!isDomainError(e) && !(e instanceof TypeError)) throw e;
    throw reject('not_json');
  }
  const shape = ssoAssertionSchema.safeParse(parsed);
  if (!shape.success)
    throw reject('bad_shape', {
      issues: shape.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.code}`),
    });
  const { claims, signature } = shape.data;
  // 2. Audience: exactly this instance's origin.
  if (claims.aud !== originOf(ctx.instance.baseUrl)) throw reject('wrong_audience', { audience: claims.aud });
  // 3. Issuer: a registered, unblocked peer at the base URL it names, allowed to issue for this person
  //    (the global instance, or the person's home), with the key the signature names.
  const peer = await services.federation.read.peer(claims.iss.instanceId);
  if (!peer || peer.blocked || originOf(peer.baseUrl) !== originOf(claims.iss.baseUrl))
    throw reject('unknown_issuer', { issuer: claims.iss.instanceId });
  if (peer.role !== GLOBAL_ROLE && originOf(claims.home) !== originOf(peer.baseUrl))
    throw reject('issuer_not_allowed', { issuer: claims.iss.instanceId, role: peer.role });
  const now = services.clock.now();
  const key = peer.keys.find((k) => k.keyId === signature.keyId);
  if (!key || (key.validUntil !== null && now.getTime() >= Date.parse(key.validUntil)))
    throw reject('unknown_key', { keyId: signature.keyId });
  // 4. Time, with a bounded skew either way.
  const timing = ssoTiming(claims, Math.floor(now.getTime() / 1000), SSO_CLOCK_SKEW_SECONDS);
  if (timing !== 'ok') throw reject(timing, { iat: claims.iat, exp: claims.exp });
  // 5. The signature, against the key we hold for the issuer (never one the assertion carries).
  let verified = false;
  try {
    verified = services.federationSurface.documents.verify(claims, signature.value, key.publicKey);
  } catch (e) {
    if (!isDomainError(e)) throw e;
  }
  if (!verified) throw reject('bad_signature');
  return claims;
}
