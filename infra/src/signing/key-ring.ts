// The instance's keys on disk (docs/operations.md#rotating-the-signing-key): the key file every instance
// has, plus one file per key a rotation created, next to it. Which one signs is the log's choice (the
// key no rotation has retired); every process holds them all, so any of them can sign with the current
// one and with a previous one during its overlap.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  generateSigningKey,
  keyIdFor,
  loadKeyFromEnv,
  loadOrCreateKeyFile,
  PEM_CIPHER,
  publicKeyBase64url,
  publicKeyRaw,
  readKeyFile,
  writeNewFileAtomically,
  type SigningKeyPair,
} from './ed25519-keys.js';
import { createEd25519Sign, type Ed25519Sign, type SigningLibraryChoice } from './ed25519-signing.js';

export interface HeldKey {
  keyId: string;
  /** The raw public key, unpadded base64url (as the log and the manifest publish it). */
  publicKey: string;
  pair: SigningKeyPair;
  sign: Ed25519Sign;
}

export interface KeyRing {
  /** Where rotated keys are written (the key file's folder). */
  readonly dir: string;
  /** The key file's own key (created on first start): MCP tokens and preview links stay on it. */
  readonly base: HeldKey;
  /** Whether the base key came from the environment (a PEM), not from a file. */
  readonly baseFromEnvironment: boolean;
  current(): HeldKey;
  held(keyId: string): HeldKey | undefined;
  all(): HeldKey[];
  /** Signs with `keyId` from now on, reading the folder again if it is not held yet; false if not found. */
  use(keyId: string): boolean;
  /** A new key, written to its own file (0600, atomically) before anything names it; not current yet. */
  create(): HeldKey;
}

interface KeyRingOptions {
  /** INSTANCE_KEY_FILE: a path, or the PEM itself. */
  keyFile?: string | undefined;
  dataDir: string;
  passphrase?: string | undefined;
  library?: SigningLibraryChoice;
}

const ROTATED_SUFFIX = /^([A-Za-z0-9_-]{22})\.pem$/;

/** Loads (or, on first start, creates) the key file and every rotated key beside it. */
export function loadKeyRing(o: KeyRingOptions): KeyRing & { created: boolean } {
  const fromEnv = o.keyFile?.startsWith('-----BEGIN') ?? false;
  const path = fromEnv
    ? join(o.dataDir, 'keys', 'instance-ed25519.pem')
    : (o.keyFile ?? join(o.dataDir, 'keys', 'instance-ed25519.pem'));
  const loaded = fromEnv
    ? { ...loadKeyFromEnv(o.keyFile!), created: false }
    : loadOrCreateKeyFile(path, o.passphrase);
  const dir = dirname(path);
  const stem = `${basename(path).replace(/\.pem$/, '')}.`;
  const held = new Map<string, HeldKey>();
  const hold = (pair: SigningKeyPair): HeldKey => {
    const keyId = keyIdFor(publicKeyRaw(pair.publicKey));
    let k = held.get(keyId);
    if (!k) {
      k = {
        keyId,
        publicKey: publicKeyBase64url(pair.publicKey),
        pair,
        sign: createEd25519Sign(pair.privateKey, o.library),
      };
      held.set(keyId, k);
    }
    return k;
  };
  const base = hold({ privateKey: loaded.privateKey, publicKey: loaded.publicKey });
  const fileOf = (keyId: string) => join(dir, `${stem}${keyId.slice('ed25519:'.length)}.pem`);
  const readFolder = () => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const name of names) {
      if (!name.startsWith(stem)) continue;
      const m = ROTATED_SUFFIX.exec(name.slice(stem.length));
      if (!m || held.has(`ed25519:${m[1]}`)) continue;
      const pair = readKeyFile(join(dir, name), o.passphrase);
      // A file is named by its key id; one that is not would sign under a name it does not have.
      if (hold(pair).keyId !== `ed25519:${m[1]}`)
        throw new Error(`key file ${join(dir, name)} does not hold the key its name says`);
    }
  };
  readFolder();
  let current = base;
  return {
    dir,
    base,
    baseFromEnvironment: fromEnv,
    created: loaded.created,
    current: () => current,
    held: (keyId) => held.get(keyId),
    all: () => [...held.values()],
    use(keyId) {
      if (!held.has(keyId)) readFolder();
      const k = held.get(keyId);
      if (!k) return false;
      current = k;
      return true;
    },
    create() {
      const pair = generateSigningKey();
      const keyId = keyIdFor(publicKeyRaw(pair.publicKey));
      const pem =
        o.passphrase === undefined
          ? pair.privateKey.export({ format: 'pem', type: 'pkcs8' })
          : pair.privateKey.export({
              format: 'pem',
              type: 'pkcs8',
              cipher: PEM_CIPHER,
              passphrase: o.passphrase,
            });
      if (!writeNewFileAtomically(fileOf(keyId), String(pem)))
        throw new Error(`key file ${fileOf(keyId)} already exists`);
      return hold(pair);
    },
  };
}
