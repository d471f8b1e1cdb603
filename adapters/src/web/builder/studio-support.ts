// What the builder's and the assistant's pages share: whose things a page shows (the person or one of
// their personas, `?as=`), running a catalogue operation as the signed-in person and turning its
// refusal into a notice on the page, and the owner chooser.
import { isDomainError, type DomainError } from '@tributary/domain';
import type { Request, Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import { html, type Html } from '../html.js';
import { sendPersonPage, type PagePerson } from '../page-session.js';
import type { PageOptions } from '../page-shell.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** The agent a page acts for: `as` (a query parameter or form field) when given, else the person. */
export function actingAs(req: Request): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const v = (typeof body?.as === 'string' && body.as) || req.query.as;
  return isUuid(v) ? v : undefined;
}

/** `targetAgentId` for an operation's input, when the page acts for a persona. */
export const target = (as: string | undefined) => (as ? { targetAgentId: as } : {});

/** A page path keeping the `as` choice (and other query parameters). */
export function href(path: string, as: string | undefined, query: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  if (as) q.set('as', as);
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The hidden `as` field of a form, when acting for a persona. */
export const asField = (as: string | undefined) =>
  as ? html`<input type="hidden" name="as" value="${as}" />` : '';

/** Runs a page's call; a refusal (a domain error) is returned for the page to show, anything else throws. */
export async function attempt<T>(
  f: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: DomainError }> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    if (isDomainError(e)) return { ok: false, error: e };
    throw e;
  }
}

/** The agents the person may act as: themselves, then their personas. */
export async function ownersOf(ctx: HttpContext, person: PagePerson) {
  const me = person.principal.agentId;
  const [self, personas] = await Promise.all([
    ctx.services.agents.read.agent(me),
    ctx.services.agents.read.personasOf(me),
  ]);
  return [
    { agentId: me, name: self?.name ?? 'You', self: true },
    ...personas.map((p) => ({ agentId: p.agentId, name: p.name, self: false })),
  ];
}

/** A small GET form choosing whose things the page shows (works without JavaScript). */
export function ownerChooser(
  action: string,
  owners: readonly { agentId: string; name: string; self: boolean }[],
  as: string | undefined,
): Html | '' {
  if (owners.length < 2) return '';
  return html`<form class="owner-chooser cluster" method="get" action="${action}">
    <label for="owner-as">Working as</label>
    <select id="owner-as" name="as">
      ${owners.map(
        (o) =>
          html`<option
            value="${o.self ? '' : o.agentId}"
            ${(o.self ? !as : as === o.agentId) ? html` selected` : ''}
          >
            ${o.name}${o.self ? ' (you)' : ' (identity)'}
          </option>`,
      )}
    </select>
    <button type="submit" class="btn">Switch</button>
  </form>`;
}

/** A sub-navigation of a section's pages (tabs that are plain links). */
export function tabs(items: readonly { href: string; label: string; current: boolean }[]): Html {
  return html`<nav class="tabs" aria-label="Sections">
    <ul>
      ${items.map(
        (i) =>
          html`<li><a href="${i.href}" ${i.current ? html` aria-current="page"` : ''}>${i.label}</a></li>`,
      )}
    </ul>
  </nav>`;
}

/** A builder or assistant page: the shell with this section's stylesheet. */
export function sendStudioPage(
  res: Response,
  person: PagePerson,
  o: Omit<PageOptions, 'viewer'>,
  status = 200,
) {
  sendPersonPage(res, person, { ...o, styles: ['studio.css', ...(o.styles ?? [])] }, status);
}
