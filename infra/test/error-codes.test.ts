// Every code the source raises or answers is in a list, with a kind its list allows; every listed code is
// used; and docs/api.md's table is what the lists generate.
import { errorCodeRows, SURFACE_ERROR_CODES } from '@tributary/adapters';
import { DOMAIN_ERROR_CODES, DomainError, domainError, invalid, type ErrorKind } from '@tributary/domain';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import { API_DOC_PATH, renderApiDoc } from '../src/scripts/write-error-codes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAYERS = ['domain', 'services', 'projections', 'adapters', 'infra'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const sources = LAYERS.flatMap((l) => sourceFiles(join(ROOT, l, 'src'))).map((file) => ({
  file: file.slice(ROOT.length),
  text: readFileSync(file, 'utf8'),
}));
// The lists themselves are where codes are defined, not used.
const users = sources.filter((s) => !/error-codes\.ts$/.test(s.file));

const CODE = `'([a-z_]+\\.[a-z_]+)'`;
const HELPER_KIND: Record<string, ErrorKind> = {
  invalid: 'invalid',
  notFound: 'not_found',
  forbidden: 'forbidden',
  conflict: 'conflict',
  unauthenticated: 'unauthenticated',
  rejected: 'invalid', // the import rules' helper
};
/** Every literal code at a site that raises or answers one, with the kind it is raised with where known. */
function raisedCodes(): { code: string; kind?: ErrorKind; where: string }[] {
  const found: { code: string; kind?: ErrorKind; where: string }[] = [];
  const scan = (
    re: RegExp,
    kindOf: (m: RegExpExecArray) => ErrorKind | undefined,
    code = (m: RegExpExecArray) => m[1]!,
  ) => {
    for (const { file, text } of users)
      for (const m of text.matchAll(re)) {
        const line = text.slice(0, m.index).split('\n').length;
        found.push({ code: code(m), kind: kindOf(m), where: `${file}:${line}` });
      }
  };
  scan(new RegExp(`new DomainError\\(\\s*${CODE},\\s*'([a-z_]+)'`, 'g'), (m) => m[2] as ErrorKind);
  scan(new RegExp(`\\b(?:domainError|fail)\\(\\s*${CODE},\\s*'([a-z_]+)'`, 'g'), (m) => m[2] as ErrorKind);
  scan(
    new RegExp(`\\b(${Object.keys(HELPER_KIND).join('|')})\\(\\s*${CODE}`, 'g'),
    (m) => HELPER_KIND[m[1]!],
    (m) => m[2]!,
  );
  scan(new RegExp(`\\bcode: ${CODE}`, 'g'), () => undefined);
  scan(
    /\boauthError\(\s*'([a-z_]+)'/g,
    (m) => (m[1] === 'invalid_client' ? 'unauthenticated' : 'invalid'),
    (m) => `oauth.${m[1]}`,
  );
  return found;
}

test('given the source, then every code raised or answered is in a list, raised with a kind its list allows', () => {
  const raised = raisedCodes();
  assert.ok(raised.length > 150, `only ${raised.length} sites found: the scan is broken`);
  const domain = DOMAIN_ERROR_CODES as Record<string, { kinds: readonly ErrorKind[] }>;
  for (const { code, kind, where } of raised) {
    const entry = domain[code];
    if (!entry) {
      assert.ok(code in SURFACE_ERROR_CODES, `${where}: ${code} is in no error-code list`);
      continue;
    }
    if (kind)
      assert.ok(
        entry.kinds.includes(kind),
        `${where}: ${code} raised as ${kind}, listed as ${entry.kinds.join(', ')}`,
      );
  }
});

test('given the lists, then every listed code is used somewhere in the source', () => {
  const all = users.map((s) => s.text).join('\n');
  for (const code of [...Object.keys(DOMAIN_ERROR_CODES), ...Object.keys(SURFACE_ERROR_CODES)]) {
    const used = code.startsWith('oauth.')
      ? all.includes(`'${code}'`) || new RegExp(`oauthError\\(\\s*'${code.slice('oauth.'.length)}'`).test(all)
      : all.includes(`'${code}'`);
    assert.ok(used, `${code} is listed but never raised or answered`);
  }
});

test('given the lists, then the surfaces list no code the domain lists', () => {
  for (const code of Object.keys(SURFACE_ERROR_CODES)) assert.ok(!(code in DOMAIN_ERROR_CODES), code);
  const rows = errorCodeRows();
  assert.equal(new Set(rows.map((r) => r.code)).size, rows.length);
});

test('given the error-code lists, when the docs table is generated, then docs/api.md is up to date (run `npm run docs:errors`)', () => {
  assert.equal(readFileSync(API_DOC_PATH, 'utf8'), renderApiDoc());
});

test('given a listed code, when a DomainError is made with it, then it carries that code and kind; an unlisted code does not typecheck', () => {
  const e = invalid('agent.not_a_persona', 'only a persona can be deleted');
  assert.ok(e instanceof DomainError);
  assert.equal(e.code, 'agent.not_a_persona');
  assert.equal(e.kind, 'invalid');
  assert.equal(domainError('federation.peer_error', 'unavailable', 'x').kind, 'unavailable');
  // @ts-expect-error a code in no list does not typecheck
  invalid('agent.not_a_code', 'x');
  // @ts-expect-error a listed code with a kind its list does not allow does not typecheck
  invalid('agent.not_found', 'x');
  // @ts-expect-error nor does an unlisted code given to the constructor
  new DomainError('agent.not_a_code', 'invalid', 'x');
});
