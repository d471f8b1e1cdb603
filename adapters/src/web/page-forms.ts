// What the HTML pages' forms share: the CSRF token, the session check that guards every form post, and
// the "act as" choice of the signed-in person's agents.
import type { Principal } from '@tributary/services';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { principalOf, type HttpContext, sessionToken } from '../http/index.js';
import { esc, sendPage } from './html-page.js';

export const safeEqual = (a: string | undefined, b: string) =>
  !!a && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** CSRF token for a session: only the holder of the session cookie can compute it. */
export const csrfFor = (ctx: HttpContext, req: Request) => {
  const t = sessionToken(req, ctx.cookie);
  return t ? ctx.services.ids.sha256(`csrf:${t}`) : undefined;
};

/**
 * The session behind a form post, or null after answering 403 when there is no session or the form's
 * CSRF token is missing or wrong.
 */
export async function formSession(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<Extract<Principal, { kind: 'session' }> | null> {
  const given = (req.body as Record<string, unknown> | undefined)?.csrf;
  const principal = await principalOf(ctx, req);
  const csrf = csrfFor(ctx, req);
  if (
    principal.kind !== 'session' ||
    !csrf ||
    !safeEqual(typeof given === 'string' ? given : undefined, csrf)
  ) {
    sendPage(res, 403, 'Cannot continue', '<p>This form has expired or did not come from this site.</p>');
    return null;
  }
  return principal;
}

/** `<option>`s for the agents a person may act as: themselves, then their personas. */
export async function personaOptions(ctx: HttpContext, agentId: string): Promise<string> {
  const [me, personas] = await Promise.all([
    ctx.services.agents.read.agent(agentId),
    ctx.services.agents.read.personasOf(agentId),
  ]);
  return [me, ...personas]
    .filter((a) => !!a)
    .map(
      (a) =>
        `<option value="${esc(a.agentId)}">${esc(a.name)}${a.handle ? ` (@${esc(a.handle)})` : ''}</option>`,
    )
    .join('');
}
