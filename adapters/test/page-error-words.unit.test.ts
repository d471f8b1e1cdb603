// Every refusal a page can show has plain words (docs/web.md#errors): the codes of the areas people meet
// on pages — their accounts, personas, agent access, mail, the assistant, the builder, the operator's
// instance and peers, and the requests a browser makes — each have a sentence in error-words.ts or a
// reason in CODES_NEVER_ON_PAGES why no page shows them.
import { DOMAIN_ERROR_CODE_LISTS, DOMAIN_ERROR_CODES } from '@tributary/domain';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { SURFACE_ERROR_CODES } from '../src/http/error-codes.js';
import { problemNotice } from '../src/web/components.js';
import { CODES_NEVER_ON_PAGES, errorWords, PAGE_ERROR_WORDS } from '../src/web/error-words.js';
import { waitWords } from '../src/web/error-words-kit.js';

/** The lists whose every code a page may show (the federation's and the spatial, manifest and payment
 * areas' codes are answered to peers and API clients; the operator's peer pages are checked below). */
const PAGE_LISTS = [
  'shared',
  'edge',
  'accounts',
  'agents',
  'tokens',
  'oauth',
  'mail',
  'assistant',
  'instance',
  'sso',
  'builder',
] as const;

const reasonFor = (code: string) =>
  CODES_NEVER_ON_PAGES[code] ?? CODES_NEVER_ON_PAGES[`${code.split('.')[0]}.*`];

/** The codes of the page lists and the surfaces' own, less those only `tributary log verify` reports. */
function pageCodes(): string[] {
  const codes: string[] = [];
  for (const list of PAGE_LISTS)
    for (const [code, entry] of Object.entries(DOMAIN_ERROR_CODE_LISTS[list])) {
      const status = (entry as { status?: string }).status ?? '';
      if (!status.includes('log verify')) codes.push(code);
    }
  return [...codes, ...Object.keys(SURFACE_ERROR_CODES)];
}

/** The federation codes written in the sources behind the operator's peer pages. */
const OPERATOR_PEER_SOURCES = [
  'services/src/federation/register-peer.ts',
  'services/src/federation/update-peer.ts',
  'services/src/federation/peer-page.ts',
  'services/src/federation/peer-schemas.ts',
  'services/src/federation/federation-operation.ts',
  'domain/src/federation/peer.ts',
  'adapters/src/federation/url-guard.ts',
  'infra/src/federation/fetch-peer-manifest.ts',
];
const repo = new URL('../../', import.meta.url);
function operatorPeerCodes(): string[] {
  const found = new Set<string>();
  for (const file of OPERATOR_PEER_SOURCES)
    for (const m of readFileSync(new URL(file, repo), 'utf8').matchAll(/'(federation\.[a-z_]+)'/g))
      if (Object.hasOwn(DOMAIN_ERROR_CODES, m[1]!)) found.add(m[1]!);
  return [...found].sort();
}

/** A refusal of `code` with every detail an entry reads. */
const sample = (code: string) => ({
  code,
  message: 'the reason the API gives',
  details: { retryAfter: 30, limit: 8000, maxBytes: 10_000_000, siteIds: ['a', 'b'] },
});

describe('refusals in words on pages', () => {
  test('given the codes of the areas pages show, then each has words or a reason no page shows it', () => {
    const missing = pageCodes().filter((c) => !Object.hasOwn(PAGE_ERROR_WORDS, c) && !reasonFor(c));
    assert.deepEqual(missing, [], `codes with neither words nor a reason: ${missing.join(', ')}`);
  });

  test('given the operator’s peer pages, then every federation code their sources raise has words', () => {
    const codes = operatorPeerCodes();
    assert.ok(codes.length >= 10, `found ${codes.join(', ')}`);
    assert.deepEqual(
      codes.filter((c) => !Object.hasOwn(PAGE_ERROR_WORDS, c)),
      [],
    );
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
