// The operator's peers page (/operator): add a peer from its URL after confirming its key id, rotate its
// shared secret, block or unblock it, federation status per peer, and this instance's own keys.
import { isDomainError, type DomainError } from '@tributary/domain';
import {
  federationStatus,
  listPeers,
  registerPeer,
  revokeKey,
  rotateKey,
  updatePeer,
} from '@tributary/services';
import type { Request, Response, Router } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import { errorWords } from './error-words.js';
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
import { html, type HtmlValue } from './html.js';
import {
  formText,
  pageFormBody,
  redirectWithNotice,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';
import {
  operatorTabs,
  requireOperator,
  postingOperator,
  NOTICES,
  ago,
  type OperatorPorts,
  type PeerManifestFacts,
  previousKeysField,
} from './operator-kit.js';

/** Peers a page on /operator. */
const OPERATOR_PAGE = 50;

export function operatorPeersRoutes(r: Router, ctx: HttpContext, ports: OperatorPorts): void {
  const body = pageFormBody(ctx);
  async function peersPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; secret?: { peer: string; value: string }; url?: string } = {},
  ) {
    // A page of peers (?after&state, docs/web.md#operator): the peer list and the status table show the
    // same page, in registration order. A cursor or state the page cannot use says so above the first page.
    const asked = {
      ...(typeof req.query.after === 'string' && req.query.after && { after: req.query.after }),
      ...(typeof req.query.state === 'string' && req.query.state && { state: req.query.state }),
    };
    const read = (paging: Record<string, string>) =>
      Promise.all([
        runOperation(ctx, listPeers, { limit: OPERATOR_PAGE, ...paging }, person.principal).then(
          (x) => x.result,
        ),
        runOperation(ctx, federationStatus, { limit: OPERATOR_PAGE, ...paging }, person.principal).then(
          (x) => x.result,
        ),
      ]);
    let paging: Record<string, string> = asked;
    let pageError: DomainError | undefined;
    const [listed, status] = await read(asked).catch((e: unknown) => {
      if (!isDomainError(e) || e.kind !== 'invalid' || Object.keys(asked).length === 0) throw e;
      pageError = e;
      paging = {};
      return read({});
    });
    const peers = listed.peers;
    const summary = listed.summary;
    const ownKeys = await (ctx.services.federationSurface?.read.instanceKeys() ?? Promise.resolve([]));
    const pageLink = (q: Record<string, string>) =>
      `/operator${Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : ''}#peers`;
    const stateLink = (state: string, count: number, label: string) =>
      paging.state === state
        ? html`<strong>${count} ${label}</strong>`
        : html`<a href="${pageLink({ state })}">${count} ${label}</a>`;
    const peersNav = html`<p>
        ${summary.total} ${summary.total === 1 ? 'peer' : 'peers'}:
        ${stateLink('reachable', summary.reachable, 'reachable')},
        ${stateLink('failing', summary.failing, 'failing')},
        ${stateLink('unknown', summary.unknown, 'not contacted yet')},
        ${stateLink('blocked', summary.blocked, 'blocked')}${paging.state ? html` · <a href="${pageLink({})}">all peers</a>` : ''}.
        ${summary.lag.pushBehind || summary.lag.pullBehind ? html`Sync behind: push to ${summary.lag.pushBehind} (at most ${summary.lag.pushMaxBehind} events), pull from ${summary.lag.pullBehind} (at most ${summary.lag.pullMaxBehind}).` : ''}
      </p>
      ${
        paging.after || listed.next
          ? html`<nav aria-label="Pages of peers" class="cluster">
              ${paging.after ? html`<a href="${pageLink(paging.state ? { state: paging.state } : {})}">First page</a>` : ''}
              ${listed.next ? html`<a href="${pageLink({ ...(paging.state && { state: paging.state }), after: listed.next })}">Next ${OPERATOR_PAGE} peers</a>` : ''}
            </nav>`
          : ''
      }`;
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
        ${ago(c.lastSuccessAt, now)}${c.lastErrorCode ? html`<br />${badge('failing', 'danger')} ${errorWords({ code: c.lastErrorCode, message: c.lastError ?? '' }) ?? c.lastError ?? ''} <small class="code" data-error-code="${c.lastErrorCode}">${c.lastErrorCode}</small>` : ''}${c.attempts ? html`<br />${c.attempts} failed in a row; next try ${when(c.nextAttemptAt)}` : ''}</span
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
        ${o.error ? problemNotice(o.error) : ''} ${pageError ? problemNotice(pageError) : ''}
        ${o.secret ? secretBox({ id: 'peer-secret', label: `New shared secret for ${o.secret.peer}`, value: o.secret.value, note: 'Give it to the peer’s operator over a trusted channel. It is shown only once.' }) : ''}
        ${card(
          'Peers',
          html`${peersNav}${table({
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
            empty: paging.state ? 'No peers in that state.' : 'No peers yet. Add one below.',
          })}`,
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
}
