// The site server's own pages: plain HTML, no style or script (the site policy allows neither inline),
// the same for every site so they reveal nothing about what is or is not there.

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): Buffer {
  return Buffer.from(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title></head>\n<body><main><h1>${escapeHtml(title)}</h1>\n${body}\n</main></body></html>\n`,
  );
}

export const NOT_FOUND_PAGE = page('Not found', '<p>There is no page at this address.</p>');

export const METHOD_NOT_ALLOWED_PAGE = page('Method not allowed', '<p>This address cannot do that.</p>');

export const TOO_LARGE_PAGE = page('Too large', '<p>The request is larger than this address accepts.</p>');

export const SERVER_ERROR_PAGE = page('Something went wrong', '<p>Please try again later.</p>');

/** The 451 page (RFC 7725): who blocked the site and why; never any of the site's content. */
export function suspendedPage(reason: string, operator: string): Buffer {
  return page(
    'This site is suspended',
    `<p>The operator of <a href="${escapeHtml(operator)}">${escapeHtml(operator)}</a> has suspended this site.</p>\n` +
      `<p>Reason: ${escapeHtml(reason)}</p>`,
  );
}
