// Accounts as JSON routes: sign-up, sign-in, sign-out, and who am I.
import { signIn, signOut, signUp, signUpAnswer, type NewSession } from '@tributary/services';
import { Router, type Response } from 'express';
import { principalOf, type HttpContext } from '../context.js';
import { sendProblem } from '../problem.js';
import { clearSessionCookie, setSessionCookie } from '../session.js';
import { runOperation } from '../run-operation.js';
import {
  aliasOperationId,
  openApiJson as json,
  optionalSessionSecurity,
  problemResponse as problem,
  publicSecurity,
  sessionSecurity as session,
} from '../openapi-parts.js';

export function authRoutes(ctx: HttpContext): Router {
  const r = Router();
  const signedIn = (
    res: Response,
    status: number,
    out: { accountId: string; agentId: string; session: NewSession },
    extra: Record<string, unknown> = {},
  ) => {
    setSessionCookie(res, ctx.cookie, out.session.token, out.session.expiresAt);
    // The session secret travels only in the cookie.
    res
      .status(status)
      .json({ accountId: out.accountId, agentId: out.agentId, expiresAt: out.session.expiresAt, ...extra });
  };

  r.post('/signup', async (req, res) => {
    const { result } = await runOperation(ctx, signUp, req.body, 'anonymous');
    // Sign-up also says what it made of the account: the first one is the operator, and on a person
    // instance the instance's person too; otherwise only /api/auth/me would tell.
    signedIn(res, 201, result, { operator: result.operator, instancePerson: result.instancePerson });
  });

  r.post('/signin', async (req, res) => {
    const { result } = await runOperation(ctx, signIn, req.body, 'anonymous');
    signedIn(res, 200, result);
  });

  r.post('/signout', async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind === 'session') await runOperation(ctx, signOut, {}, principal);
    clearSessionCookie(res, ctx.cookie);
    res.status(204).end();
  });

  r.get('/me', async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind !== 'session')
      return sendProblem(res, { status: 401, code: 'auth.required', title: 'Sign in first' });
    const [account, agent, instance] = await Promise.all([
      ctx.services.accounts.read.accountById(principal.accountId),
      ctx.services.agents.read.agent(principal.agentId),
      ctx.services.instance.read.get(),
    ]);
    res.json({
      accountId: principal.accountId,
      email: account?.email ?? null,
      handle: account?.handle ?? null,
      // The zone the person's pages show times in (svc.account.set_time_zone); null: each browser's own.
      timeZone: account?.timeZone ?? null,
      agent,
      isOperator: !!instance?.controllers.includes(principal.accountId),
    });
  });
  return r;
}

/** The OpenAPI paths of these routes. */
export function authPaths(): Record<string, unknown> {
  return {
    '/api/auth/signup': {
      post: {
        operationId: signUp.name,
        security: publicSecurity,
        summary: signUp.description,
        requestBody: { required: true, content: { 'application/json': { schema: json(signUp.input) } } },
        responses: {
          '201': {
            description: 'Signed up and signed in; sets the session cookie',
            content: { 'application/json': { schema: json(signUpAnswer) } },
          },
          default: problem,
        },
      },
    },
    '/api/auth/signin': {
      post: {
        operationId: signIn.name,
        security: publicSecurity,
        summary: signIn.description,
        requestBody: { required: true, content: { 'application/json': { schema: json(signIn.input) } } },
        responses: { '200': { description: 'Signed in; sets the session cookie' }, default: problem },
      },
    },
    '/api/auth/signout': {
      post: {
        operationId: aliasOperationId('svc.auth.sign_out'),
        security: optionalSessionSecurity,
        summary: 'End the session and clear its cookie',
        responses: { '204': { description: 'Signed out' } },
      },
    },
    '/api/auth/me': {
      get: {
        operationId: 'svc.auth.me',
        security: session,
        summary: 'The signed-in account (with the time zone it chose for its pages) and its agent',
        responses: { '200': { description: 'The signed-in account' }, default: problem },
      },
    },
  };
}
