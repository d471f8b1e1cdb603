// The operator's log page (/operator/log): recent public events and the last `tributary log verify`.
import { readFeedTool } from '@tributary/services';
import type { Router } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import { card, keyValues, notice, table, when } from './components.js';
import { html } from './html.js';
import { sendPersonPage } from './page-session.js';
import { LOG_RECENT, operatorTabs, requireOperator, type OperatorPorts } from './operator-kit.js';

export function operatorLogRoutes(r: Router, ctx: HttpContext, ports: OperatorPorts): void {
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
                ['Last run', when(verify.finishedAt, 'never', { ago: true })],
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
}
