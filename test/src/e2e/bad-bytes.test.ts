// Bad bytes never reach the database as a 500: every route of the OpenAPI document is asked, by a
// signed-in person from the instance's own origin, with NUL and invalid UTF-8 in each path parameter, in
// its query, and in every string of its body. Each answer is a 4xx, and the log gains nothing.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Person } from './mcp-helpers.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
};
type Parameter = { name: string; in: string; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/** What stands for a string in a sampled body: replaced by the bad text once serialized. */
const MARK = 'BADBYTESHERE';
/** Percent-encoded, as a path segment or a query value: NUL, and bytes that are not UTF-8. */
const BAD_SEGMENTS = ['%00', 'a%00b', '%FF', 'a%C0%80', '%ED%A0%80', '%E2%82'];
/** As bytes in a JSON body, inside a string: NUL (escaped and a lone surrogate), and bytes that are not UTF-8. */
const BAD_IN_JSON: Buffer[] = [
  Buffer.from('a\\u0000b'),
  Buffer.from('a\\ud800b'),
  Buffer.from([0x61, 0xff, 0x62]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
];

function sample(doc: Doc, s: Schema, depth = 0): unknown {
  if (s.$ref) return sample(doc, doc.components.schemas[s.$ref.split('/').pop()!] ?? {}, depth);
  if (depth > 6) return MARK;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt) return sample(doc, alt[0]!, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      // Every field, so each string the route reads is a bad one.
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(doc, v, depth + 1);
      return out;
    }
    case 'array':
      return [sample(doc, s.items ?? { type: 'string' }, depth + 1)];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return MARK;
  }
}

const toPath = (template: string, values: Record<string, string>) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');

describe('bad bytes on every route', () => {
  let instance: TestInstance;
  let ada: Person;
  let doc: Doc;
  const events = async () =>
    Number(
      (
        await instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`,
        )
      ).rows[0].n,
    );

  beforeAll(async () => {
    instance = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'group',
        INSTANCE_NAME: 'Bytes',
        // A refusal for the rate would hide what the route itself answers.
        RATE_LIMIT_REGISTRATION: '100000/h',
        RATE_LIMIT_DISCOVERY: '100000/min',
        RATE_LIMIT_FEED: '100000/min',
        RATE_LIMIT_TLS_ASK: '100000/min',
        RATE_LIMIT_SSO: '100000/min',
      },
    });
    ada = await signUp(instance.url, 'ada');
    doc = (await (await fetch(`${instance.url}/api/openapi.json`)).json()) as Doc;
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  const send = async (method: string, path: string, body?: { type: string; bytes: Buffer }) => {
    const res = await fetch(instance.url + path, {
      method: method.toUpperCase(),
      headers: {
        cookie: ada.browser.cookie,
        origin: instance.url,
        ...(body && { 'content-type': body.type }),
      },
      ...(body && { body: body.bytes }),
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, text: text.slice(0, 200) };
  };

  test('given a thread path of NUL or invalid UTF-8, when asked with GET, DELETE and PATCH, then 400 request.bad_bytes', async () => {
    for (const bad of ['%00', '%FF'])
      for (const [method, path] of [
        ['GET', `/api/autobot/threads/${bad}`],
        ['DELETE', `/api/autobot/threads/${bad}`],
        ['PATCH', `/api/autobot/threads/${bad}/messages/x/actions`],
      ] as const) {
        const r = await ada.browser.call(
          method,
          path,
          method === 'PATCH' ? { decision: 'cancel' } : undefined,
          {
            origin: instance.url,
          },
        );
        assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
        assert.equal(r.json.code, 'request.bad_bytes');
      }
  });

  test('given every route of the OpenAPI document, when NUL or invalid UTF-8 is in its path, query or body, then it answers 4xx and writes nothing', async () => {
    const before = await events();
    const wrong: string[] = [];
    let asked = 0;
    const check = (what: string, r: { status: number; text: string }) => {
      asked++;
      // 4xx; or 503 from a surface not configured here (Stripe's webhook), which reads nothing first.
      if (r.status < 400 || (r.status >= 500 && r.status !== 503))
        wrong.push(`${what} → ${r.status} ${r.text}`);
    };
    for (const [template, ops] of Object.entries(doc.paths)) {
      const pathParams = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'parameters' || method === 'options' || method === 'head') continue;
        for (const name of pathParams)
          for (const bad of BAD_SEGMENTS) {
            const path = toPath(template, { [name]: bad });
            check(`${method} ${path}`, await send(method, path));
          }
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (const bad of BAD_SEGMENTS.slice(0, 3)) {
          const names = queryNames.length > 0 ? queryNames : ['q'];
          const path = `${toPath(template, {})}?${names.map((n) => `${n}=${bad}`).join('&')}`;
          check(`${method} ${path}`, await send(method, path));
        }
        const content = op.requestBody?.content ?? {};
        const json = content['application/json'];
        if (json) {
          const text = JSON.stringify(sample(doc, json.schema ?? { type: 'object' }));
          // A body without a string has nowhere to put bad bytes (and would be a valid call: sign-out).
          for (const bad of text.includes(MARK) ? BAD_IN_JSON : []) {
            const bytes = Buffer.concat(
              text
                .split(MARK)
                .flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [bad, Buffer.from(part)])),
            );
            check(
              `${method} ${template} body ${bad.toString('hex')}`,
              await send(method, toPath(template, {}), { type: 'application/json', bytes }),
            );
          }
        }
        const form = content['application/x-www-form-urlencoded'];
        if (form) {
          const fields = Object.keys((sample(doc, form.schema ?? {}) as Record<string, unknown>) ?? {});
          for (const bad of BAD_SEGMENTS) {
            const bytes = Buffer.from(
              (fields.length > 0 ? fields : ['q']).map((f) => `${f}=${bad}`).join('&'),
            );
            check(
              `${method} ${template} form ${bad}`,
              await send(method, toPath(template, {}), {
                type: 'application/x-www-form-urlencoded',
                bytes,
              }),
            );
          }
        }
      }
    }
    assert.ok(asked > 1000, `only ${asked} requests: the enumeration is broken`);
    // Every request went out signed in: no bad request ended the session.
    assert.equal((await ada.browser.post('/api/ops/svc.agent.list_personas', {})).status, 200);
    assert.deepEqual(wrong, [], `answers that are not 4xx:\n${wrong.join('\n')}`);
    assert.equal(await events(), before, 'the log gained events');
  });
});
