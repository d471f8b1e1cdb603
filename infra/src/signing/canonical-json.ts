// RFC 8785 (JCS) canonical JSON: the exact bytes an envelope signature covers (docs/architecture.md#envelope).
// The serialization itself is the `canonicalize` package (the RFC's reference implementation). Before
// handing a value over we refuse anything it would silently drop or change (undefined, Dates, Maps...)
// and anything parseStrictJson would refuse on the way back in, so whatever we sign, peers can verify.
import canonicalizeModule from 'canonicalize';

// The package is CommonJS whose typings declare an ES default export; under NodeNext TypeScript types
// the default import as the module object, while at run time it is the function itself.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

const MAX_DEPTH = 512;
/** In a `u` regex a valid surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The RFC 8785 text of `value`; throws a TypeError on values JCS cannot represent faithfully. */
export function canonicalJson(value: unknown): string {
  // A value whose members are already in canonical order (every envelope parsed from a canonical text:
  // what peers send and what our log holds) is serialized by JSON.stringify itself, which then writes
  // exactly the RFC 8785 form; the check is one cheap walk.
  if (inCanonicalOrder(value, 0)) return JSON.stringify(value);
  // Every write and every verification goes through here: one pass that checks and serializes at
  // once. On anything it refuses, the reference path below runs to name the problem and where it is.
  const fast = serialize(value, 0);
  if (fast !== undefined) return fast;
  assertCanonicalizable(value, '$', 0);
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON representation');
  return text;
}

/** No lone surrogate (String#isWellFormed: Node 20 has it, TypeScript's ES2023 lib does not). */
export const wellFormed = (s: string): boolean =>
  (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Whether JSON.stringify(value) is its RFC 8785 form: only values serialize accepts (plain objects,
 * arrays, well-formed strings, finite numbers, safe integers, booleans, null), and every object's own
 * keys, in the order JSON.stringify enumerates them, strictly ascending by UTF-16 code units. (Integer-
 * like keys enumerate first in numeric order, so {"10":…,"9":…} fails the check and takes serialize.)
 */
function inCanonicalOrder(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return wellFormed(value);
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if ((i > 0 && !(keys[i - 1]! < key)) || !wellFormed(key)) return false;
        if (!inCanonicalOrder((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * RFC 8785 in one pass, for exactly the values assertCanonicalizable accepts (undefined for anything
 * else): member names sorted by UTF-16 code units (Array#sort's default), strings and numbers as
 * JSON.stringify writes them (which is JCS's form for well-formed strings and finite numbers).
 */
function serialize(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return wellFormed(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
        return undefined;
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH) return undefined;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = serialize(value[i], depth + 1);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return undefined;
      const keys = Object.keys(value).sort();
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if (!wellFormed(key)) return undefined;
        const member = serialize((value as Record<string, unknown>)[key], depth + 1);
        if (member === undefined) return undefined;
        out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${member}`;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

function assertCanonicalizable(value: unknown, path: string, depth: number): void {
  switch (typeof value) {
    case 'string':
      if (LONE_SURROGATE.test(value)) throw fail(path, 'string contains a lone surrogate');
      return;
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw fail(path, `${value} is not allowed`);
      // Unsafe integers lose precision across implementations; parseStrictJson refuses them too.
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw fail(path, 'integer beyond ±(2^53-1)');
      }
      return;
    case 'object': {
      if (value === null) return;
      if (depth >= MAX_DEPTH) throw fail(path, `nesting deeper than ${MAX_DEPTH} levels`);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) assertCanonicalizable(value[i], `${path}[${i}]`, depth + 1);
        return;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw fail(path, 'only plain objects are allowed');
      for (const key of Object.keys(value)) {
        if (LONE_SURROGATE.test(key)) throw fail(path, 'object key contains a lone surrogate');
        assertCanonicalizable((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
      }
      return;
    }
    default:
      // undefined, bigint, symbol, function.
      throw fail(path, `${typeof value} is not allowed`);
  }
}

const fail = (path: string, reason: string) =>
  new TypeError(`canonicalJson: ${reason} at ${path.slice(0, 200)}`);
