// Splits an import batch `{"events":[e1,e2,…]}` into the exact text of each element, so every event is
// verified and stored as the bytes received, never as a re-serialization. Only the frame is read here;
// each element is then parsed strictly on its own (duplicate keys, non-canonical numbers), so one bad
// event is refused alone and the rest of the batch still counts.
import { DomainError } from '@tributary/domain';

const badBatch = (message: string) =>
  new DomainError('federation.bad_batch', 'invalid', `the batch must be {"events":[…]}: ${message}`);

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function splitEventBatch(body: string): string[] {
  let pos = 0;
  const n = body.length;
  const skipWs = () => {
    while (pos < n && isWs(body.charCodeAt(pos))) pos++;
  };
  const expect = (literal: string, what: string) => {
    skipWs();
    if (!body.startsWith(literal, pos)) throw badBatch(`expected ${what} at offset ${pos}`);
    pos += literal.length;
  };
  expect('{', "'{'");
  expect('"events"', 'the one member "events"');
  expect(':', "':'");
  expect('[', "'['");
  const out: string[] = [];
  skipWs();
  if (body.charCodeAt(pos) === 0x5d) pos++;
  else
    for (;;) {
      skipWs();
      const start = pos;
      pos = endOfValue(body, pos);
      out.push(body.slice(start, pos));
      skipWs();
      const c = body.charCodeAt(pos);
      if (c === 0x2c) pos++;
      else if (c === 0x5d) {
        pos++;
        break;
      } else throw badBatch(`expected ',' or ']' at offset ${pos}`);
    }
  expect('}', "'}' (no other members)");
  skipWs();
  if (pos !== n) throw badBatch(`unexpected data after the batch at offset ${pos}`);
  return out;
}

/** Where the JSON value starting at `start` ends: brackets are counted outside strings only. */
function endOfValue(text: string, start: number): number {
  const n = text.length;
  let pos = start;
  let depth = 0;
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (c === 0x22) {
      pos++;
      while (pos < n && text.charCodeAt(pos) !== 0x22) pos += text.charCodeAt(pos) === 0x5c ? 2 : 1;
      if (pos >= n) throw badBatch('unterminated string');
      pos++;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      pos++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) break; // the end of the enclosing array
      depth--;
      pos++;
    } else if (depth === 0 && (c === 0x2c || isWs(c))) break;
    else pos++;
    if (depth === 0 && (c === 0x22 || c === 0x7d || c === 0x5d)) break;
  }
  if (depth !== 0) throw badBatch('unbalanced brackets');
  if (pos === start) throw badBatch(`expected a value at offset ${start}`);
  return pos;
}
