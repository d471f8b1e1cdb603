// The operator's pages (controllers only): peers — add one from its URL after confirming its key id,
// rotate its shared secret, block or unblock it —, federation status per peer, and the log (recent
// public events and the last `tributary log verify`), and site suspensions (list, suspend with a
// reason, lift). Each action is the catalogue operation the CLI and /api/federation/peers run.
import { isDomainError, type DomainError } from '@tributary/domain';
import {
  federationStatus,
  listPeers,
  listSuspendedSites,
  readFeedTool,
  registerPeer,
  revokeKey,
  rotateKey,
  suspendSite,
  unsuspendSite,
  updatePeer,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import {
  badge,
  button,
  card,
  csrfField,
  field,
  keyValues,
  notice,
  postButton,
  problemNotice,
  secretBox,
  table,
  when,
} from './components.js';
import { html, type Html, type HtmlValue } from './html.js';
import {
  formText,
  pageErrors,
  pageFormBody,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';
import { sendHtml } from './page-shell.js';

/** What a peer's signed manifest says (read and verified by infra's fetchPeerManifest). */
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
function previousKeysField(text: string): { previousKeys?: unknown } {
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
const LOG_RECENT = 25;

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
  const person = await requirePerson(ctx, req, res);
  if (!person) return null;
  if (person.isOperator) return person;
  sendHtml(res, 403, {
    title: 'Operators only',
    narrow: true,
    viewer: person.viewer,
    body: html`<p>These pages are for the operators of this instance.</p>
      <p><a href="/home">Back to your home page</a></p>`,
  });
  return null;
}

/** A form post by an operator (session + CSRF token), else a 403 page; nothing is read or written first. */
export async function postingOperator(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<PagePerson | null> {
  const person = await postingPerson(ctx, req, res);
  if (!person) return null;
  if (person.isOperator) return person;
  sendHtml(res, 403, {
    title: 'Operators only',
    narrow: true,
    viewer: person.viewer,
    body: html`<p>Only the operators of this instance may do this.</p>`,
  });
  return null;
}

const NOTICES: Record<string, string> = {
  'peer-added': 'Peer registered. Sync with it starts on its own.',
  'peer-blocked': 'Peer blocked: its signed requests are refused and sync with it stops.',
  'peer-unblocked': 'Peer unblocked.',
  'key-rotated':
    'New signing key in use. The previous one stays valid for 24 hours; peers adopt the new one from our feed.',
  'key-revoked': 'Key revoked: what it signed from now on is refused by peers and flagged by log verify.',
  'site-suspended': 'Site suspended: every address of it answers 451 with the reason.',
  'site-unsuspended': 'Suspension lifted: the site serves its publication again.',
};

const ago = (iso: string | null, now: Date) => {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : s < 5400 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};

export function operatorPages(ctx: HttpContext, ports: OperatorPorts): Router {
  const r = Router();
  const body = pageFormBody(ctx);

  async function peersPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; secret?: { peer: string; value: string }; url?: string } = {},
  ) {
    const [peers, status, ownKeys] = await Promise.all([
      runOperation(ctx, listPeers, {}, person.principal).then((x) => x.result.peers),
      runOperation(ctx, federationStatus, {}, person.principal).then((x) => x.result),
      ctx.services.federationSurface?.read.instanceKeys() ?? Promise.resolve([]),
    ]);
    const now = ctx.services.clock.now();
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    const currentKey = (p: (typeof peers)[number]) =>
      p.keys.find((k) => !k.validUntil) ?? p.keys[p.keys.length - 1];
    const cursor = (c: (typeof status.peers)[number]['push'], dir: 'push' | 'pull'): HtmlValue => {
      if (!c) return html`<span class="muted">not started</span>`;
      const behind =
        dir === 'push' ? c.backlog : c.peerHead === null ? null : Math.max(0, c.peerHead - c.position);
      return html`<span class="small"
        >at <strong>${c.position}</strong>${behind === null ? '' : html`, ${behind} behind`}<br />
        last success
        ${ago(c.lastSuccessAt, now)}${c.lastErrorCode ? html`<br />${badge(c.lastErrorCode, 'danger')} ${c.lastError ?? ''}` : ''}${c.attempts ? html`<br />${c.attempts} failed in a row; next try ${when(c.nextAttemptAt)}` : ''}</span
      >`;
    };
    sendPersonPage(
      res,
      person,
      {
        title: 'Operator',
        current: '/operator',
        body: html`${operatorTabs('/operator')}
        ${NOTICES[key] ? notice('success', html`<p>${NOTICES[key]}</p>`) : ''}
        ${o.error ? problemNotice(o.error) : ''}
        ${o.secret ? secretBox({ id: 'peer-secret', label: `New shared secret for ${o.secret.peer}`, value: o.secret.value, note: 'Give it to the peer’s operator over a trusted channel. It is shown only once.' }) : ''}
        ${card(
          'Peers',
          table({
            caption: 'Peers',
            head: ['Peer', 'Role', 'Key id', 'State', 'Actions'],
            rows: peers.map((p) => [
              html`<strong>${p.name}</strong><br /><a class="small" href="${p.baseUrl}">${p.baseUrl}</a>`,
              p.role,
              html`<code>${currentKey(p)?.keyId ?? '—'}</code>`,
              p.blocked
                ? html`${badge('blocked', 'danger')}<br /><span class="small">${p.blockedReason ?? ''}</span>`
                : badge('active', 'ok'),
              html`<div class="cluster">
                ${postButton({ action: '/operator/peers/rotate', csrf: person.csrf, fields: { peerId: p.peerId }, label: html`Rotate secret<span class="visually-hidden"> of ${p.name}</span>`, confirm: `Generate a new shared secret for ${p.name}? The old one stops working.` })}
                ${
                  p.blocked
                    ? postButton({
                        action: '/operator/peers/block',
                        csrf: person.csrf,
                        fields: { peerId: p.peerId, blocked: 'false' },
                        label: html`Unblock<span class="visually-hidden"> ${p.name}</span>`,
                      })
                    : html`<details>
                        <summary>Block<span class="visually-hidden"> ${p.name}</span></summary>
                        <form method="post" action="/operator/peers/block">
                          ${csrfField(person.csrf)}<input
                            type="hidden"
                            name="peerId"
                            value="${p.peerId}"
                          /><input type="hidden" name="blocked" value="true" />
                          ${field({ name: 'reason', label: `Why block ${p.name}`, maxlength: 500 })}${button(html`Block ${p.name}`, { kind: 'danger' })}
                        </form>
                      </details>`
                }
              </div>`,
            ]),
            empty: 'No peers yet. Add one below.',
          }),
          { id: 'peers' },
        )}
        ${card(
          'This instance’s signing keys',
          html`${table({
              caption: 'Signing keys',
              head: ['Key id', 'State', 'Valid from', 'Valid until', 'Actions'],
              rows: ownKeys.map((k) => [
                html`<code>${k.keyId}</code>`,
                k.revokedAfter
                  ? html`${badge('revoked', 'danger')}<br /><span class="small">from ${k.revokedAfter}</span>`
                  : k.validUntil === null
                    ? badge('current', 'ok')
                    : 'retired',
                html`<span class="small">${k.validFrom}</span>`,
                html`<span class="small">${k.validUntil ?? '—'}</span>`,
                k.validUntil === null || k.revokedAfter
                  ? ''
                  : postButton({
                      action: '/operator/keys/revoke',
                      csrf: person.csrf,
                      fields: { keyId: k.keyId },
                      label: html`Revoke<span class="visually-hidden"> ${k.keyId}</span>`,
                      confirm: `Revoke ${k.keyId}? Whatever it signs from now on is refused by peers and flagged by log verify. This cannot be undone.`,
                    }),
              ]),
              empty: 'No keys.',
            })}
            <p class="muted">
              Rotating makes a new key sign from now on; the current one stays valid for 24 hours (<code
                >tributary keys rotate --overlap</code
              >
              sets another overlap).
            </p>
            ${postButton({
              action: '/operator/keys/rotate',
              csrf: person.csrf,
              fields: { overlapSeconds: '86400' },
              label: 'Rotate the signing key',
              confirm: 'Sign with a new key from now on? The current key stays valid for 24 hours.',
            })}`,
          { id: 'keys' },
        )}
        ${card(
          'Federation status',
          html`<p class="muted">
              Sync runs
              ${status.sync === 'off' ? html`<strong>nowhere</strong> (no sync runner in this deployment)` : status.sync === 'bullmq' ? 'on the workers (BullMQ)' : 'in this process'}.
              Push sends our public events to the peer; pull reads its feed.
            </p>
            ${table({
              caption: 'Federation status per peer',
              head: ['Peer', 'Push', 'Pull', 'Imported', 'Equivocations'],
              rows: status.peers.map((p) => [
                html`<strong>${p.name}</strong>${p.blocked ? html`<br />${badge('blocked', 'danger')}` : ''}`,
                cursor(p.push, 'push'),
                cursor(p.pull, 'pull'),
                html`<span class="small"
                  >${p.pull ? html`${p.pull.accepted} accepted, ${p.pull.duplicates} duplicates, ${p.pull.rejected} rejected` : '—'}</span
                >`,
                p.equivocations.count ? badge(String(p.equivocations.count), 'danger') : '0',
              ]),
              empty: 'No peers to sync with.',
            })}`,
          { id: 'federation' },
        )}
        ${card(
          'Add a peer',
          html`<p>
              Give the peer’s address. This instance reads its signed manifest, and you confirm its key id
              with the peer’s operator before anything is registered.
            </p>
            <form method="post" action="/operator/peers/check">
              ${csrfField(person.csrf)}
              ${field({ name: 'baseUrl', label: 'Peer address', type: 'url', value: o.url, required: true, placeholder: 'https://peer.example', hint: 'Its base URL, as in its manifest.' })}
              <div class="actions">${button('Read its manifest', { kind: 'primary' })}</div>
            </form>`,
          { id: 'add-peer' },
        )}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/operator', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (person) await peersPage(req, res, person);
  });

  // Step 1: read and verify the manifest, show what it says, ask for the key id.
  r.post('/operator/peers/check', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const baseUrl = formText(req, 'baseUrl').trim();
    let m: PeerManifestFacts;
    try {
      m = await ports.fetchPeerManifest(baseUrl);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return peersPage(req, res, person, {
        status: e.kind === 'unavailable' ? 502 : 400,
        error: e,
        url: baseUrl,
      });
    }
    sendPersonPage(res, person, {
      title: `Add ${m.name}?`,
      current: '/operator',
      narrow: true,
      body: html`${operatorTabs('')}
        <p>
          The manifest at <code>${m.baseUrl}</code> is whole and signed by the key it names. That proves
          nothing about who runs it: ask the peer’s operator for their key id (<code
            >tributary federation identity</code
          >
          prints it) and type it below.
        </p>
        ${keyValues([
          ['Name', m.name],
          ['Instance id', html`<code>${m.instanceId}</code>`],
          ['Role', m.role],
          ['Key id in the manifest', html`<code data-field="manifest-key-id">${m.keyId}</code>`],
        ])}
        <form method="post" action="/operator/peers">
          ${csrfField(person.csrf)}
          ${(['instanceId', 'baseUrl', 'role', 'publicKey', 'name'] as const).map((k) => html`<input type="hidden" name="${k}" value="${m[k]}" />`)}
          <input type="hidden" name="previousKeys" value="${JSON.stringify(m.previousKeys)}" />
          ${field({ name: 'keyId', label: 'Key id, as the peer’s operator gave it', required: true, autocomplete: 'off' })}
          <div class="actions">
            ${button('Register this peer', { kind: 'primary' })}<a class="btn" href="/operator">Cancel</a>
          </div>
        </form>`,
    });
  });

  // Step 2: register with the typed key id; register_peer refuses it unless it is the key's own.
  r.post('/operator/peers', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    try {
      const { result } = await runOperation(
        ctx,
        registerPeer,
        {
          peerId: formText(req, 'instanceId'),
          baseUrl: formText(req, 'baseUrl'),
          role: formText(req, 'role'),
          publicKey: formText(req, 'publicKey'),
          keyId: formText(req, 'keyId').trim(),
          name: formText(req, 'name'),
          ...previousKeysField(formText(req, 'previousKeys')),
        },
        person.principal,
      );
      if (result.secret)
        return peersPage(req, res, person, {
          status: 201,
          secret: { peer: result.name, value: result.secret },
        });
      redirectWithNotice(res, '/operator', 'peer-added');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await peersPage(req, res, person, {
        status: e.kind === 'conflict' ? 409 : 400,
        error: e,
        url: formText(req, 'baseUrl'),
      });
    }
  });

  // The instance's own key: the same operations as REST, MCP and `tributary keys` (svc.instance.*_key).
  r.post('/operator/keys/rotate', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(
        ctx,
        rotateKey,
        { overlapSeconds: Number(formText(req, 'overlapSeconds')) },
        person.principal,
      );
      redirectWithNotice(res, '/operator', 'key-rotated');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await peersPage(req, res, person, { status: e.kind === 'conflict' ? 409 : 400, error: e });
    }
  });

  r.post('/operator/keys/revoke', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(ctx, revokeKey, { keyId: formText(req, 'keyId') }, person.principal);
      redirectWithNotice(res, '/operator', 'key-revoked');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await peersPage(req, res, person, {
        status: e.kind === 'conflict' ? 409 : e.kind === 'not_found' ? 404 : 400,
        error: e,
      });
    }
  });

  r.post('/operator/peers/rotate', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const { result } = await runOperation(
      ctx,
      updatePeer,
      { peerId: formText(req, 'peerId'), rotateSecret: true },
      person.principal,
    );
    await peersPage(req, res, person, { secret: { peer: result.name, value: result.secret ?? '' } });
  });

  r.post('/operator/peers/block', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const blocked = formText(req, 'blocked') === 'true';
    const reason = formText(req, 'reason').trim();
    await runOperation(
      ctx,
      updatePeer,
      { peerId: formText(req, 'peerId'), blocked, ...(blocked && reason && { reason }) },
      person.principal,
    );
    redirectWithNotice(res, '/operator', blocked ? 'peer-blocked' : 'peer-unblocked');
  });

  async function sitesPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; siteId?: string; reason?: string } = {},
  ) {
    const after = typeof req.query.after === 'string' ? req.query.after : undefined;
    const page = (await runOperation(ctx, listSuspendedSites, { ...(after && { after }) }, person.principal))
      .result;
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    sendPersonPage(
      res,
      person,
      {
        title: 'Operator',
        current: '/operator',
        body: html`${operatorTabs('/operator/sites')}
        ${NOTICES[key] ? notice('success', html`<p>${NOTICES[key]}</p>`) : ''}
        ${o.error ? problemNotice(o.error) : ''}
        ${card(
          'Suspended sites',
          html`${table({
            caption: 'Suspended sites',
            head: ['Site', 'Reason', 'Since', 'Actions'],
            rows: page.sites.map((s) => [
              html`<strong>${s.title}</strong><br /><code class="small">${s.siteId}</code><br /><span
                  class="small muted"
                  >owner <code>${s.ownerAgentId}</code></span
                >`,
              s.reason,
              when(s.suspendedAt),
              postButton({
                action: '/operator/sites/lift',
                csrf: person.csrf,
                fields: { siteId: s.siteId },
                label: html`Lift<span class="visually-hidden"> the suspension of ${s.title}</span>`,
              }),
            ]),
            empty: after ? 'No more suspended sites.' : 'No site is suspended.',
          })}
          ${page.nextAfter ? html`<p><a href="/operator/sites?after=${encodeURIComponent(page.nextAfter)}">Next page</a></p>` : ''}`,
          { id: 'suspended' },
        )}
        ${card(
          'Suspend a site',
          html`<p>
              A suspended site answers 451 with the reason at every address and domain, and serves none of its
              content until an operator lifts it. Its owner sees the reason.
            </p>
            <form method="post" action="/operator/sites/suspend">
              ${csrfField(person.csrf)}
              ${field({ name: 'siteId', label: 'Site id', value: o.siteId, required: true, autocomplete: 'off', hint: 'As the site’s owner sees it, or from the site’s settings.' })}
              ${field({ name: 'reason', label: 'Reason', value: o.reason, required: true, maxlength: 500, hint: 'Shown to the owner and on the 451 page.' })}
              <div class="actions">${button('Suspend the site', { kind: 'danger' })}</div>
            </form>`,
          { id: 'suspend' },
        )}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/operator/sites', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (person) await sitesPage(req, res, person);
  });

  r.post('/operator/sites/suspend', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const siteId = formText(req, 'siteId').trim();
    const reason = formText(req, 'reason').trim();
    try {
      await runOperation(ctx, suspendSite, { siteId, reason }, person.principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return sitesPage(req, res, person, {
        status: e.kind === 'not_found' ? 404 : 400,
        error: e,
        siteId,
        reason,
      });
    }
    redirectWithNotice(res, '/operator/sites', 'site-suspended');
  });

  r.post('/operator/sites/lift', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(ctx, unsuspendSite, { siteId: formText(req, 'siteId') }, person.principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return sitesPage(req, res, person, { status: e.kind === 'not_found' ? 404 : 400, error: e });
    }
    redirectWithNotice(res, '/operator/sites', 'site-unsuspended');
  });

  r.get('/operator/log', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (!person) return;
    const head = (await runOperation(ctx, readFeedTool, { since: 0, limit: 1 }, person.principal)).result
      .head;
    const [feed, verify] = await Promise.all([
      runOperation(
        ctx,
        readFeedTool,
        { since: Math.max(0, head - LOG_RECENT), limit: LOG_RECENT },
        person.principal,
      ).then((x) => x.result.events),
      ports.lastLogVerifyRun(),
    ]);
    sendPersonPage(res, person, {
      title: 'Operator',
      current: '/operator',
      body: html`${operatorTabs('/operator/log')}
        ${card(
          'Log verification',
          verify
            ? html`${verify.ok ? notice('success', html`<p><strong>The log verified.</strong> Every signature and every stream’s version chain checked out.</p>`) : notice('error', html`<p><strong>The log did not verify</strong> at position ${verify.firstBad?.position ?? '?'}: <code>${verify.firstBad?.code ?? ''}</code> ${verify.firstBad?.reason ?? ''}</p>`)}
              ${keyValues([
                [
                  'Last run',
                  html`${when(verify.finishedAt)} (${ago(verify.finishedAt, ctx.services.clock.now())})`,
                ],
                ['Events checked', String(verify.events)],
                ['Streams', String(verify.streams)],
              ])}`
            : notice('warning', html`<p>The log has not been verified on this instance yet.</p>`),
          { id: 'verify' },
        )}
        <p class="muted small">
          Run <code>tributary log verify</code> on the server to check again: it replays the whole log and
          re-verifies every signature; its result shows here.
        </p>
        ${card(
          'Recent public events',
          html`<p class="muted">
              The head of the feed is <strong>${head}</strong>. The latest events peers can read, newest
              first.
            </p>
            ${table({
              caption: 'Recent public events',
              head: ['Seq', 'When', 'Type', 'Stream', 'Origin'],
              rows: [...feed]
                .reverse()
                .map((e) => [
                  String(e.sequence),
                  when(e.event.occurredAt),
                  html`<code>${e.event.type}</code>`,
                  html`<code>${e.event.stream}</code>`,
                  html`<code>${e.event.origin.slice(0, 8)}</code>`,
                ]),
              empty: 'No public events yet.',
            })}`,
          { id: 'events' },
        )}`,
    });
  });
  r.use(pageErrors(ctx));
  return r;
}
