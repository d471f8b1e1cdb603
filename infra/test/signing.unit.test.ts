// Envelope signing (docs/architecture.md#envelope): strict parsing, canonical JSON, sealing, verification, key files.
import { afterAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, type UnsignedEnvelope } from '@tributary/domain';
import canonicalizeModule from 'canonicalize';
import {
  canonicalJson,
  createEnvelopeSigner,
  generateSigningKey,
  keyIdFor,
  loadKeyFromEnv,
  loadOrCreateKeyFile,
  parseEnvelopeText,
  parseStrictJson,
  parseStrictJsonForm,
  publicKeyBase64url,
  publicKeyFromBase64url,
  publicKeyRaw,
  verifyEnvelope,
  signingInput,
  verifyEnvelopeText,
  withoutSig,
} from '../src/signing/index.js';
import { signingTextOf, withoutMember } from '../src/signing/signing-text.js';

/** Asserts that `fn` throws a DomainError of kind 'invalid' with `code`. */
function assertCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.equal(error.kind, 'invalid');
    return true;
  });
}

describe('parseStrictJson', () => {
  const samples = [
    '{}',
    '[]',
    '0',
    '-1',
    '"plain"',
    'true',
    'false',
    'null',
    ' \t\r\n{ "a" : 1 , "b" : [ 1 , 2 ] } \n',
    '{"nested":[[1,[2,[3,[]]]],{"x":{"y":{"z":null}}}],"e":[]}',
    '{"unicode":"\\u00e9\\u65E5\\ud83c\\udf0a \\u2028 \\u0000","raw":"Café 🌊"}',
    '{"escapes":"\\"\\\\\\/\\b\\f\\n\\r\\t"}',
    '[0.5,-1.25,0.1,123.456,0.000001,1e-7,5e-324,9007199254740991,-9007199254740991]',
    '{"__proto__":{"polluted":true},"constructor":1}',
    '{"":"","a":{"a":{"a":"a"}}}',
    '"\\ud800"',
  ];
  for (const sample of samples) {
    it(`given ${JSON.stringify(sample).slice(0, 60)}, when parsed, then it equals JSON.parse`, () => {
      assert.deepStrictEqual(parseStrictJson(sample), JSON.parse(sample));
    });
  }

  it('given a __proto__ key, when parsed, then it is an own property and the prototype is untouched', () => {
    const value = parseStrictJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('given a duplicate top-level key, when parsed, then envelope.duplicate_key', () => {
    assertCode(() => parseStrictJson('{"a":1,"b":2,"a":1}'), 'envelope.duplicate_key');
  });

  it('given a duplicate nested key, when parsed, then envelope.duplicate_key', () => {
    assertCode(() => parseStrictJson('{"a":[{"x":{"k":1,"k":2}}]}'), 'envelope.duplicate_key');
  });

  it('given keys equal only after unescaping, when parsed, then envelope.duplicate_key', () => {
    assertCode(() => parseStrictJson('{"a":1,"\\u0061":2}'), 'envelope.duplicate_key');
  });

  for (const literal of [
    '1.0',
    '1e2',
    '-0',
    '01',
    '1E+2',
    '1e+2',
    '0.10',
    '1.5E3',
    '00',
    '-01',
    '-0.0',
    '1e400',
  ]) {
    it(`given the number ${literal}, when parsed, then envelope.non_canonical_number`, () => {
      assertCode(() => parseStrictJson(literal), 'envelope.non_canonical_number');
      assertCode(() => parseStrictJson(`{"n":[${literal}]}`), 'envelope.non_canonical_number');
    });
  }

  for (const literal of ['9007199254740992', '-9007199254740992', '12345678901234567890', '1e+21']) {
    it(`given the integer ${literal} beyond ±(2^53-1), when parsed, then envelope.non_canonical_number`, () => {
      assertCode(() => parseStrictJson(`{"n":${literal}}`), 'envelope.non_canonical_number');
    });
  }

  const malformed = [
    '',
    ' ',
    '{"a":1} x',
    '{"a":1}{}',
    '[1,2]]',
    '{"a":1,}',
    '[1,]',
    '{a:1}',
    "{'a':1}",
    '{"a" 1}',
    '[1 2]',
    '"unterminated',
    '"tab\there"',
    '"bad \\x escape"',
    '"\\u12G4"',
    'tru',
    'nul',
    'True',
    'NaN',
    'Infinity',
    '+1',
    '.5',
    '1.',
    '1e',
    '1e+',
    '-',
    '0x10',
    '\ufeff{}',
    '{"a":1',
    '[',
    '[1,[2]',
    '[1-2]',
  ];
  for (const text of malformed) {
    it(`given ${JSON.stringify(text)}, when parsed, then envelope.malformed_json`, () => {
      assertCode(() => parseStrictJson(text), 'envelope.malformed_json');
    });
  }

  it('given nesting far deeper than any envelope, when parsed, then envelope.malformed_json (no stack overflow)', () => {
    assertCode(() => parseStrictJson('['.repeat(100_000) + ']'.repeat(100_000)), 'envelope.malformed_json');
  });
});

/** The `canonicalize` package (RFC 8785's reference implementation), which canonicalJson must match. */
const canonicalizeReference = canonicalizeModule as unknown as (input: unknown) => string | undefined;

describe('canonicalJson', () => {
  it('given keys in any order, when canonicalized, then keys are sorted by UTF-16 code units', () => {
    assert.equal(
      canonicalJson({ b: 1, a: [true, null, 'x'], ﬀ: 0, '😀': 0 }),
      '{"a":[true,null,"x"],"b":1,"😀":0,"ﬀ":0}',
    );
  });

  it("given varied values, when canonicalized, then the text is the reference implementation's", () => {
    const values: unknown[] = [
      {
        z: [1, -0, 0.1, 1.5e-300, 1e-7, 0.000001, -5e-324, 2 ** 53 - 1, 123.456],
        a: { '': '', é: 'e\u0301', '\u0000': '\n"\\' },
      },
      [[], {}, [[[null]]], { b: { a: { c: false } } }],
      { '😀': '\ud83d\ude00', ﬀ: '\u2028\u2029\u007f', A: 'Z', a: 'z', '10': 1, '9': 2, '-1': 3 },
      Object.assign(Object.create(null) as object, { k: 'null prototype' }),
      'a string',
      42,
      null,
    ];
    for (const value of values) assert.equal(canonicalJson(value), canonicalizeReference(value));
  });

  it("given values already in canonical order (parsed from canonical text), when canonicalized, then the text is the reference's", () => {
    const texts = [
      '{"a":{"":"","\\u0000":"\\n\\"\\\\","é":"é"},"z":[1,0,0.1,1.5e-300,1e-7,0.000001,-5e-324,9007199254740991]}',
      '{"-1":3,"10":1,"9":2,"A":"Z","a":"z","😀":"😀","ﬀ":"\u2028"}',
      '{"actorId":"x","data":{"bio":"keeps bees","name":"Bee"},"id":"1","streamVersion":7,"v":1}',
      '[[],{},[[[null]]],{"b":{"a":{"c":false}}}]',
    ];
    for (const text of texts) {
      const value: unknown = JSON.parse(text);
      assert.equal(canonicalJson(value), canonicalizeReference(value), text);
    }
    // In order at the top, out of order below: still the canonical form.
    assert.equal(canonicalJson({ a: { y: 1, x: 2 }, b: 0 }), '{"a":{"x":2,"y":1},"b":0}');
  });

  for (const [name, value] of [
    ['undefined', undefined],
    ['an undefined member', { a: undefined }],
    ['an undefined array element', [1, undefined]],
    ['NaN', Number.NaN],
    ['Infinity', { n: Number.POSITIVE_INFINITY }],
    ['an unsafe integer', { n: 2 ** 53 }],
    ['a bigint', { n: 1n }],
    ['a Date', { d: new Date(0) }],
    ['a lone surrogate', { s: '\ud800' }],
  ] as const) {
    it(`given ${name}, when canonicalized, then it throws`, () => {
      assert.throws(() => canonicalJson(value), TypeError);
    });
  }
});

describe('parseStrictJsonForm', () => {
  /** What the flag must say: the text is exactly the canonical form of the value it holds. */
  const isCanonical = (text: string) => {
    try {
      return canonicalJson(parseStrictJson(text)) === text;
    } catch {
      return false; // a value RFC 8785 cannot write (a lone surrogate) has no canonical text
    }
  };

  it('given hand-picked texts, when parsed, then `canonical` says exactly whether the text is canonical', () => {
    const texts = [
      '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
      '{"b":1,"a":2}',
      '{"a":1, "b":2}',
      ' {"a":1}',
      '{"a":1}\n',
      '[1,2,3]',
      '[1, 2]',
      '{}',
      '[]',
      '"plain"',
      '"a\\/b"',
      '"\\u0041"',
      '"\\u001f"',
      '"\\u001F"',
      '"\\u0008"',
      '"\\b\\t\\n\\f\\r"',
      '"\\u000b"',
      '"\\"\\\\"',
      '"😀"',
      '"\\ud83d\\ude00"',
      '"\\ud800"',
      '"\ud800"',
      '"\u2028\u2029\u007f"',
      '{"-1":3,"10":1,"9":2,"A":"Z","a":"z","😀":0,"ﬀ":0}',
      '{"10":1,"9":2}',
      '{"9":2,"10":1}',
      '{"__proto__":{"a":1},"b":2}',
      '{"a":{"y":1,"x":2}}',
      '{"a":[{"b":1,"a":2}]}',
      '{"":0,"a":0}',
      '{"a":0,"":0}',
      '1.5e-300',
      '-5e-324',
      '0',
      'null',
    ];
    for (const text of texts)
      assert.equal(parseStrictJsonForm(text).canonical, isCanonical(text), `canonical flag of ${text}`);
    // Both outcomes are exercised.
    assert.ok(texts.some(isCanonical) && !texts.every(isCanonical));
  });

  it('given random values written canonically and then re-encoded, when parsed, then the flag always agrees', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'a',
      'B',
      'é',
      '😀',
      '\n',
      '"',
      '\\',
      '/',
      '\u0001',
      '\u001f',
      '\u2028',
      '9',
      '10',
      ' ',
      '_',
    ];
    const randomString = () =>
      Array.from(
        { length: Math.floor(random() * 4) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
    const randomValue = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3)
        return [randomString(), 42, -0.5, 1.25e-7, true, null][Math.floor(random() * 6)];
      if (r < 0.5) return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 4); i > 0; i--) o[randomString()] = randomValue(depth + 1);
      return o;
    };
    let canonicalSeen = 0;
    for (let i = 0; i < 400; i++) {
      const value = randomValue(0);
      const canonical = canonicalJson(value);
      assert.equal(parseStrictJsonForm(canonical).canonical, true, canonical);
      canonicalSeen++;
      for (const other of [JSON.stringify(value), JSON.stringify(value, null, 1)]) {
        assert.equal(parseStrictJsonForm(other).canonical, isCanonical(other), other);
      }
    }
    assert.equal(canonicalSeen, 400);
  });

  it('given a top-level member, when cut out of a canonical text, then the rest is the canonical text without it', () => {
    const value = { a: 1, m: { x: [1, 2] }, z: 'end' };
    for (const name of ['a', 'm', 'z']) {
      const text = canonicalJson(value);
      const form = parseStrictJsonForm(text, name);
      const { [name]: _dropped, ...rest } = value as Record<string, unknown>;
      assert.equal(withoutMember(text, form.member!), canonicalJson(rest), name);
    }
    const only = parseStrictJsonForm('{"sig":"x"}', 'sig');
    assert.equal(withoutMember('{"sig":"x"}', only.member!), '{}');
    // Only a top-level member counts.
    assert.equal(parseStrictJsonForm('{"a":{"sig":1}}', 'sig').member, undefined);
  });
});

describe('envelope signer and verifier', () => {
  const origin = 'https://alpha.example';
  const pair = generateSigningKey();
  const other = generateSigningKey();
  const signer = createEnvelopeSigner({ origin, ...pair });
  const keyFor = (o: string, keyId: string) =>
    o === origin && keyId === signer.keyId ? pair.publicKey : undefined;

  const unsigned: UnsignedEnvelope = {
    v: 1,
    id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
    type: 'site.published',
    origin,
    keyId: signer.keyId,
    stream: 'site-0193a1b2-0000-7000-8000-000000000001',
    streamVersion: 7,
    actorId: '0193a1b2-0000-7000-8000-0000000000aa',
    occurredAt: '2025-01-02T03:04:05.678Z',
    nonce: 'AAECAwQFBgcICQoLDA0ODw',
    data: { title: 'Hello', tags: ['a', 'b'], count: 42, nested: { z: 1, a: 2 } },
  };
  const { envelope, text } = signer.seal(unsigned);

  it('given a sealed envelope, when its text is verified, then the parsed envelope is returned', () => {
    assert.equal(signer.keyId, keyIdFor(publicKeyRaw(pair.publicKey)));
    assert.match(envelope.sig, /^[A-Za-z0-9_-]{86}$/);
    assert.equal(text, canonicalJson(envelope));
    assert.deepStrictEqual(verifyEnvelopeText(text, keyFor), envelope);
    verifyEnvelope(envelope, pair.publicKey);
  });

  it('given a canonical envelope text, when parsed, then it comes back frozen with the text without sig as its signing input', () => {
    const parsed = parseEnvelopeText(text);
    assert.equal(signingTextOf(parsed), canonicalJson(withoutSig(envelope)));
    assert.deepEqual(signingInput(parsed), Buffer.from(canonicalJson(withoutSig(envelope)), 'utf8'));
    assert.ok(Object.isFrozen(parsed) && Object.isFrozen(parsed.data) && Object.isFrozen(parsed.data.nested));
    assert.throws(() => {
      (parsed.data as Record<string, unknown>).title = 'Changed after verification';
    }, TypeError);
    // The attachment is invisible to serialization and copies.
    assert.equal(JSON.stringify(parsed), text);
    assert.equal(signingTextOf({ ...parsed }), undefined);
  });

  it('given a re-encoded envelope text, when parsed, then nothing is attached and the input is serialized', () => {
    const reencoded = JSON.stringify(JSON.parse(text), null, 1);
    const parsed = parseEnvelopeText(reencoded);
    assert.equal(signingTextOf(parsed), undefined);
    assert.deepEqual(signingInput(parsed), Buffer.from(canonicalJson(withoutSig(envelope)), 'utf8'));
  });

  it('given a canonical text with one byte of its sig changed, when verified, then envelope.bad_signature', () => {
    const at = text.indexOf('"sig":"') + 10;
    const flipped = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    assert.equal(parseStrictJsonForm(flipped).canonical, true);
    assertCode(() => verifyEnvelopeText(flipped, keyFor), 'envelope.bad_signature');
  });

  it('given whitespace and key order changed, when verified, then it is accepted', () => {
    const reordered = Object.fromEntries(Object.entries(envelope).reverse());
    const reencoded = JSON.stringify(reordered, null, 3);
    assert.notEqual(reencoded, text);
    assert.deepStrictEqual(verifyEnvelopeText(reencoded, keyFor), envelope);
  });

  it('given one changed byte in data, when verified, then envelope.bad_signature', () => {
    assertCode(
      () => verifyEnvelopeText(text.replace('"Hello"', '"Hellp"'), keyFor),
      'envelope.bad_signature',
    );
    assertCode(
      () => verifyEnvelopeText(text.replace('"count":42', '"count":43'), keyFor),
      'envelope.bad_signature',
    );
  });

  it('given a different key for the origin, when verified, then envelope.bad_signature', () => {
    assertCode(() => verifyEnvelopeText(text, () => other.publicKey), 'envelope.bad_signature');
  });

  it('given an unknown key, when verified, then envelope.unknown_key', () => {
    assertCode(() => verifyEnvelopeText(text, () => undefined), 'envelope.unknown_key');
  });

  it('given a duplicated key, when verified, then envelope.duplicate_key', () => {
    assertCode(
      () => verifyEnvelopeText(text.replace('"count":42', '"count":42,"count":42'), keyFor),
      'envelope.duplicate_key',
    );
    assertCode(() => verifyEnvelopeText(text.replace('{', '{"v":1,'), keyFor), 'envelope.duplicate_key');
  });

  it('given a non-canonical number with the same value, when verified, then envelope.non_canonical_number', () => {
    assertCode(
      () => verifyEnvelopeText(text.replace('"count":42', '"count":42.0'), keyFor),
      'envelope.non_canonical_number',
    );
    assertCode(
      () => verifyEnvelopeText(text.replace('"count":42', '"count":4.2e1'), keyFor),
      'envelope.non_canonical_number',
    );
  });

  it('given trailing data, when verified, then envelope.malformed_json', () => {
    assertCode(() => verifyEnvelopeText(`${text} {}`, keyFor), 'envelope.malformed_json');
  });

  it('given a missing sig, when verified, then envelope.malformed', () => {
    const { sig: _sig, ...rest } = envelope;
    assertCode(() => verifyEnvelopeText(JSON.stringify(rest), keyFor), 'envelope.malformed');
  });

  it('given a wrong shape (extra member, bad type), when verified, then envelope.malformed', () => {
    assertCode(
      () => verifyEnvelopeText(JSON.stringify({ ...envelope, extra: 1 }), keyFor),
      'envelope.malformed',
    );
    assertCode(
      () => verifyEnvelopeText(JSON.stringify({ ...envelope, type: 'Bad' }), keyFor),
      'envelope.malformed',
    );
    assertCode(() => verifyEnvelopeText('[]', keyFor), 'envelope.malformed');
  });

  const badSigs: Array<[string, (sig: string) => unknown]> = [
    ['too short', (sig) => sig.slice(0, 85)],
    ['too long', (sig) => `${sig}A`],
    ['padded', (sig) => `${sig}==`],
    ['standard base64 alphabet', (sig) => `+/${sig.slice(2)}`],
    ['not base64 at all', () => '!'.repeat(86)],
    [
      'non-zero unused trailing bits',
      (sig) => sig.slice(0, 85) + String.fromCharCode(sig.charCodeAt(85) + 1),
    ],
    ['a flipped bit', (sig) => (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)],
    ['empty', () => ''],
    ['a number', () => 1],
  ];
  for (const [name, mutate] of badSigs) {
    it(`given a sig that is ${name}, when verified, then envelope.bad_signature`, () => {
      const tampered = JSON.stringify({ ...envelope, sig: mutate(envelope.sig) });
      assertCode(
        () => verifyEnvelopeText(tampered, keyFor),
        name === 'a number' ? 'envelope.malformed' : 'envelope.bad_signature',
      );
    });
  }

  it('given an envelope for another origin, when sealed, then the signer refuses', () => {
    assert.throws(() => signer.seal({ ...unsigned, origin: 'https://beta.example' }), /origin\/keyId/);
  });

  it('given a sealed envelope, when sealed again, then the old sig is not signed over', () => {
    assert.deepStrictEqual(signer.seal(envelope as UnsignedEnvelope).envelope, envelope);
  });

  it('given a lone surrogate in data, when verified, then envelope.malformed', () => {
    const tampered = text.replace('"Hello"', '"\\ud800"');
    assertCode(() => verifyEnvelopeText(tampered, keyFor), 'envelope.malformed');
  });
});

describe('Ed25519 keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-signing-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given a public key, when round-tripped through base64url, then it is the same key', () => {
    const { publicKey } = generateSigningKey();
    const b64u = publicKeyBase64url(publicKey);
    assert.match(b64u, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(publicKeyRaw(publicKeyFromBase64url(b64u)), publicKeyRaw(publicKey));
    assert.throws(() => publicKeyFromBase64url(b64u.slice(1)), /32 bytes/);
    assert.match(keyIdFor(publicKeyRaw(publicKey)), /^ed25519:[A-Za-z0-9_-]{22}$/);
  });

  it('given no key file, when loaded, then it is created with mode 0600 in a 0700 directory and reloads identically', () => {
    const path = join(dir, 'plain', 'keys', 'instance.pem');
    const first = loadOrCreateKeyFile(path);
    assert.equal(first.created, true);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'plain', 'keys')).mode & 0o777, 0o700);
    assert.match(readFileSync(path, 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
    const second = loadOrCreateKeyFile(path);
    assert.equal(second.created, false);
    assert.deepEqual(publicKeyRaw(second.publicKey), publicKeyRaw(first.publicKey));
    assert.ok(second.privateKey.equals(first.privateKey));
  });

  it('given a key file readable by others (0644), when loaded, then it is refused', () => {
    const path = join(dir, 'open', 'instance.pem');
    loadOrCreateKeyFile(path);
    chmodSync(path, 0o644);
    assert.throws(() => loadOrCreateKeyFile(path), /accessible by group or others \(mode 0644\)/);
  });

  it('given a passphrase, when created and reloaded, then the file is encrypted and the key identical', () => {
    const path = join(dir, 'encrypted', 'instance.pem');
    const first = loadOrCreateKeyFile(path, 'correct horse');
    assert.equal(first.created, true);
    assert.match(readFileSync(path, 'utf8'), /^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    const second = loadOrCreateKeyFile(path, 'correct horse');
    assert.equal(second.created, false);
    assert.ok(second.privateKey.equals(first.privateKey));
  });

  it('given a wrong or missing passphrase, when loaded, then it is refused', () => {
    const path = join(dir, 'encrypted', 'instance.pem');
    assert.throws(() => loadOrCreateKeyFile(path, 'wrong horse'), /cannot be decrypted/);
    assert.throws(() => loadOrCreateKeyFile(path), /passphrase is required/);
  });

  it('given an unencrypted file and a passphrase, when loaded, then it is refused', () => {
    const path = join(dir, 'plain', 'keys', 'instance.pem');
    assert.throws(() => loadOrCreateKeyFile(path, 'anything'), /not encrypted/);
  });

  it('given a PKCS#8 PEM in an environment value, when loaded, then it yields the same key', () => {
    const { privateKey, publicKey } = generateSigningKey();
    const pem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    assert.deepEqual(publicKeyRaw(loadKeyFromEnv(pem).publicKey), publicKeyRaw(publicKey));
    assert.deepEqual(
      publicKeyRaw(loadKeyFromEnv(pem.replace(/\n/g, '\\n')).publicKey),
      publicKeyRaw(publicKey),
    );
    assert.throws(() => loadKeyFromEnv('not a key'), /PKCS#8/);
  });

  it('given a key error, when it is reported, then the message carries no key material', () => {
    const path = join(dir, 'encrypted', 'instance.pem');
    const pem = readFileSync(path, 'utf8');
    const body = pem.split('\n')[1]!;
    try {
      loadOrCreateKeyFile(path, 'wrong horse');
      assert.fail('expected a refusal');
    } catch (error) {
      assert.ok(!(error as Error).message.includes(body.slice(0, 16)));
      assert.ok(!(error as Error).message.includes('\n'));
    }
  });
});
