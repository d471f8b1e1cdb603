// The older pages' helpers (consent, device approval, connected apps): a title and a body built with
// `esc`, framed by the shared page shell (page-shell.ts), so they look like every other page.
import type { Response } from 'express';
import { esc } from './html.js';
import { sendHtml, type PageViewer } from './page-shell.js';

export { esc };

export const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v!)}">`)
    .join('\n');

export function sendPage(res: Response, status: number, title: string, body: string, viewer?: PageViewer) {
  // No form-action: the consent form's answer redirects to the client's own site.
  sendHtml(res, status, { title, body, narrow: true, viewer: viewer ?? null, csp: { formAction: null } });
}

/** A scope in plain words for the consent page. */
export function describeScope(scope: string): string {
  const special: Record<string, string> = {
    'svc.admin': 'operate this instance',
    'svc.wallet.read': 'see your wallet',
    'svc.wallet.spend': 'spend from your wallet',
    'svc.account.export': 'export all your data',
  };
  if (special[scope]) return special[scope];
  const m = /^svc\.([a-z0-9_-]+)\.(read|write)$/.exec(scope);
  if (!m) return scope;
  return `${m[2] === 'read' ? 'read' : 'change'} your ${m[1]!.replace(/[_-]/g, ' ')}`;
}
