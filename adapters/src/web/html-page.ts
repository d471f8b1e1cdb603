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

/**
 * A token's status in words (Agent access, connected apps): the API's value with spaces, except
 * persona_deleted, since the pages call a persona an identity.
 */
export const tokenStatusWords = (status: string) =>
  status === 'persona_deleted' ? 'identity deleted' : status.replace(/_/g, ' ');

/** A scope in plain words (the consent page, the token form, the reference). */
export function describeScope(scope: string): string {
  const words: Record<string, string> = {
    'svc.admin': 'operate this instance (operators only)',
    'svc.wallet.read': 'see your wallet',
    'svc.wallet.spend': 'spend from your wallet',
    'svc.account.export': 'export all your data',
    'svc.builder.read': 'see your sites and their drafts',
    'svc.builder.write': 'edit and publish your sites',
    'svc.spatial.read': 'see your worlds',
    'svc.spatial.write': 'build and change your worlds',
    'svc.manifest.read': 'read signed manifests',
    'svc.manifest.write': 'sign manifests for you',
    'svc.assistant.read': 'read your conversations with the assistant',
    'svc.assistant.write': 'talk to the assistant and run the plans you confirm',
    'svc.agent.read': 'see your identities',
    'svc.agent.write': 'create and change your identities',
    'svc.profile.read': 'read your profile',
    'svc.profile.write': 'change your profile',
    'svc.tokens.read': 'list your tokens',
    'svc.tokens.write': 'revoke your tokens',
    'svc.audit.read': 'read what your agents did (tool calls)',
    'svc.log.read': 'read your signed events',
    'svc.sso.read': 'see your sign-ins on other instances',
    'svc.sso.write': 'manage your sign-ins on other instances',
    'svc.instance.read': 'read what this instance is',
    'svc.federation.read': 'see how this instance federates',
  };
  if (words[scope]) return words[scope];
  const m = /^svc\.([a-z0-9_-]+)\.(read|write)$/.exec(scope);
  if (!m) return scope;
  return `${m[2] === 'read' ? 'read' : 'change'} your ${m[1]!.replace(/[_-]/g, ' ')}`;
}
