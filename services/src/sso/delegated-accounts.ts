// The global instance's delegated accounts (docs/sso.md#delegated-accounts): a sovereign instance asks,
// by a signed request, for a new account (sign-up) or for the account of a site's visitor (find or
// create by email). Each request carries a key: the same key with the same request answers the same
// account again and writes nothing; the same key with another request is refused. The account's agent
// then reaches the sovereign through the federation feed like any other.
import {
  accountStream,
  agentStream,
  conflict,
  decideRecordHome,
  decideRegisterAccount,
  emailStream,
  handleStream,
  INSTANCE_STREAM,
  invalid,
  isDomainError,
  normalizeEmail,
  refuseReservedHandle,
  ssoHomeStream,
  ssoRequestStream,
  type AccountState,
  type ClaimState,
  type InstanceState,
  type NewEvent,
  type SsoOnceState,
  type SsoRequestState,
} from '@tributary/domain';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineSsoOperation, type SsoOperationContext } from './sso-operation.js';
import { withClaimConflicts } from '../shared/claim-conflicts.js';
import { displayName, emailSchema, handleSchema, password } from '../shared/schemas.js';
import { instanceSettings } from '../instance/index.js';
import { peerCaller } from './peer-caller.js';
import { currentPasswordHash } from './support.js';
import {
  accountBudget,
  refuseWhileOverBudget,
  restoreBudget,
  spendBudget,
} from '../shared/password-budget.js';

const requestKey = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and -');

const delegatedAnswer = z.object({
  accountId: z.string(),
  agentId: z.string(),
  created: z
    .boolean()
    .describe('false when the account already existed (site accounts) or the request was repeated'),
});

type Kind = 'signup' | 'site_account';

interface Delegated {
  kind: Kind;
  requestKey: string;
  /** What the key stands for: a repeat must be the same request. */
  request: Record<string, unknown>;
  email?: string | undefined;
  handle?: string | undefined;
  name: string;
  passwordHash: () => Promise<string>;
  /** Site accounts: an existing account with this email is the answer. */
  findExisting?: boolean;
  /**
   * Sign-up: a repeat must also know the account's password (the key is derived from the identifiers,
   * so anyone can name it); a repeat that does not is answered as a new sign-up of a taken identifier.
   */
  confirmRepeat?: (accountId: string) => Promise<void>;
}

async function delegate(ctx: SsoOperationContext, d: Delegated) {
  const { services } = ctx;
  const peerId = peerCaller(ctx, 'create delegated accounts');
  const stream = ssoRequestStream(services.ids.sha256(`${peerId}\n${d.kind}\n${d.requestKey}`));
  const requestDigest = services.ids.sha256(JSON.stringify(d.request));
  const repeat = async (s: SsoRequestState) => {
    if (s.requestDigest !== requestDigest)
      throw conflict('sso.request_key_reused', 'that request key was used for another request');
    await d.confirmRepeat?.(s.accountId!);
    return { accountId: s.accountId!, agentId: s.agentId!, created: false };
  };
  const held = async () => {
    const events = await services.store.readStream(stream);
    const e = events.find((x) => x.type === 'sso.delegated_account');
    return e ? (e.data as unknown as SsoRequestState) : null;
  };
  const before = await held();
  if (before) return await repeat(before);

  const email = d.email ? normalizeEmail(d.email) : undefined;
  const emailDigest = email ? services.ids.sha256(`email:${email}`) : undefined;
  const record = (accountId: string, agentId: string, created: boolean): NewEvent => ({
    stream,
    type: 'sso.delegated_account',
    data: { peerId, requestKey: d.requestKey, kind: d.kind, requestDigest, accountId, agentId, created },
  });
  try {
    if (d.findExisting && email) {
      const existing = await services.accounts.read.accountByIdentifier(email);
      if (existing) {
        await ctx.commit([stream], () => [record(existing.accountId, existing.agentId, false)], {
          actorId: existing.agentId,
        });
        return { accountId: existing.accountId, agentId: existing.agentId, created: false };
      }
    }
    const passwordHash = await d.passwordHash();
    const accountId = services.ids.entityId();
    const agentId = services.ids.entityId();
    const streams = [INSTANCE_STREAM, accountStream(accountId), agentStream(agentId), stream];
    if (emailDigest) streams.push(emailStream(emailDigest));
    if (d.handle) streams.push(handleStream(d.handle));
    // A sovereign's sign-up makes it the person's home: the hand-off goes there by default.
    if (d.kind === 'signup') streams.push(ssoHomeStream(agentId));
    let madeAgentId = agentId;
    await withClaimConflicts(() =>
      ctx.commit(
        streams,
        (states) => {
          const registered = decideRegisterAccount(
            {
              accountId,
              newAgentId: agentId,
              name: d.name,
              email,
              emailDigest,
              handle: d.handle,
              passwordHash,
            },
            {
              instance: states.get(INSTANCE_STREAM) as InstanceState,
              account: states.get(accountStream(accountId)) as AccountState,
              emailClaim: (emailDigest
                ? states.get(emailStream(emailDigest))
                : { claimed: false }) as ClaimState,
              handleClaim: (d.handle ? states.get(handleStream(d.handle)) : { claimed: false }) as ClaimState,
            },
          );
          const reg = registered.find((e) => e.type === 'account.registered');
          madeAgentId = String((reg?.data as { agentId?: string } | undefined)?.agentId ?? agentId);
          const home =
            d.kind === 'signup' && madeAgentId === agentId
              ? decideRecordHome(
                  { agentId, accountId, peerId },
                  states.get(ssoHomeStream(agentId)) as SsoOnceState,
                )
              : [];
          return [...registered, record(accountId, madeAgentId, true), ...home];
        },
        { actorId: agentId },
      ),
    );
    return { accountId, agentId: madeAgentId, created: true };
  } catch (e) {
    // The same key at the same moment from a retry: the loser finds the request stream taken.
    if (isDomainError(e) && e.code === 'log.stream_conflict') {
      const now = await held();
      if (now) return await repeat(now);
    }
    throw e;
  }
}

export const delegatedSignUp = defineSsoOperation({
  name: 'svc.sso.delegated_sign_up',
  title: 'Create an account for a sovereign instance',
  description:
    'The global instance creates an account a sovereign instance delegated (validation, unique email and handle); idempotent by request key.',
  kind: 'command',
  ownEndpoint: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    requestKey,
    email: emailSchema.optional(),
    handle: handleSchema.optional(),
    name: displayName.optional(),
    password,
  }),
  output: delegatedAnswer,
  async run(ctx, input) {
    if (!input.email && !input.handle)
      throw invalid('account.identifier_required', 'give an email or a handle');
    const email = input.email ? normalizeEmail(input.email) : undefined;
    const { services } = ctx;
    // This instance's list, whatever the sovereign's says; before the request key is looked at, so a
    // handle reserved since is not made by a retry either.
    refuseReservedHandle(input.handle, (await instanceSettings(services)).reservedHandles);
    return delegate(ctx, {
      kind: 'signup',
      requestKey: input.requestKey,
      // What a retry of a sign-up must repeat: the identifiers (the name may differ; the first one made
      // the account). The password is not in it — never stored in the clear, nor as a fast digest — and
      // is checked against the account's own hash instead (docs/sso.md#delegation).
      request: { email: email ?? null, handle: input.handle ?? null },
      email,
      handle: input.handle,
      name: input.name ?? input.handle ?? email!.split('@')[0]!,
      passwordHash: () => services.accounts.passwords.hash(input.password),
      async confirmRepeat(accountId) {
        const keys = [accountBudget(accountId)];
        await refuseWhileOverBudget(services, keys);
        if (
          await services.accounts.passwords.verify(
            input.password,
            await currentPasswordHash(services, accountId),
          )
        ) {
          await restoreBudget(services, keys);
          return;
        }
        await spendBudget(services, keys);
        // Without the password this is not the same person's retry: the identifier is taken, as a fresh
        // sign-up would be told.
        if (email) throw conflict('account.email_taken', 'an account with that email already exists');
        throw conflict('agent.handle_taken', `the handle @${input.handle} is taken`, {
          handle: input.handle,
        });
      },
    });
  },
});

export const delegatedSiteAccount = defineSsoOperation({
  name: 'svc.sso.site_account',
  title: 'Find or create the account of a site’s visitor',
  description:
    'The global instance finds the account with this email or creates one without a usable password (its owner sets one later); idempotent by request key.',
  kind: 'command',
  ownEndpoint: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({ requestKey, email: emailSchema, name: displayName.optional() }),
  output: delegatedAnswer,
  async run(ctx, input) {
    const email = normalizeEmail(input.email);
    return delegate(ctx, {
      kind: 'site_account',
      requestKey: input.requestKey,
      request: { email, name: input.name ?? null },
      email,
      name: input.name ?? email.split('@')[0]!,
      // Nobody knows this password: the account is signed into once its owner sets one.
      passwordHash: () => ctx.services.accounts.passwords.hash(randomBytes(32).toString('base64url')),
      findExisting: true,
    });
  },
});
