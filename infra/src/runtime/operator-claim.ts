// The setup code that lets only the operator claim an instance listening beyond loopback
// (docs/operations.md#the-first-operator): printed by `start` and kept in `<data folder>/setup-code`
// (0600) until the first account gives it. On loopback alone no code is asked.
import type { OperatorClaim } from '@tributary/services';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

export const SETUP_CODE_FILE = 'setup-code';

/** No 0/O, 1/I/L: read off a terminal and typed into a form. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** Four groups of four (~78 bits): `KQ7M-2XHP-…`. */
function newCode(): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** The code as typed: case, spaces and dashes do not matter. */
const normalize = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/** Whether an address the server bound is reachable only from this machine. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  if (a === '::1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export interface ArmableOperatorClaim extends OperatorClaim {
  /** Asks for the setup code from now on: the one in the data folder, or a new one written there. */
  arm(): { code: string; file: string };
}

export function createOperatorClaim(dataDir: string): ArmableOperatorClaim {
  const file = join(dataDir, SETUP_CODE_FILE);
  let code: string | null = null;
  return {
    required: () => code !== null,
    matches(given) {
      if (code === null) return false;
      const a = Buffer.from(normalize(given));
      const b = Buffer.from(normalize(code));
      return a.length === b.length && timingSafeEqual(a, b);
    },
    async spent() {
      code = null;
      rmSync(file, { force: true });
    },
    arm() {
      // Processes sharing the data folder (a restart, an API process beside another) share one code.
      try {
        code = readFileSync(file, 'utf8').trim() || null;
      } catch {
        code = null;
      }
      if (code === null) {
        const fresh = newCode();
        mkdirSync(dataDir, { recursive: true });
        try {
          writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
          code = fresh;
        } catch (e) {
          // Another process wrote its code first: use that one.
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          code = readFileSync(file, 'utf8').trim();
        }
      }
      return { code, file };
    },
  };
}
