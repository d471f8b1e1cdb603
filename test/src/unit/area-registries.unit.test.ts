// Every registry composed from the areas' lists — operations and plan-step words (services), events,
// aggregates and error codes (domain), projections — names the same areas, one entry each, and each
// entry is the list its area composes and offers from its index (docs/architecture.md#areas).
import { AREA_AGGREGATES, AREA_ERROR_CODES, AREA_EVENTS, AREAS } from '@tributary/domain';
import { allProjections, AREA_PROJECTIONS, eventCountsProjection } from '@tributary/projections';
import { AREA_OPERATIONS, AREA_STEP_WORDS, catalogueOperations } from '@tributary/services';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const REGISTRIES = {
  operations: AREA_OPERATIONS,
  'step words': AREA_STEP_WORDS,
  events: AREA_EVENTS,
  aggregates: AREA_AGGREGATES,
  'error codes': AREA_ERROR_CODES,
  projections: AREA_PROJECTIONS,
} as const;

/** The area folders of a layer's src/, without the layer's own machinery. */
const areaFolders = (layer: string, machinery: string[]) =>
  readdirSync(fileURLToPath(new URL(`../../../${layer}/src/`, import.meta.url)), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !machinery.includes(e.name))
    .map((e) => e.name)
    .sort();

const index = async (layer: string, area: string) =>
  Object.values(
    (await import(
      fileURLToPath(new URL(`../../../${layer}/src/${area}/index.ts`, import.meta.url))
    )) as Record<string, unknown>,
  );

const isEmpty = (entry: object) => Object.keys(entry).length === 0;

describe('the area registries', () => {
  test('given every registry, then each names exactly the areas, once each', () => {
    expect(new Set(AREAS).size).toBe(AREAS.length);
    for (const [name, registry] of Object.entries(REGISTRIES))
      expect(Object.keys(registry).sort(), name).toEqual([...AREAS].sort());
  });

  test('given each layer, then its area folders are areas, and services has a folder for every area', () => {
    const areas = new Set<string>(AREAS);
    expect(areaFolders('services', ['pipeline', 'ports', 'shared'])).toEqual([...AREAS].sort());
    for (const folder of areaFolders('domain', ['registries', 'shared'])) expect(areas).toContain(folder);
    for (const folder of areaFolders('projections', ['shared'])) expect(areas).toContain(folder);
  });

  test('given an area with a folder in the layer, then its entry is the list its index offers; without one, the entry is empty', async () => {
    const layers = [
      ['services', AREA_OPERATIONS, ['pipeline', 'ports', 'shared']],
      ['domain', AREA_EVENTS, ['registries', 'shared']],
      ['domain', AREA_AGGREGATES, ['registries', 'shared']],
      ['domain', AREA_ERROR_CODES, ['registries', 'shared']],
      ['projections', AREA_PROJECTIONS, ['shared']],
    ] as const;
    for (const [layer, registry, machinery] of layers) {
      const folders = areaFolders(layer, [...machinery]);
      for (const [area, entry] of Object.entries(registry) as [string, object][])
        if (folders.includes(area)) expect(await index(layer, area), `${layer}/${area}`).toContain(entry);
        else expect(isEmpty(entry), `${layer}: ${area} has no folder but a list`).toBe(true);
    }
  });

  test('given the catalogue and the projections, then they are the areas’ lists, and only they', () => {
    expect(catalogueOperations()).toEqual(Object.values(AREA_OPERATIONS).flat());
    expect(allProjections).toEqual([...Object.values(AREA_PROJECTIONS).flat(), eventCountsProjection]);
  });
});
