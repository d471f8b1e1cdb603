// Golden HTTP signature vectors (RFC 9421 profile of docs/federation.md): our signature base, fields and
// signatures must match the file; an independent RFC 9421 implementation (http-message-signatures)
// must build the same signature base from the same request; a second Ed25519 implementation
// (@noble/ed25519, strict) must accept the signatures; and our reader must take the fields back.
import { readSignatureHeaders } from '@tributary/adapters';
import * as ed from '@noble/ed25519';
import { httpbis } from 'http-message-signatures';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import {
  buildHttpVectors,
  HTTP_VECTORS_PATH,
  renderHttpVectors,
  type HttpVectorFile,
} from './generate-http-signature-vectors.js';

ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

const fileText = readFileSync(HTTP_VECTORS_PATH, 'utf8');
const file = JSON.parse(fileText) as HttpVectorFile;
const federationDoc = readFileSync(new URL('../../../docs/federation.md', import.meta.url), 'utf8');
/** RFC 9421 Appendix B.1.4 names its Ed25519 test key so (written out here, not imported from the generator). */
const RFC9421_TEST_KEY_ID = 'test-key-ed25519';

describe('HTTP signature golden vectors', () => {
  it('given the vectors file, when it is rebuilt from the code, then the text is identical', () => {
    assert.equal(renderHttpVectors(buildHttpVectors()), fileText);
  });

  it('given each vector, when an independent RFC 9421 library builds the signature base, then it is byte-identical', () => {
    for (const v of file.vectors) {
      const request = {
        method: v.input.method,
        url: v.input.targetUri,
        headers: { 'Content-Digest': v.contentDigest },
      };
      const components = httpbis.createSignatureBase(
        { fields: ['@method', '@target-uri', 'content-digest'] },
        request,
      );
      const params = /^sig1=(.*)$/.exec(v.headers['signature-input'])![1]!;
      components.push(['"@signature-params"', [params]]);
      assert.equal(httpbis.formatSignatureBase(components), v.signatureBase, v.name);
      assert.equal(Buffer.from(v.signatureBase, 'utf8').toString('hex'), v.signatureBaseHex);
    }
  });

  it('given each vector, then node:crypto and @noble/ed25519 (strict) verify its signature over the base', () => {
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: file.publicKey },
      format: 'jwk',
    });
    for (const v of file.vectors) {
      const sig = Buffer.from(/^sig1=:(.*):$/.exec(v.headers.signature)![1]!, 'base64');
      const base = Buffer.from(v.signatureBase, 'utf8');
      assert.ok(verify(null, base, publicKey, sig), v.name);
      assert.ok(ed.verify(sig, base, Buffer.from(file.publicKey, 'base64url'), { zip215: false }), v.name);
      const tampered = Buffer.from(base);
      tampered[tampered.length - 2]! ^= 1;
      assert.ok(!verify(null, tampered, publicKey, sig));
      assert.equal(
        v.contentDigest,
        `sha-256=:${createHash('sha256').update(v.input.body).digest('base64')}:`,
      );
    }
  });

  it('given the vectors and the docs’ example, then every keyid names the key that signed them (the RFC’s test-key-ed25519)', () => {
    assert.equal(file.keyId, RFC9421_TEST_KEY_ID);
    for (const v of file.vectors) {
      assert.equal(v.input.keyid, RFC9421_TEST_KEY_ID, v.name);
      const read = readSignatureHeaders(v.headers['signature-input'], v.headers.signature);
      assert.ok(typeof read === 'object', v.name);
      assert.equal(read.params.keyid, RFC9421_TEST_KEY_ID, v.name);
    }
    // The worked example in docs/federation.md is the first vector, field for field.
    const v = file.vectors[0]!;
    for (const line of [
      ...v.signatureBase.split('\n'),
      `Content-Digest: ${v.headers['content-digest']}`,
      `Signature-Input: ${v.headers['signature-input']}`,
      `Signature: ${v.headers.signature}`,
    ])
      assert.ok(federationDoc.includes(`\n${line}\n`), `docs/federation.md shows ${line}`);
    assert.ok(!/keyid="ed25519:/.test(federationDoc), 'no example keyid names another key');
  });

  it('given the fields of each vector, when read back, then the parameters and the serialized inner list round-trip', () => {
    for (const v of file.vectors) {
      const read = readSignatureHeaders(v.headers['signature-input'], v.headers.signature);
      assert.ok(typeof read === 'object', v.name);
      assert.deepEqual(read.params, {
        created: v.input.created,
        nonce: v.input.nonce,
        keyid: v.input.keyid,
        alg: 'ed25519',
      });
    }
    const v = file.vectors[0]!;
    assert.equal(readSignatureHeaders(undefined, v.headers.signature), 'missing');
    assert.equal(
      readSignatureHeaders(
        v.headers['signature-input'].replace('"content-digest"', '"content-type"'),
        v.headers.signature,
      ),
      'malformed',
    );
    assert.equal(
      readSignatureHeaders(
        v.headers['signature-input'].replace('alg="ed25519"', 'alg="rsa"'),
        v.headers.signature,
      ),
      'malformed',
    );
    assert.equal(
      readSignatureHeaders(
        `${v.headers['signature-input']}, sig2=${v.headers['signature-input'].slice(5)}`,
        v.headers.signature,
      ),
      'malformed',
      'exactly one signature',
    );
  });
});
