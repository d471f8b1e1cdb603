// The one-round-trip append inlines values as SQL literals: they must read back exactly as bound.
import { openTestLog } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import pg from 'pg';
import { provenanceProjection, type ProjectedEvent } from '@tributary/projections';
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
  beforeAll(async () => {
    log = await openTestLog();
  });
  afterAll(async () => {
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

  test('given a provenance entry with awkward arguments, then its statement inlines (one round trip) and writes the row the bound one writes', async () => {
    const entry = (id: string): ProjectedEvent => ({
      id,
      type: 'provenance.recorded',
      origin: 'here',
      stream: `provenance-${id}`,
      streamVersion: 1,
      actorId: 'agent-1',
      occurredAt: '2026-11-25T01:02:03.456Z',
      data: {
        tool: 'svc.profile.update',
        surface: 'mcp',
        authMode: 'token',
        tokenJti: 'jti-1',
        actorId: 'agent-1',
        args: { bio: AWKWARD.join('|'), nested: { list: [1, 'two', null, true] } },
        outcome: 'refused',
        errorCode: 'input.invalid',
        durationMs: 12.34,
      },
    });
    const [inlinedStatement] = provenanceProjection.statements!(entry('entry-inlined'))!;
    const sql = inlineStatement(inlinedStatement!.text, inlinedStatement!.values);
    assert.ok(sql, 'every value of a provenance entry can be inlined');
    await log.pool.query(sql);
    const [bound] = provenanceProjection.statements!(entry('entry-bound'))!;
    await log.pool.query(bound!.text, [...bound!.values]);
    const { rows } = await log.pool.query(
      `SELECT entry_id, occurred_at, tool, surface, auth_mode, token_jti, controller_account_id, controller_agent_id,
              actor_id, args, outcome, error_code, duration_ms, request_id
       FROM rm_provenance WHERE entry_id IN ('entry-inlined', 'entry-bound') ORDER BY entry_id DESC`,
    );
    assert.equal(rows.length, 2);
    const [a, b] = rows.map(({ entry_id: _id, ...rest }) => rest);
    assert.deepEqual(a, b);
    assert.deepEqual(a.args, entry('x').data.args);
  });
});
