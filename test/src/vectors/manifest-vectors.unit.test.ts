// Golden manifest vectors (docs/federation.md): the file must equal what the code builds, and a second,
// independent Ed25519 implementation (@noble/ed25519, strict RFC 8032 with zip215: false) must accept
// the signatures over exactly the documented bytes.
import * as ed from '@noble/ed25519';
import { canonicalJson } from '@tributary/infra';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { TEST_SEED } from './generate-envelope-vectors.js';
import {
  buildManifestVectors,
  MANIFEST_VECTORS_PATH,
  renderManifestVectors,
  type ManifestVectorFile,
} from './generate-manifest-vectors.js';

ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

const fileText = readFileSync(MANIFEST_VECTORS_PATH, 'utf8');
const file = JSON.parse(fileText) as ManifestVectorFile;
const publicKey = new Uint8Array(Buffer.from(file.publicKey, 'base64url'));
const strict = { zip215: false };
const vector = (name: string) => file.vectors.find((v) => v.name === name)!;

describe('manifest golden vectors', () => {
  it('given the vectors file, when it is rebuilt from the code, then the text is identical', () => {
    assert.equal(renderManifestVectors(buildManifestVectors()), fileText);
  });

  it('given the test seed, when noble derives the public key, then it is the file’s', () => {
    assert.deepEqual(ed.getPublicKey(TEST_SEED), publicKey);
  });

  for (const name of ['instance-manifest', 'universal-manifest']) {
    it(`given ${name}, when noble verifies the signature over the canonical bytes, then it holds`, () => {
      const v = vector(name);
      assert.ok(
        ed.verify(Buffer.from(v.sig, 'base64url'), Buffer.from(v.canonical, 'utf8'), publicKey, strict),
      );
    });
  }

  it('given the instance manifest, when its sig is removed, then the rest canonicalizes to exactly the signed bytes', () => {
    const { sig, ...rest } = vector('instance-manifest').document;
    assert.equal(sig, vector('instance-manifest').sig);
    assert.equal(canonicalJson(rest), vector('instance-manifest').canonical);
    // Hand-written: members sorted by UTF-16 code units, no whitespace, the expiry 30 days on.
    assert.ok(
      vector('instance-manifest').canonical.startsWith('{"baseUrl":"https://alpha.example","endpoints":{'),
    );
    assert.ok(
      vector('instance-manifest').canonical.includes(
        '"expiresAt":"2026-01-31T00:00:00.000Z","globalUrl":"https://global.example","instanceId":',
      ),
    );
    assert.ok(vector('instance-manifest').canonical.endsWith('"type":"tributary.instance_manifest","v":1}'));
  });

  it('given the universal manifest, when its signature member is removed, then the rest canonicalizes to the signed bytes', () => {
    const { signature, ...rest } = vector('universal-manifest').document as {
      signature: { value: string; publicKeySpkiB64: string };
    };
    assert.equal(signature.value, vector('universal-manifest').sig);
    assert.equal(canonicalJson(rest), vector('universal-manifest').canonical);
    // The SPKI DER it carries is the fixed Ed25519 prefix (RFC 8410) and the raw key.
    assert.equal(
      Buffer.from(signature.publicKeySpkiB64, 'base64').toString('hex'),
      `302a300506032b6570032100${Buffer.from(publicKey).toString('hex')}`,
    );
  });

  it('given one changed byte in the signed text, then noble refuses it', () => {
    const v = vector('instance-manifest');
    const changed = v.canonical.replace('"role":"group"', '"role":"globa"');
    assert.notEqual(changed, v.canonical);
    assert.equal(
      ed.verify(Buffer.from(v.sig, 'base64url'), Buffer.from(changed, 'utf8'), publicKey, strict),
      false,
    );
  });
});
