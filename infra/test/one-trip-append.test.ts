// The one-round-trip append inlines values as SQL literals: they must read back exactly as bound.
import { openTestLog } from '@tributary/test';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { escapeLiteral, inlineStatement } from '../src/postgres/one-trip-append.js';

const AWKWARD = [
  '',
  'plain',
  "it's",
  'back\\slash',
  "both ' and \\ and \\'",
  '{"json":"with \\"escapes\\" \\\\ and \\u00e9"}',
  'ünï ✓ 😀 \u2028 tab\tnewline\n',
  "''''",
  '\\\\',
];

describe('one-trip append literals', () => {
  let log: Awaited<ReturnType<typeof openTestLog>>;
  before(async () => {
    log = await openTestLog();
  });
  after(async () => {
    await log.close();
  });

  test("given awkward strings, when escaped, then the text is pg.escapeLiteral's", () => {
    for (const s of AWKWARD) assert.equal(escapeLiteral(s), pg.escapeLiteral(s), JSON.stringify(s));
  });

  test('given awkward strings and arrays, when inlined and run, then Postgres reads back the values bound', async () => {
    const text =
      'SELECT $1::text AS one, $2::text[] AS many, $3::timestamptz[] AS times, $4::bigint[] AS ns, $5::text[] AS none';
    const values = [
      AWKWARD.join('|'),
      [...AWKWARD, null, 'NULL', 'a,b', '{x}'],
      ['2026-01-01T00:00:00.000Z', null],
      [1, 2, 9007199254740991],
      [],
    ];
    const sql = inlineStatement(text, values);
    assert.ok(sql);
    const inlined = (await log.pool.query(sql)).rows[0];
    const bound = (await log.pool.query(text, values)).rows[0];
    assert.deepEqual(inlined, bound);
    assert.deepEqual(inlined.many, values[1]);
  });
});
