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

const badPage = (message: string) =>
  new DomainError('federation.bad_export_page', 'invalid', `the peer's export page is malformed: ${message}`);

/**
 * Reads a peer's export page `{"events":[{"sequence":n,"event":<envelope>},…],"head":n,"hasMore":b}`
 * (members in any order, unknown members ignored) and returns each event's exact text: the envelopes
 * are then verified on the bytes the peer sent, as on a push.
 */
export function splitExportPage(body: string): {
  events: { sequence: number; text: string }[];
  head: number;
  hasMore: boolean;
} {
  const wrap = <T>(read: () => T): T => {
    try {
      return read();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'federation.bad_batch') throw badPage(e.message);
      throw e;
    }
  };
  const top = wrap(() => objectMembers(body, 0, body.length));
  const eventsText = top.get('events');
  const head = Number(top.get('head'));
  const hasMore = top.get('hasMore');
  if (eventsText === undefined || !Number.isSafeInteger(head) || head < 0)
    throw badPage('expected "events" and a "head" sequence');
  if (hasMore !== 'true' && hasMore !== 'false') throw badPage('expected "hasMore": true or false');
  const events = wrap(() => arrayElements(eventsText)).map((element) => {
    const members = wrap(() => objectMembers(element, 0, element.length));
    const sequence = Number(members.get('sequence'));
    const text = members.get('event');
    if (!Number.isSafeInteger(sequence) || sequence < 1 || text === undefined)
      throw badPage('each event must be {"sequence":n,"event":{…}}');
    return { sequence, text };
  });
  return { events, head, hasMore: hasMore === 'true' };
}

/** The members of the object spanning `text`, each value as its exact text; duplicate names refused. */
function objectMembers(text: string, start: number, end: number): Map<string, string> {
  let pos = start;
  const skipWs = () => {
    while (pos < end && isWs(text.charCodeAt(pos))) pos++;
  };
  const members = new Map<string, string>();
  skipWs();
  if (text.charCodeAt(pos) !== 0x7b) throw badPage(`expected '{' at offset ${pos}`);
  pos++;
  skipWs();
  if (text.charCodeAt(pos) === 0x7d) pos++;
  else
    for (;;) {
      skipWs();
      if (text.charCodeAt(pos) !== 0x22) throw badPage(`expected a member name at offset ${pos}`);
      const nameEnd = endOfValue(text, pos);
      let name: string;
      try {
        name = JSON.parse(text.slice(pos, nameEnd)) as string;
      } catch {
        throw badPage(`bad member name at offset ${pos}`);
      }
      pos = nameEnd;
      skipWs();
      if (text.charCodeAt(pos) !== 0x3a) throw badPage(`expected ':' at offset ${pos}`);
      pos++;
      skipWs();
      const valueStart = pos;
      pos = endOfValue(text, pos);
      if (members.has(name)) throw badPage(`duplicate member "${name}"`);
      members.set(name, text.slice(valueStart, pos));
      skipWs();
      const c = text.charCodeAt(pos);
      if (c === 0x2c) pos++;
      else if (c === 0x7d) {
        pos++;
        break;
      } else throw badPage(`expected ',' or '}' at offset ${pos}`);
    }
  skipWs();
  if (pos !== end) throw badPage(`unexpected data at offset ${pos}`);
  return members;
}

/** The elements of the array spanning `text`, each as its exact text. */
function arrayElements(text: string): string[] {
  const framed = `{"events":${text}}`;
  return splitEventBatch(framed);
}
