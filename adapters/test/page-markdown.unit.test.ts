// The vault's Markdown on a page (adapters/src/web/markdown.ts): hostile text renders inert — no tag,
// no script, no handler, no javascript:/data: link, no image — and ordinary Markdown renders.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { pageMarkdown } from '../src/web/markdown.js';

const render = (s: string) => pageMarkdown(s).text;

describe('page markdown', () => {
  test('given raw HTML (a script, an img with a handler, an iframe), when rendered, then it is text, not markup', () => {
    const out = render(
      '<script>alert(1)</script>\n\nHi <img src=x onerror=alert(2)> and <iframe src="https://evil.example"></iframe>\n\n<b onclick="x()">bold</b>',
    );
    assert.doesNotMatch(out, /<script|<img|<iframe|<b /i);
    assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(out, /&lt;img src=x onerror=alert\(2\)&gt;/);
  });

  test('given links to javascript:, data:, vbscript:, a path and a protocol-relative host, when rendered, then none is a link; http(s) and mailto are', () => {
    const out = render(
      [
        '[a](javascript:alert(1))',
        '[b](JaVaScRiPt:alert(1))',
        '[c](data:text/html;base64,PHNjcmlwdD4=)',
        '[d](vbscript:msgbox)',
        '[e](/signout)',
        '[f](//evil.example)',
        '<javascript:alert(3)>',
        '[g](https://user:pw@example.org/)',
        '[ok](https://example.org/x?a=1&b=2)',
        '[mail](mailto:ada@example.org)',
      ].join('\n\n'),
    );
    const hrefs = [...out.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(hrefs, ['https://example.org/x?a=1&amp;b=2', 'mailto:ada@example.org']);
    assert.match(out, /rel="noopener nofollow ugc"/);
    assert.doesNotMatch(out, /<a [^>]*href="(?:javascript|data|vbscript)/i);
  });

  test('given an image, when rendered, then nothing loads', () => {
    assert.doesNotMatch(render('![x](https://example.org/track.png)'), /<img/);
  });

  test('given the vault’s own Markdown, when rendered, then headings move down a level, lists and code spans stay', () => {
    const out = render(
      '# Assistant vault\n\n## Plan `p`, step 1: Create\n\n- What ran: `svc.x` with `{"a":"<b>"}`\n',
    );
    assert.match(out, /<h2>Assistant vault<\/h2>/);
    assert.match(out, /<h3>Plan <code>p<\/code>, step 1: Create<\/h3>/);
    assert.match(
      out,
      /<li>What ran: <code>svc.x<\/code> with <code>\{&quot;a&quot;:&quot;&lt;b&gt;&quot;\}<\/code><\/li>/,
    );
  });
});
