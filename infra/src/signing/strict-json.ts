// A strict RFC 8259 parser for signed envelopes (docs/architecture.md#envelope).
// Why not JSON.parse: it keeps the last of duplicate keys and accepts any spelling of a number, so two
// implementations could read different values out of the same signed bytes. We reject duplicate keys
// and every number literal that is not exactly what RFC 8785 (ECMAScript) would print, before verifying.
// Hand-written with charCodeAt and slices (no regex per character) because it runs on every import.
import { DomainError } from '@tributary/domain';
import { wellFormed } from './canonical-json.js';

/** Deeper nesting is refused rather than risking a stack overflow on hostile input. */
const MAX_DEPTH = 512;

const malformed = (message: string) => new DomainError('envelope.malformed_json', 'invalid', message);
const nonCanonical = (message: string) =>
  new DomainError('envelope.non_canonical_number', 'invalid', message);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Controls JSON.stringify writes as \b \t \n \f \r rather than \u00xx. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** Parses `text` as one JSON value; throws a DomainError (kind 'invalid') on anything we would not sign. */
export function parseStrictJson(text: string): unknown {
  return parseStrictJsonForm(text).value;
}

/** A strictly parsed value, and what the parse saw of the text's form. */
interface StrictJsonForm {
  value: unknown;
  /**
   * Whether `text` is exactly the RFC 8785 serialization of `value`: no whitespace, every object's
   * members in ascending UTF-16 order, strings well formed with only the escapes JSON.stringify writes
   * (numbers are always canonical here: any other spelling is refused).
   */
  canonical: boolean;
  /** The top-level member named in the call, if any: from its key's opening quote to its value's end. */
  member?: { start: number; end: number };
}

/** parseStrictJson, noting whether the text is canonical and where a top-level member sits. */
export function parseStrictJsonForm(text: string, memberName?: string): StrictJsonForm {
  const parser = new StrictJsonParser(text, memberName);
  parser.skipWhitespace();
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (parser.pos !== text.length)
    throw malformed(`unexpected data after the JSON value at offset ${parser.pos}`);
  return parser.member
    ? { value, canonical: parser.canonical, member: parser.member }
    : { value, canonical: parser.canonical };
}

class StrictJsonParser {
  pos = 0;
  /** Cleared at the first thing RFC 8785 would write otherwise. */
  canonical = true;
  member: { start: number; end: number } | undefined;
  private readonly text: string;
  private readonly length: number;

  constructor(
    text: string,
    private readonly memberName?: string,
  ) {
    this.text = text;
    this.length = text.length;
  }

  skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      // RFC 8259 whitespace only: space, tab, line feed, carriage return (no BOM, no NBSP).
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    if (pos !== this.pos) this.canonical = false;
    this.pos = pos;
  }

  parseValue(depth: number): unknown {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case OPEN_BRACE:
        return this.parseObject(depth + 1);
      case OPEN_BRACKET:
        return this.parseArray(depth + 1);
      case QUOTE:
        return this.parseString();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (c === MINUS || isDigit(c)) return this.parseNumber();
        throw this.unexpected('a value');
    }
  }

  private unexpected(expected: string): DomainError {
    if (this.pos >= this.length) return malformed(`unexpected end of input, expected ${expected}`);
    return malformed(`unexpected character at offset ${this.pos}, expected ${expected}`);
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) throw this.unexpected('a value');
    this.pos += word.length;
    return value;
  }

  /**
   * Duplicate keys are found by counting: if fewer own keys than members came out, one repeated. That
   * costs nothing per key (a hasOwn per member doubled the parse time); only then is the object parsed
   * again with `findDuplicate` set, to name the key and its offset.
   */
  private parseObject(depth: number, findDuplicate = false): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw malformed(`nesting deeper than ${MAX_DEPTH} levels`);
    const text = this.text;
    const start = this.pos;
    // A plain object, like JSON.parse returns, so callers and deepEqual see the same thing.
    const result: Record<string, unknown> = {};
    let members = 0;
    let previousKey: string | undefined;
    this.pos++; // {
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_BRACE) {
      this.pos++;
      return result;
    }
    for (;;) {
      if (text.charCodeAt(this.pos) !== QUOTE) throw this.unexpected('a string key');
      const keyOffset = this.pos;
      const key = this.parseString();
      if (findDuplicate && Object.hasOwn(result, key)) {
        throw new DomainError(
          'envelope.duplicate_key',
          'invalid',
          `duplicate object key ${JSON.stringify(key.slice(0, 64))} at offset ${keyOffset}`,
        );
      }
      // RFC 8785 orders members by their keys' UTF-16 code units, which is what `<` compares.
      if (previousKey !== undefined && !(previousKey < key)) this.canonical = false;
      previousKey = key;
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== COLON) throw this.unexpected("':'");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(depth);
      if (depth === 1 && key === this.memberName) this.member = { start: keyOffset, end: this.pos };
      if (key === '__proto__') {
        // Assignment would replace the prototype; JSON.parse defines an own property instead.
        Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        result[key] = value;
      }
      members++;
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === CLOSE_BRACE) {
        this.pos++;
        if (Object.keys(result).length !== members) {
          this.pos = start;
          this.parseObject(depth, true); // throws envelope.duplicate_key
        }
        return result;
      } else {
        throw this.unexpected("',' or '}'");
      }
    }
  }

  private parseArray(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw malformed(`nesting deeper than ${MAX_DEPTH} levels`);
    const text = this.text;
    const result: unknown[] = [];
    this.pos++; // [
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_BRACKET) {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.parseValue(depth));
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === CLOSE_BRACKET) {
        this.pos++;
        return result;
      } else {
        throw this.unexpected("',' or ']'");
      }
    }
  }

  private parseString(): string {
    const text = this.text;
    const length = this.length;
    let pos = this.pos + 1; // opening quote
    let runStart = pos;
    let out = '';
    for (;;) {
      if (pos >= length) {
        this.pos = pos;
        throw malformed('unterminated string');
      }
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
        const value = out + text.slice(runStart, pos);
        // RFC 8785 has no form for a lone surrogate (canonicalJson refuses one).
        if (this.canonical && !wellFormed(value)) this.canonical = false;
        return value;
      }
      if (c === BACKSLASH) {
        out += text.slice(runStart, pos) + this.parseEscape(pos + 1);
        pos = this.pos;
        runStart = pos;
        continue;
      }
      if (c < 0x20) {
        throw malformed(`unescaped control character in string at offset ${pos}`);
      }
      pos++;
    }
  }

  /**
   * Decodes the escape starting at `pos` (after the backslash) and leaves `this.pos` after it. RFC 8785
   * (JSON.stringify) escapes only `"`, `\` and the controls below U+0020 — \b \t \n \f \r, the rest as
   * lowercase \u00xx — so any other escape means the text is not canonical.
   */
  private parseEscape(pos: number): string {
    const c = this.text.charCodeAt(pos);
    this.pos = pos + 1;
    switch (c) {
      case QUOTE:
        return '"';
      case BACKSLASH:
        return '\\';
      case 0x2f: // /
        this.canonical = false;
        return '/';
      case 0x62: // b
        return '\b';
      case 0x66: // f
        return '\f';
      case 0x6e: // n
        return '\n';
      case 0x72: // r
        return '\r';
      case 0x74: // t
        return '\t';
      case 0x75: {
        // u: four hex digits. A lone surrogate parses (as in JSON.parse); canonicalJson refuses it
        // later, because RFC 8785 requires well-formed Unicode (I-JSON).
        let code = 0;
        let upper = false;
        for (let i = 1; i <= 4; i++) {
          const h = this.text.charCodeAt(pos + i);
          let d: number;
          if (h >= 0x30 && h <= 0x39) d = h - 0x30;
          else if (h >= 0x61 && h <= 0x66) d = h - 0x57;
          else if (h >= 0x41 && h <= 0x46) {
            d = h - 0x37;
            upper = true;
          } else throw malformed(`invalid \\u escape at offset ${pos - 1}`);
          code = (code << 4) | d;
        }
        // Canonical only for a control without a short form, in lowercase hex.
        if (upper || code >= 0x20 || SHORT_ESCAPES.has(code)) this.canonical = false;
        this.pos = pos + 5;
        return String.fromCharCode(code);
      }
      default:
        throw malformed(`invalid escape at offset ${pos - 1}`);
    }
  }

  private parseNumber(): number {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let c = text.charCodeAt(pos);
    if (c === MINUS) c = text.charCodeAt(++pos);
    if (c === ZERO) {
      c = text.charCodeAt(++pos);
      if (isDigit(c)) throw nonCanonical(`number with a leading zero at offset ${start}`);
    } else if (c >= ONE && c <= NINE) {
      do c = text.charCodeAt(++pos);
      while (isDigit(c));
    } else {
      this.pos = pos;
      throw this.unexpected('a digit');
    }
    let integerSyntax = true;
    if (c === DOT) {
      integerSyntax = false;
      c = text.charCodeAt(++pos);
      if (!isDigit(c)) {
        this.pos = pos;
        throw this.unexpected('a digit after the decimal point');
      }
      do c = text.charCodeAt(++pos);
      while (isDigit(c));
    }
    if (c === LOWER_E || c === UPPER_E) {
      integerSyntax = false;
      c = text.charCodeAt(++pos);
      if (c === PLUS || c === MINUS) c = text.charCodeAt(++pos);
      if (!isDigit(c)) {
        this.pos = pos;
        throw this.unexpected('a digit in the exponent');
      }
      do c = text.charCodeAt(++pos);
      while (isDigit(c));
    }
    this.pos = pos;
    const literal = text.slice(start, pos);
    const value = Number(literal);
    // Fast path: plain integers of at most 15 characters are canonical and safe, except "-0".
    if (integerSyntax && pos - start <= 15 && literal !== '-0') return value;
    if (String(value) !== literal) {
      throw nonCanonical(`number ${literal.slice(0, 40)} at offset ${start} is not in canonical form`);
    }
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw nonCanonical(`integer ${literal.slice(0, 40)} at offset ${start} is beyond ±(2^53-1)`);
    }
    return value;
  }
}
