// Every event type and every aggregate an area defines is in the registry composed from the areas'
// lists: an event left out of its area's list could not be written, read or imported.
import { ALL_AGGREGATES, EVENT_CATALOGUE, eventDefinition } from '@tributary/domain';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const NOT_AREAS = new Set(['shared', 'registries']);

/** Every export of every area's index, by area. */
async function areaExports(): Promise<[area: string, name: string, value: unknown][]> {
  const out: [string, string, unknown][] = [];
  for (const entry of readdirSync(SRC, { withFileTypes: true })) {
    if (!entry.isDirectory() || NOT_AREAS.has(entry.name)) continue;
    const mod = (await import(`${SRC}${entry.name}/index.ts`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) out.push([entry.name, name, value]);
  }
  return out;
}

const isEventDefinition = (v: unknown): v is { type: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { type?: unknown }).type === 'string' &&
  typeof (v as { version?: unknown }).version === 'number' &&
  typeof (v as { federable?: unknown }).federable === 'boolean' &&
  'data' in v;

const isStreamAggregate = (v: unknown): v is { prefix: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { prefix?: unknown }).prefix === 'string' &&
  typeof (v as { aggregate?: { evolve?: unknown } }).aggregate?.evolve === 'function';

describe('the domain registries', () => {
  test('given every event an area defines, then each is in the event catalogue, under its own type', async () => {
    const defined = (await areaExports()).filter(([, , v]) => isEventDefinition(v));
    assert.ok(defined.length >= EVENT_CATALOGUE.length, 'the areas define the catalogued events');
    for (const [area, name, def] of defined) {
      assert.ok(
        (EVENT_CATALOGUE as readonly unknown[]).includes(def),
        `${area}: ${name} is in no area's events list`,
      );
      assert.equal(eventDefinition((def as { type: string }).type), def);
    }
  });

  test('given every stream aggregate an area defines, then each is in the aggregate registry', async () => {
    const defined = (await areaExports()).filter(([, , v]) => isStreamAggregate(v));
    assert.ok(defined.length > 0);
    for (const [area, name, agg] of defined)
      assert.ok(ALL_AGGREGATES.includes(agg as never), `${area}: ${name} is in no area's aggregates list`);
  });

  test('given the composed registries, then no event type and no stream prefix is listed twice', () => {
    const types = EVENT_CATALOGUE.map((d) => d.type);
    assert.equal(new Set(types).size, types.length);
    const prefixes = ALL_AGGREGATES.map((a) => a.prefix);
    assert.equal(new Set(prefixes).size, prefixes.length);
  });
});
