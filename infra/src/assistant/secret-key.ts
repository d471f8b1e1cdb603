// The key of the assistant account secrets (docs/assistant.md#secrets), and the cipher that uses it:
// AES-256-GCM with a random 96-bit nonce per value and the row it belongs to as additional data, so a
// ciphertext copied to another row (another agent, another column) does not decrypt. The key is never in
// the database: ASSISTANT_SECRET_KEY, else a key file in the data folder created on first start with
// mode 0600 (in a 0700 folder), refused when group or others may read it — as the instance signing key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeNewFileAtomically } from '../signing/ed25519-keys.js';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The format's name inside every stored value, so another format (or key) can follow later. */
const VERSION = 'v1';

/** 32 key bytes from base64, base64url or hex text, or undefined when it is none of those. */
export function secretKeyBytes(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) return undefined;
  const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** The key from the environment, else from (or newly into) the key file at `path`. */
export function loadOrCreateSecretKey(
  fromEnv: string | undefined,
  path: string,
): { key: Buffer; source: 'env' | 'file'; created: boolean } {
  if (fromEnv !== undefined) {
    const key = secretKeyBytes(fromEnv);
    if (!key) throw new Error('ASSISTANT_SECRET_KEY must be 32 bytes as base64, base64url or 64 hex digits');
    return { key, source: 'env', created: false };
  }
  let created = false;
  if (!existsSync(path))
    created = writeNewFileAtomically(path, `${randomBytes(KEY_BYTES).toString('base64url')}\n`);
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`key file ${path} is not a regular file`);
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
    throw new Error(
      `key file ${path} is accessible by group or others (mode ${mode}); run: chmod 600 ${path}`,
    );
  }
  const key = secretKeyBytes(readFileSync(path, 'utf8'));
  if (!key) throw new Error(`key file ${path} does not hold a 32-byte key`);
  return { key, source: 'file', created };
}

export interface SecretCipher {
  /** `v1.<nonce>.<ciphertext+tag>` (base64url), bound to `context`. */
  seal(plaintext: string, context: string): string;
  /** The plaintext, or undefined when the value was not sealed with this key and context. */
  open(sealed: string, context: string): string | undefined;
}

export function createSecretCipher(key: Buffer): SecretCipher {
  if (key.length !== KEY_BYTES) throw new Error('the secret key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(`${VERSION}\n${context}`, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, nonceText, bodyText, ...rest] = sealed.split('.');
      if (version !== VERSION || !nonceText || !bodyText || rest.length) return undefined;
      const nonce = Buffer.from(nonceText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonce);
        decipher.setAAD(Buffer.from(`${VERSION}\n${context}`, 'utf8'));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(body.subarray(0, body.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
