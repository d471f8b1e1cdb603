// Every refusal a page can show has plain words (docs/web.md#errors): every code of every list the
// domain composes (each area's, the shared and the edge codes) and the surfaces' own has a sentence in
// the tables of error-words*.ts, or a reason in CODES_NEVER_ON_PAGES why no page shows it. The lists are
// read from the registry itself, so a new code, or a new area, without words fails here.
import { DOMAIN_ERROR_CODE_LISTS, DOMAIN_ERROR_CODES } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { SURFACE_ERROR_CODES } from '../src/http/error-codes.js';
import { problemNotice } from '../src/web/components.js';
import { CODES_NEVER_ON_PAGES, codeWords, errorWords, PAGE_ERROR_WORDS } from '../src/web/error-words.js';
import { waitWords } from '../src/web/error-words-kit.js';

const reasonFor = (code: string) =>
  CODES_NEVER_ON_PAGES[code] ?? CODES_NEVER_ON_PAGES[`${code.split('.')[0]}.*`];

/** Every code of every list and the surfaces' own, less those only `tributary log verify` reports. */
function pageCodes(): string[] {
  const codes: string[] = [];
  for (const list of Object.values(DOMAIN_ERROR_CODE_LISTS))
    for (const [code, entry] of Object.entries(list)) {
      const status = (entry as { status?: string }).status ?? '';
      if (!status.includes('log verify')) codes.push(code);
    }
  return [...codes, ...Object.keys(SURFACE_ERROR_CODES)];
}

/** Areas whose every code has words, none a reason: a person meets them as a peer's last error on the
 * Peers page, an assistant's or agent's step outcome, or the page a browser gets from their addresses. */
const AREAS_ALL_IN_WORDS = ['federation', 'spatial', 'manifests', 'payments'] as const;

/** A refusal of `code` with every detail an entry reads. */
const sample = (code: string) => ({
  code,
  message: 'the reason the API gives',
  details: { retryAfter: 30, limit: 8000, maxBytes: 10_000_000, siteIds: ['a', 'b'] },
});

describe('refusals in words on pages', () => {
  test('given every code of every area, then each has words or a reason no page shows it', () => {
    const missing = pageCodes().filter((c) => !Object.hasOwn(PAGE_ERROR_WORDS, c) && !reasonFor(c));
    assert.deepEqual(missing, [], `codes with neither words nor a reason: ${missing.join(', ')}`);
  });

  test('given the federation, spatial, manifest and payment codes, then every one has words', () => {
    for (const area of AREAS_ALL_IN_WORDS) {
      const codes = Object.keys(DOMAIN_ERROR_CODE_LISTS[area]);
      assert.ok(codes.length > 0, area);
      assert.deepEqual(
        codes.filter((c) => !Object.hasOwn(PAGE_ERROR_WORDS, c)),
        [],
        `${area}: codes without words`,
      );
    }
  });

  test('given a spatial, manifest or payment code, when only the code was kept (a step’s outcome), then it still reads as words', () => {
    for (const area of ['spatial', 'manifests', 'payments'] as const)
      for (const code of Object.keys(DOMAIN_ERROR_CODE_LISTS[area]))
        assert.match(codeWords(code) ?? '', /^[A-Z].*\.$/, code);
    assert.match(codeWords('follow.unknown_agent') ?? '', /@handle@host/);
  });

  test('given the tables, then each names a code that exists, and none both has words and is never shown', () => {
    const known = new Set([...Object.keys(DOMAIN_ERROR_CODES), ...Object.keys(SURFACE_ERROR_CODES)]);
    const families = new Set([...known].map((c) => `${c.split('.')[0]}.*`));
    assert.deepEqual(
      Object.keys(PAGE_ERROR_WORDS).filter((c) => !known.has(c)),
      [],
    );
    assert.deepEqual(
      Object.keys(CODES_NEVER_ON_PAGES).filter((c) => !known.has(c) && !families.has(c)),
      [],
    );
    assert.deepEqual(
      Object.keys(PAGE_ERROR_WORDS).filter((c) => reasonFor(c)),
      [],
    );
    for (const [code, why] of Object.entries(CODES_NEVER_ON_PAGES)) assert.ok(why.length > 10, code);
  });

  test('given every entry, when put in words, then it is sentences: a capital first, a full stop last, no gaps', () => {
    for (const code of Object.keys(PAGE_ERROR_WORDS))
      for (const e of [sample(code), { code, message: 'the reason the API gives' }]) {
        const words = errorWords(e)!;
        assert.match(words, /^[A-Z“]/, `${code}: ${words}`);
        assert.match(words, /[.!]$/, `${code}: ${words}`);
        assert.doesNotMatch(words, /undefined|NaN|\[object|\.\.$/, `${code}: ${words}`);
      }
  });

  test('given an account refusal, when shown on a page, then the words come first and the code in small print', () => {
    const shown = problemNotice(
      { code: 'auth.throttled', message: 'too many wrong passwords', details: { retryAfter: 600 } },
      '',
    ).text;
    assert.match(shown, /Too many tries with a wrong password[^<]*Try again in 10 minutes\./);
    assert.match(
      shown,
      /class="small muted">Error code: <code data-error-code="auth.throttled">auth.throttled<\/code>/,
    );
    assert.doesNotMatch(shown, /too many wrong passwords/);
  });

  test('given a peer’s refusal kept as its code (the Peers page’s last error), when shown, then it says what to do, the code in small print', () => {
    const shown = problemNotice(
      { code: 'federation.unknown_peer', message: 'peer answered 401: no registered peer holds that key' },
      '',
    ).text;
    assert.match(shown, /no registered peer holds\. Each instance must register the other as a peer/);
    assert.match(shown, /<code data-error-code="federation.unknown_peer">federation.unknown_peer<\/code>/);
    assert.doesNotMatch(shown, /peer answered 401/);
  });

  test('given links refused in a draft, then each is named by its line in its list (or as the link of a button), with how to write one', () => {
    const links = [
      { path: 'pages.0.blocks.2.items.1.url', value: 'ada at adasbakery' },
      { path: 'footer.links.0.url', value: 'adasbakery.example' },
      { path: 'pages.1.blocks.0.columns.0.blocks.3.url', value: 'javascript:x' },
    ];
    const words = errorWords({
      code: 'builder.link_invalid',
      message: 'pages.0.blocks.2.items.1.url: not a web address',
      details: { ...links[0], links },
    });
    assert.equal(
      words,
      'Line 2: ‘ada at adasbakery’ is not a web address or email address. Line 1: ‘adasbakery.example’ is not a web address or email address. The link ‘javascript:x’ is not a web address or email address. Write it like https://example.com, name@example.com or /a-page (a page of this site).',
    );
    const shown = problemNotice(
      { code: 'builder.link_invalid', message: 'x', details: { ...links[0], links: [links[0]] } },
      'Not saved.',
    ).text;
    assert.match(shown, /Line 2: ‘ada at adasbakery’ is not a web address or email address\./);
    assert.match(shown, /<code data-error-code="builder.link_invalid">builder.link_invalid<\/code>/);
  });

  test('given how long to wait, then it is said in seconds, minutes or hours', () => {
    const wait = (retryAfter: unknown) => waitWords({ code: 'x', message: '', details: { retryAfter } });
    assert.equal(wait(1), 'in 1 second');
    assert.equal(wait(45), 'in 45 seconds');
    assert.equal(wait(900), 'in 15 minutes');
    assert.equal(wait(7200), 'in about 2 hours');
    assert.equal(wait(undefined), 'in a few minutes');
  });
});
