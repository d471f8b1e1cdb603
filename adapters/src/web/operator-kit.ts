// What every operator page shares: the operator check in front of each page and form, the tabs, the
// ports infra fills in, and the notices.
import { type Request, type Response } from 'express';
import { type HttpContext } from '../http/index.js';
import { html, type Html } from './html.js';
import { postingPerson, requirePerson, type PagePerson } from './page-session.js';
import { sendHtml } from './page-shell.js';

export interface PeerManifestFacts {
  instanceId: string;
  role: string;
  name: string;
  baseUrl: string;
  publicKey: string;
  keyId: string;
  /** The earlier keys the manifest lists (signed by the current key), oldest first. */
  previousKeys: {
    keyId: string;
    publicKey: string;
    validFrom: string;
    validUntil: string;
    revokedAfter?: string;
  }[];
}

/** The manifest's earlier keys carried through the confirmation form; register_peer's schema judges them. */
export function previousKeysField(text: string): { previousKeys?: unknown } {
  if (text === '' || text === '[]') return {};
  try {
    return { previousKeys: JSON.parse(text) as unknown };
  } catch {
    return { previousKeys: text };
  }
}

/** The last `tributary log verify` run (log_verify_runs). */
export interface LogVerifyRun {
  startedAt: string;
  finishedAt: string;
  ok: boolean;
  events: number;
  streams: number;
  firstBad: {
    position: number;
    id: string | null;
    stream: string | null;
    code: string;
    reason: string;
  } | null;
}

/** What the operator pages need from infra: reading a peer's manifest over the guarded client, the verify record. */
export interface OperatorPorts {
  fetchPeerManifest(baseUrl: string): Promise<PeerManifestFacts>;
  lastLogVerifyRun(): Promise<LogVerifyRun | null>;
}

/** Recent public events on the log page. */
export const LOG_RECENT = 25;

export const OPERATOR_TABS: readonly (readonly [string, string])[] = [
  ['/operator', 'Peers and federation'],
  ['/operator/sites', 'Site suspensions'],
  ['/operator/accounts', 'Accounts'],
  ['/operator/log', 'Log'],
  ['/operator/outbox', 'Outbox'],
  ['/operator/settings', 'Settings'],
];

/** The operator section's own navigation, under the page title. */
export const operatorTabs = (current: string): Html =>
  html`<nav aria-label="Operator" class="cluster tabs">
    ${OPERATOR_TABS.map(([href, label]) =>
      href === current
        ? html`<a href="${href}" aria-current="page" class="btn btn-primary">${label}</a>`
        : html`<a href="${href}" class="btn">${label}</a>`,
    )}
  </nav>`;

/** The page guard for operators: a visitor signs in; a signed-in non-operator gets a 403 page. */
export async function requireOperator(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<PagePerson | null> {
  return operatorOnly(
    res,
    await requirePerson(ctx, req, res),
    html`<p>These pages are for the operators of this instance.</p>
      <p><a href="/home">Back to your home page</a></p>`,
  );
}

/** A form post by an operator (session + CSRF token), else a 403 page; nothing is read or written first. */
export async function postingOperator(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<PagePerson | null> {
  return operatorOnly(
    res,
    await postingPerson(ctx, req, res),
    html`<p>Only the operators of this instance may do this.</p>`,
  );
}

/** The person if an operator; a signed-in non-operator gets the 403 page saying `why`. */
function operatorOnly(res: Response, person: PagePerson | null, why: Html): PagePerson | null {
  if (!person || person.isOperator) return person;
  sendHtml(res, 403, { title: 'Operators only', narrow: true, viewer: person.viewer, body: why });
  return null;
}

export const NOTICES: Record<string, string> = {
  'peer-added': 'Peer registered. Sync with it starts on its own.',
  'peer-blocked': 'Peer blocked: its signed requests are refused and sync with it stops.',
  'peer-unblocked': 'Peer unblocked.',
  'key-rotated':
    'New signing key in use. The previous one stays valid for 24 hours; peers adopt the new one from our feed.',
  'key-revoked': 'Key revoked: what it signed from now on is refused by peers and flagged by log verify.',
  'site-suspended': 'Site suspended: every address of it answers 451 with the reason.',
  'site-unsuspended': 'Suspension lifted: the site serves its publication again.',
};

export const ago = (iso: string | null, now: Date) => {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : s < 5400 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};
