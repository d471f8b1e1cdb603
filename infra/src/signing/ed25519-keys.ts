// Ed25519 key handling for the instance key (docs/architecture.md#envelope), with node:crypto KeyObjects only, so
// the hot path signs with one cached KeyObject and key material never passes through our own buffers.
// Errors are one line and never include key material.
import { createHash, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface SigningKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export const PEM_CIPHER = 'aes-256-cbc';

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * A new Ed25519 key pair from 32 random bytes. Not generateKeyPairSync: on Node 20 the key objects it
 * returns share a lock with the job that made them, and exporting one (publicKeyRaw's JWK export) while a
 * garbage collection frees that job deadlocks the thread for good (seen: a test worker stuck in
 * ~KeyGenJob under KeyObjectHandle::ExportJWK, about once in 4,000–35,000 keys). Lint forbids
 * generateKeyPair(Sync) for that reason.
 */
export function generateSigningKey(): SigningKeyPair {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, randomBytes(32)]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** The 32-byte raw public key; accepts a public key or the private key it belongs to. */
export function publicKeyRaw(key: KeyObject): Uint8Array {
  assertEd25519(key);
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const { x } = publicKey.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('Ed25519 public key has no JWK "x" member');
  return new Uint8Array(Buffer.from(x, 'base64url'));
}

export function publicKeyBase64url(key: KeyObject): string {
  return Buffer.from(publicKeyRaw(key)).toString('base64url');
}

/** Rebuilds a public KeyObject from the 32-byte raw key (as published by an origin), base64url. */
export function publicKeyFromBase64url(b64u: string): KeyObject {
  const raw = /^[A-Za-z0-9_-]{43}$/.test(b64u) ? Buffer.from(b64u, 'base64url') : undefined;
  // Also refuse non-canonical trailing bits, so one key has exactly one spelling.
  if (raw?.length !== 32 || raw.toString('base64url') !== b64u) {
    throw new Error('Ed25519 public key must be 32 bytes as unpadded base64url');
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64u }, format: 'jwk' });
}

const SIGNATURE_TEXT = /^[A-Za-z0-9_-]{86}$/;

/**
 * An Ed25519 signature written as unpadded base64url: its 64 bytes, or null unless `sig` is that in its
 * one canonical spelling (unused trailing bits zero), so one signature has exactly one text.
 */
export function signatureBytes(sig: unknown): Buffer | null {
  if (typeof sig !== 'string' || !SIGNATURE_TEXT.test(sig)) return null;
  const bytes = Buffer.from(sig, 'base64url');
  return bytes.length === 64 && bytes.toString('base64url') === sig ? bytes : null;
}

/** `ed25519:` + base64url of the first 16 bytes of SHA-256 of the raw public key. */
export function keyIdFor(publicKeyRawBytes: Uint8Array): string {
  if (publicKeyRawBytes.length !== 32) throw new Error('Ed25519 public key must be 32 bytes');
  const digest = createHash('sha256').update(publicKeyRawBytes).digest();
  return `ed25519:${digest.subarray(0, 16).toString('base64url')}`;
}

/** Reads a PKCS#8 PEM private key from an environment variable's value (`\n` escapes allowed). */
export function loadKeyFromEnv(value: string): SigningKeyPair {
  const pem = value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
  if (!pem.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new Error(
      'signing key from the environment must be an unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY")',
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new Error('signing key from the environment is not a valid PKCS#8 PEM');
  }
  return pairFrom(privateKey, 'signing key from the environment');
}

/**
 * Loads the instance key from `path`, or creates it there if the file does not exist.
 * The file is PKCS#8 PEM, encrypted with aes-256-cbc when a passphrase is given, mode 0600, in a
 * directory created with mode 0700. Refuses a file that group or others may access, one that cannot be
 * decrypted, and an unencrypted file when a passphrase was given (it would silently not be used).
 */
export function loadOrCreateKeyFile(
  path: string,
  passphrase?: string,
): SigningKeyPair & { created: boolean } {
  if (passphrase === '') throw new Error('key file passphrase must not be empty');
  if (!fileExists(path)) {
    const pair = generateSigningKey();
    const pem =
      passphrase === undefined
        ? pair.privateKey.export({ format: 'pem', type: 'pkcs8' })
        : pair.privateKey.export({ format: 'pem', type: 'pkcs8', cipher: PEM_CIPHER, passphrase });
    if (writeNewFileAtomically(path, String(pem))) return { ...pair, created: true };
    // Another process created the file first: use that key, not ours.
  }
  return { ...readKeyFile(path, passphrase), created: false };
}

export function readKeyFile(path: string, passphrase: string | undefined): SigningKeyPair {
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`key file ${path} is not a regular file`);
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
    throw new Error(
      `key file ${path} is accessible by group or others (mode ${mode}); run: chmod 600 ${path}`,
    );
  }
  const pem = readFileSync(path, 'utf8');
  const encrypted = pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----');
  if (!encrypted && passphrase !== undefined) {
    throw new Error(`key file ${path} is not encrypted but a passphrase was given; refusing to ignore it`);
  }
  if (encrypted && passphrase === undefined) {
    throw new Error(`key file ${path} is encrypted; a passphrase is required`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem', ...(encrypted ? { passphrase } : {}) });
  } catch {
    throw new Error(
      encrypted
        ? `key file ${path} cannot be decrypted (wrong passphrase?)`
        : `key file ${path} is not a valid PKCS#8 PEM`,
    );
  }
  return pairFrom(privateKey, `key file ${path}`);
}

/**
 * Writes `contents` to a temporary file (0600, fsynced) in the same directory, then publishes it with
 * link(2), which, unlike rename(2), fails if `path` already exists: two processes starting at once
 * cannot end up with different keys. Returns false when `path` appeared meanwhile.
 */
export function writeNewFileAtomically(path: string, contents: string): boolean {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      unlinkSync(tmp);
      return false;
    }
    // Filesystems without hard links: fall back to rename, still atomic for readers.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      renameSync(tmp, path);
      syncDirectory(dir);
      return true;
    }
    unlinkSync(tmp);
    throw error;
  }
  unlinkSync(tmp);
  syncDirectory(dir);
  return true;
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort: not every platform can fsync a directory.
  }
}

function fileExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function pairFrom(privateKey: KeyObject, what: string): SigningKeyPair {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${what} is not an Ed25519 key (found ${privateKey.asymmetricKeyType ?? 'unknown'})`);
  }
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

function assertEd25519(key: KeyObject): void {
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('expected an Ed25519 KeyObject');
}
