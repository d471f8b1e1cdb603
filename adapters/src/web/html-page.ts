// Server-rendered pages for people (consent, device approval, connected apps): no JavaScript, readable
// on a phone, framed by nobody, never cached.
import type { Response } from 'express';

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v!)}">`)
    .join('\n');

export function sendPage(res: Response, status: number, title: string, body: string) {
  res
    .status(status)
    .setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    )
    .setHeader('X-Frame-Options', 'DENY')
    // Not the app-wide no-referrer: under it browsers send `Origin: null` with form posts, which the
    // same-origin check must refuse. same-origin still sends nothing to other sites.
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
label,input,select,button{display:block;width:100%;margin:.4rem 0;font-size:1rem;box-sizing:border-box}
input,select{padding:.5rem}button{padding:.6rem;cursor:pointer}.row{display:flex;gap:.5rem}.muted{color:#555}
.unverified{border:2px solid #b45309;background:#fef3c7;color:#111;padding:.6rem .8rem;border-radius:.4rem}</style>
</head><body><h1>${esc(title)}</h1>
${body}
</body></html>`,
    );
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
