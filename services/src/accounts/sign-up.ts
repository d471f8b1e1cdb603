import {
  accountStream,
  agentStream,
  sessionStream,
  decideRegisterAccount,
  decideStartSession,
  emailStream,
  handleStream,
  forbidden,
  INSTANCE_STREAM,
  invalid,
  isDomainError,
  normalizeEmail,
  refuseReservedHandle,
  ssoLinkStream,
  type AccountState,
  type ClaimState,
  type InstanceState,
  type SsoOnceState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAccountsOperation } from './accounts-operation.js';
import { withClaimConflicts } from '../shared/claim-conflicts.js';
import { displayName, emailSchema, handleSchema, password } from '../shared/schemas.js';
import { newSession, type NewSession } from './session-token.js';
import { linkEvents, withDelegatedAccount } from '../sso/index.js';
import { instanceSettings } from '../instance/index.js';

/** What sign-up answers (the session secret travels only in the cookie). */
export const signUpAnswer = z.object({
  accountId: z.string(),
  agentId: z.string().describe('the account’s own agent'),
  expiresAt: z.string().describe('when the session ends'),
  operator: z.boolean().describe('this account became an operator of the instance (the first account does)'),
  instancePerson: z
    .boolean()
    .describe(
      'on a person instance, the first account becomes the person the instance stands for: its agent is the instance’s primary agent, renamed to this account’s name',
    ),
});

export const signUp = defineAccountsOperation({
  name: 'svc.auth.sign_up',
  title: 'Sign up',
  description:
    'Create an account (email and/or handle + password) and sign in. The first account controls the instance.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    email: emailSchema.optional(),
    handle: handleSchema.optional(),
    password,
    name: displayName.optional(),
    setupCode: z
      .string()
      .max(100)
      .optional()
      .describe(
        'the first account on an instance listening beyond loopback: the setup code its start printed (docs/operations.md#the-first-operator)',
      ),
  }),
  async run(
    ctx,
    input,
  ): Promise<{
    accountId: string;
    agentId: string;
    session: NewSession;
    operator: boolean;
    instancePerson: boolean;
  }> {
    if (!input.email && !input.handle)
      throw invalid('account.identifier_required', 'give an email or a handle');
    const { services, instance } = ctx;
    // Closed by the operators (a run-time setting); the first account, who becomes one, always may.
    const settings = await instanceSettings(services);
    if (instance.controllers.length > 0 && !settings.signupOpen)
      throw forbidden('account.signup_closed', 'sign-up is closed on this instance');
    // Whoever reaches sign-up first on a network would own the instance: the first account proves it
    // is the operator with the code the start printed. The operator's own command line needs none.
    const claim = services.accounts.operatorClaim;
    if (instance.controllers.length === 0 && ctx.principal.kind !== 'system' && claim?.required()) {
      if (!input.setupCode)
        throw forbidden(
          'account.setup_code_required',
          'the first account on this instance must give the setup code printed where the instance was started',
        );
      if (!claim.matches(input.setupCode))
        throw forbidden('account.setup_code_invalid', 'that is not the setup code this instance printed');
    }
    // Before anything is hashed or asked of the global instance.
    refuseReservedHandle(input.handle, settings.reservedHandles);
    const email = input.email ? normalizeEmail(input.email) : undefined;
    const name = input.name ?? input.handle ?? email!.split('@')[0]!;
    // Hashing happens before the transaction and off the event loop (and before the global instance is
    // asked, so imports from it wait no longer than the call).
    const passwordHash = await services.accounts.passwords.hash(input.password);
    const accountId = services.ids.entityId();
    const newAgentId = services.ids.entityId();
    const emailDigest = email ? services.ids.sha256(`email:${email}`) : undefined;
    // The first account on a person instance takes its primary agent: presumed from the instance as read
    // before the commit, checked by the decision on the state the commit reads.
    let agentId =
      instance.controllers.length === 0 && instance.role === 'person' ? instance.primaryAgentId : newAgentId;
    const session = newSession(services, accountId);
    // What the decision did, read from the events it wrote (the instance may have changed since ctx).
    let operator = false;
    let instancePerson = false;

    // A sovereign delegating to the global instance creates the account there first (docs/sso.md#delegation):
    // its refusals are ours, and when it cannot be reached nothing is created here either. The local
    // account is linked to the global one, and its agent is the global agent's binding here.
    // The request key is derived from what names the account (docs/sso.md#delegation): a retry after a
    // crash or a failed commit here, between the global's answer and our commit, repeats the same
    // request, and the global answers the account it made (given the same password) instead of a taken
    // email or handle.
    const request = {
      requestKey: `signup-${services.ids.sha256(`signup\n${email ?? ''}\n${input.handle ?? ''}`)}`,
      ...(email && { email }),
      ...(input.handle && { handle: input.handle }),
      name,
      password: input.password,
    };
    await withDelegatedAccount(ctx, request, async (link) => {
      const attempt = () => {
        const streams = [
          INSTANCE_STREAM,
          accountStream(accountId),
          agentStream(agentId),
          sessionStream(session.sessionId),
        ];
        if (emailDigest) streams.push(emailStream(emailDigest));
        if (input.handle) streams.push(handleStream(input.handle));
        if (link) streams.push(ssoLinkStream(accountId));

        return withClaimConflicts(() =>
          ctx.commit(
            streams,
            (states) => {
              const account = states.get(accountStream(accountId)) as AccountState;
              const registered = decideRegisterAccount(
                {
                  accountId,
                  newAgentId,
                  name,
                  email,
                  emailDigest,
                  handle: input.handle,
                  passwordHash,
                },
                {
                  instance: states.get(INSTANCE_STREAM) as InstanceState,
                  account,
                  emailClaim: (emailDigest
                    ? states.get(emailStream(emailDigest))
                    : { claimed: false }) as ClaimState,
                  handleClaim: (input.handle
                    ? states.get(handleStream(input.handle))
                    : { claimed: false }) as ClaimState,
                },
              );
              // Another first sign-up took the primary agent since the instance was read: start again.
              if (registered.some((e) => e.type === 'account.registered' && e.data.agentId !== agentId))
                throw new LostFirstSignUp();
              operator = registered.some((e) => e.type === 'instance.controller_granted');
              instancePerson = registered.some(
                (e) => e.type === 'agent.profile_updated' && e.stream === agentStream(agentId),
              );
              const signedIn = decideStartSession(
                { ...session.record, passwordMatches: true },
                { exists: true, accountId, agentId },
              );
              const linked = link
                ? linkEvents({
                    accountId,
                    agentId,
                    origin: link.origin,
                    remoteAgentId: link.remoteAgentId,
                    via: 'sign_up',
                    bind: link.bind,
                    state: states.get(ssoLinkStream(accountId)) as SsoOnceState,
                  })
                : [];
              return [...registered, ...signedIn, ...linked];
            },
            { actorId: agentId },
          ),
        );
      };
      // Concurrent first sign-ups: one becomes the first account; every other starts again, once, as an
      // ordinary account (the instance has its first controller by then, and controllers never drop to 0).
      try {
        await attempt();
      } catch (e) {
        if (!lostFirstSignUp(e)) throw e;
        agentId = newAgentId;
        await attempt();
      }
    });
    if (operator) await claim?.spent();
    return { accountId, agentId, session, operator, instancePerson };
  },
});

class LostFirstSignUp extends Error {}

/** The sign-up decided it would be the first account, and another one was first. */
function lostFirstSignUp(e: unknown): boolean {
  if (e instanceof LostFirstSignUp) return true;
  if (!isDomainError(e) || e.code !== 'log.stream_conflict') return false;
  const stream = String(e.details?.stream ?? '');
  return stream === INSTANCE_STREAM || stream.startsWith('agent-');
}
