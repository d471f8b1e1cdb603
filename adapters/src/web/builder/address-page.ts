// The address and custom domains (/builder/sites/:siteId/address): claim or release the free address; connect
// (bind_domain), check and disconnect (unbind_domain) domains — in a person's words, "connect a domain".
import { type DomainError } from '@tributary/domain';
import {
  bindDomain,
  checkDomain,
  claimAddress,
  listDomains,
  readSite,
  releaseAddress,
  REPAIR_WORDS,
  unbindDomain,
} from '@tributary/services';
import type { InputRepair } from '@tributary/domain';
import type { Request, Response, Router } from 'express';
import {
  badge,
  button,
  card,
  csrfField,
  emptyState,
  field,
  keyValues,
  notice,
  postButton,
  problemNotice,
  when,
} from '../components.js';
import { html } from '../html.js';
import {
  statusOfError,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { str, type FormBody } from './draft-edits.js';
import { actingAs, asField, attempt, href, sendStudioPage, target } from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import { REASONS, siteTabs, suspendedNotice } from './builder-pieces.js';

export function addressPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, siteAddress, siteIdOf, posts } = page;
  async function addressPage(
    req: Request,
    res: Response,
    person: PagePerson,
    siteId: string,
    error?: DomainError,
    /** What was typed into the form refused, shown again in its field. */
    typed: { label?: string; domain?: string } = {},
  ) {
    const as = actingAs(req);
    const [read, domains] = await Promise.all([
      attempt(() => run(readSite, { ...target(as), siteId, limit: 1 }, person)),
      attempt(() => run(listDomains, { ...target(as), siteId }, person)),
    ]);
    if (!read.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Site not found', current: '/builder', body: problemNotice(read.error) },
        404,
      );
    const { site, address } = read.value;
    const bindings = domains.ok ? domains.value.domains : [];
    const stateBadge = (state: string) =>
      state === 'verified'
        ? badge('verified: served', 'ok')
        : state === 'failed'
          ? badge('failed', 'danger')
          : badge('pending', 'warn');
    const suggestions =
      error && Array.isArray(error.details?.suggestions)
        ? (error.details.suggestions as unknown[]).filter((l): l is string => typeof l === 'string')
        : [];
    const body = html`${noticeOf(req)} ${repairedNotice(req)}
    ${site.suspendedReason !== null ? suspendedNotice(site.suspendedReason) : ''}
    ${error ? problemNotice(error) : ''} ${siteTabs(siteId, as, 'address')}
    ${card(
      'Free address',
      address
        ? html`<p>
              The site answers at <a href="${address.url}" data-field="address-url">${address.url}</a> and, on
              this instance, at <a href="${address.pathUrl}">${address.pathUrl}</a>.
            </p>
            <p class="small muted">
              Claimed ${when(address.claimedAt)}. Releasing it holds the name back for you for a while, so
              links others keep never lead to a stranger's site.
            </p>
            ${postButton({ action: `/builder/sites/${siteId}/address/release`, csrf: person.csrf, label: 'Release this address', kind: 'danger', fields: as ? { as } : {}, confirm: 'Release this address?' })}`
        : html`${
              suggestions.length
                ? html`<div class="suggestions" data-suggestions>
                    <p>
                      ${error?.details?.label ? html`<code>${String(error.details.label)}</code> cannot be yours.` : ''}
                      Free addresses like it:
                    </p>
                    <p class="cluster">
                      ${suggestions.map((l) => postButton({ action: `/builder/sites/${siteId}/address`, csrf: person.csrf, label: html`Claim <code>${l}</code>`, kind: 'primary', fields: { label: l, ...(as && { as }) } }))}
                    </p>
                  </div>`
                : ''
            }
            <form method="post" action="/builder/sites/${siteId}/address" class="stack">
              ${csrfField(person.csrf)}${asField(as)}
              ${field({ name: 'label', label: 'Address', hint: `Type it as you like ("Ada's Bakery" becomes adas-bakery): lower-case letters, digits and hyphens, 3–63. Leave it empty for one made from the title. The site will answer at ${siteAddress('<address>')}`, maxlength: 253, value: typed.label })}
              <div class="actions">${button('Claim address', { kind: 'primary' })}</div>
            </form>`,
      { id: 'address' },
    )}
    ${card(
      'Custom domains',
      html`${
          bindings.length
            ? html`<ul class="plain stack">
                ${bindings.map(
                  (d) =>
                    html`<li class="domain card" data-domain="${d.domain}">
                      <h3>${d.domain} ${stateBadge(d.state)}</h3>
                      ${
                        d.state !== 'verified' && d.reason
                          ? notice(
                              'warning',
                              html`<p>
                                  <strong>Why it is not served yet:</strong> ${REASONS[d.reason] ?? d.reason}
                                </p>
                                ${d.detail ? html`<p class="small">${d.detail}</p>` : ''}
                                <p class="small muted">Code: <code>${d.reason}</code></p>`,
                            )
                          : ''
                      }
                      ${d.state === 'pending' && !d.reason ? html`<p class="small">Not checked yet. Create the records below, then press Re-check now.</p>` : ''}
                      <h4>DNS records to create at your DNS host</h4>
                      <ul class="records plain">
                        ${d.records.map((rec, i) => {
                          // Ids for the copy buttons (app.js copies the named element's text).
                          const id = `rec-${d.domain.replace(/[^a-z0-9]/g, '-')}-${i}`;
                          const copy = (what: string, part: string) =>
                            html`<button type="button" class="btn" data-copy="${id}-${part}" hidden>
                              Copy<span class="visually-hidden"> the ${what} of the ${rec.type} record</span>
                            </button>`;
                          return html`<li class="record">
                            ${keyValues([
                              ['Type', rec.type],
                              [
                                'Name',
                                html`<code class="break" id="${id}-name" data-record-name>${rec.name}</code>
                                  ${copy('name', 'name')}`,
                              ],
                              [
                                'Value',
                                html`<code class="break" id="${id}-value">${rec.value}</code>
                                  ${copy('value', 'value')}`,
                              ],
                              [
                                'Why',
                                rec.purpose === 'challenge'
                                  ? 'proves the domain is yours'
                                  : rec.purpose === 'alias'
                                    ? `optional: www.${d.domain} reaches the site too (sent on to ${d.domain})`
                                    : 'points the name at this instance',
                              ],
                              ['Found', foundWords(d, rec.purpose)],
                            ])}
                          </li>`;
                        })}
                      </ul>
                      <p class="small muted">
                        Connected ${when(d.boundAt)} · last checked
                        ${when(d.checkedAt, 'never')}${d.verifiedAt ? html` · verified ${when(d.verifiedAt)}` : ''}
                      </p>
                      <p class="cluster">
                        ${postButton({ action: `/builder/sites/${siteId}/domains/check`, csrf: person.csrf, label: html`Re-check now<span class="visually-hidden"> ${d.domain}</span>`, kind: 'primary', fields: { domain: d.domain, ...(as && { as }) } })}
                        ${postButton({ action: `/builder/sites/${siteId}/domains/unbind`, csrf: person.csrf, label: html`Disconnect<span class="visually-hidden"> ${d.domain}</span>`, kind: 'danger', fields: { domain: d.domain, ...(as && { as }) }, confirm: 'Disconnect this domain? The site stops answering at it.' })}
                      </p>
                    </li>`,
                )}
              </ul>`
            : emptyState(
                'No domain of yours connected yet. Connect one you own (bought from a registrar) below.',
              )
        }
        <form method="post" action="/builder/sites/${siteId}/domains" class="stack">
          ${csrfField(person.csrf)}${asField(as)}
          ${field({ name: 'domain', label: 'Domain to connect', hint: 'For example example.org (a pasted https://www.example.org/ is fine: www. reaches the site too). You will get the DNS records to create at your DNS host.', maxlength: 300, value: typed.domain })}
          <div class="actions">${button('Connect domain')}</div>
        </form>`,
      { id: 'domains' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: `Address of ${site.title}`, current: '/builder', body },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/builder/sites/:siteId/address', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (person && siteId) await addressPage(req, res, person, siteId);
  });

  const addressAction = (
    path: string,
    noticeKey: string,
    call: (person: PagePerson, as: string | undefined, siteId: string, body: FormBody) => Promise<unknown>,
  ) =>
    r.post(`/builder/sites/:siteId/${path}`, ...posts, async (req, res) => {
      const person = await postingPerson(ctx, req, res);
      const siteId = person && siteIdOf(req, res);
      if (!person || !siteId) return;
      const as = actingAs(req);
      const body = req.body as FormBody;
      const done = await attempt(() => call(person, as, siteId, body));
      if (!done.ok)
        // A refused value stays in its field, as typed.
        return addressPage(req, res, person, siteId, done.error, {
          label: str(body, 'label'),
          domain: str(body, 'domain'),
        });
      const repairs = repairsOf(done.value);
      redirectWithNotice(
        res,
        href(`/builder/sites/${siteId}/address`, as, repairs.length ? { repaired: repairs.join(',') } : {}),
        noticeKey,
      );
    });
  addressAction('address', 'claimed', (p, as, siteId, b) => {
    const label = str(b, 'label').trim();
    return run(claimAddress, { ...target(as), siteId, ...(label && { label }) }, p);
  });
  addressAction('address/release', 'released', (p, as, siteId) =>
    run(releaseAddress, { ...target(as), siteId }, p),
  );
  addressAction('domains', 'bound', (p, as, siteId, b) =>
    run(bindDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );
  addressAction('domains/check', 'checked', (p, as, siteId, b) =>
    run(checkDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );
  addressAction('domains/unbind', 'unbound', (p, as, siteId, b) =>
    run(unbindDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );
}

/** The repairs an operation's answer reports (claim_address, bind_domain). */
function repairsOf(value: unknown): InputRepair[] {
  const r = (value as { repairs?: unknown } | null)?.repairs;
  return Array.isArray(r)
    ? r.filter((x): x is InputRepair => typeof x === 'string' && x in REPAIR_WORDS)
    : [];
}

/** What was tidied in what the person typed (`?repaired=` names repairs, never carries text). */
function repairedNotice(req: Request) {
  const q = typeof req.query.repaired === 'string' ? req.query.repaired : '';
  const words = q
    .split(',')
    .filter((k): k is InputRepair => Object.hasOwn(REPAIR_WORDS, k))
    .map((k) => REPAIR_WORDS[k]);
  return words.length
    ? notice('info', html`<p data-repaired>What you typed was tidied up: ${words.join(', ')}.</p>`)
    : '';
}

/**
 * Whether the last check found a record, as far as the binding's state tells: a verified binding has
 * both it needs; a failed one names the first thing missing (the TXT record is checked first).
 */
function foundWords(
  d: { state: string; reason: string | null; detail: string | null; checkedAt: string | null },
  purpose: string,
): string {
  if (purpose === 'alias') return 'not needed to verify';
  if (d.checkedAt === null) return 'not checked yet';
  if (d.state === 'verified' && d.reason === null) return 'yes';
  if (d.reason === 'resolver_error') return 'unknown: our DNS resolver did not answer';
  const aboutTxt = (d.detail ?? '').includes('_tributary-challenge.');
  if (purpose === 'challenge')
    return aboutTxt ? (d.reason === 'wrong_value' ? 'yes, but with another value' : 'not yet') : 'yes';
  return aboutTxt
    ? 'checked once the TXT record is found'
    : d.reason === 'points_elsewhere'
      ? 'yes, but it points elsewhere'
      : 'not yet';
}
