// A version's manifest and its hash, as fixed vectors: entries sorted by path, only the four fields, the
// hash the SHA-256 of the RFC 8785 text (the same canonical form the signed envelope uses, checked
// against infra's canonicalJson). A peer recomputes exactly this from a signed site.published.
import { canonicalJson } from '@tributary/infra';
import { canonicalManifestText, lookupManifest, manifestHash, manifestOf } from '@tributary/services';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

const HTML = 'text/html; charset=utf-8';
const files = [
  { path: '/index.html', sha256: '9'.repeat(64), contentType: HTML, length: 1024, bytes: Buffer.from('x') },
  {
    path: '/_assets/site.0123456789abcdef.css',
    sha256: '0'.repeat(64),
    contentType: 'text/css; charset=utf-8',
    length: 6000,
  },
  { path: '/about/index.html', sha256: 'ab'.repeat(32), contentType: HTML, length: 0 },
];

/** The vector: the exact canonical text and its SHA-256, fixed here once. */
const VECTOR_TEXT =
  '[{"contentType":"text/css; charset=utf-8","length":6000,"path":"/_assets/site.0123456789abcdef.css","sha256":"0000000000000000000000000000000000000000000000000000000000000000"},' +
  '{"contentType":"text/html; charset=utf-8","length":0,"path":"/about/index.html","sha256":"abababababababababababababababababababababababababababababababab"},' +
  '{"contentType":"text/html; charset=utf-8","length":1024,"path":"/index.html","sha256":"9999999999999999999999999999999999999999999999999999999999999999"}]';
const VECTOR_HASH = '1c8df558a9b62cc6e161652fc0f24f9f813c28830cfdbc4618f694f3e3f410c2';

describe('the site manifest', () => {
  it('given files in any order, when the manifest is built, then it is the four fields sorted by path', () => {
    const manifest = manifestOf(files);
    expect(manifest.map((e) => e.path)).toEqual([
      '/_assets/site.0123456789abcdef.css',
      '/about/index.html',
      '/index.html',
    ]);
    expect(Object.keys(manifest[2]!)).toEqual(['path', 'sha256', 'contentType', 'length']);
    expect(manifestOf([...files].reverse())).toEqual(manifest);
  });

  it('given the vector files, then the canonical text and the hash are the fixed ones', () => {
    const manifest = manifestOf(files);
    expect(canonicalManifestText(manifest)).toBe(VECTOR_TEXT);
    expect(canonicalJson(manifest)).toBe(VECTOR_TEXT);
    expect(createHash('sha256').update(VECTOR_TEXT, 'utf8').digest('hex')).toBe(VECTOR_HASH);
    expect(manifestHash(manifest)).toBe(VECTOR_HASH);
  });

  it('given no files, then the hash is that of []', () => {
    expect(manifestHash(manifestOf([]))).toBe(
      '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945',
    );
  });

  it('given one byte of difference anywhere, then the hash differs', () => {
    const base = manifestHash(manifestOf(files));
    const changed = [
      files.map((f, i) => (i === 0 ? { ...f, length: 1025 } : f)),
      files.map((f, i) => (i === 0 ? { ...f, sha256: '8'.repeat(64) } : f)),
      files.map((f, i) => (i === 0 ? { ...f, contentType: 'text/plain' } : f)),
      files.map((f, i) => (i === 0 ? { ...f, path: '/index.htm' } : f)),
    ];
    for (const c of changed) expect(manifestHash(manifestOf(c))).not.toBe(base);
  });

  it('given a path twice, or a path outside the manifest alphabet, then it is refused', () => {
    expect(() => manifestOf([files[0]!, { ...files[0]!, sha256: '1'.repeat(64) }])).toThrow(/duplicate/);
    expect(() => manifestOf([{ ...files[0]!, path: '/a b.html' }])).toThrow();
    expect(() => manifestOf([{ ...files[0]!, sha256: 'XYZ' }])).toThrow();
  });
});

describe('which file answers a request path', () => {
  const manifest = manifestOf([
    ...files,
    { path: '/blog/first/index.html', sha256: '1'.repeat(64), contentType: HTML, length: 1 },
  ]);
  it('serves pages at their directory, files as they are, and redirects a page without its slash', () => {
    expect(lookupManifest(manifest, '/')).toMatchObject({ kind: 'file', entry: { path: '/index.html' } });
    expect(lookupManifest(manifest, '/about/')).toMatchObject({
      kind: 'file',
      entry: { path: '/about/index.html' },
    });
    expect(lookupManifest(manifest, '/blog/first/')).toMatchObject({
      kind: 'file',
      entry: { path: '/blog/first/index.html' },
    });
    expect(lookupManifest(manifest, '/index.html')).toMatchObject({
      kind: 'file',
      entry: { path: '/index.html' },
    });
    expect(lookupManifest(manifest, '/_assets/site.0123456789abcdef.css')).toMatchObject({ kind: 'file' });
    expect(lookupManifest(manifest, '/about')).toEqual({ kind: 'redirect', location: 'about/' });
    expect(lookupManifest(manifest, '/blog/first')).toEqual({ kind: 'redirect', location: 'first/' });
  });
  it('answers missing for anything else', () => {
    for (const p of ['/nope', '/nope/', '/blog/', '/about/index.htm', '', '/../index.html', '//'])
      expect(lookupManifest(manifest, p), p).toEqual({ kind: 'missing' });
  });
});
