// Upstream's node transform is an array of numbers: the 4×4 matrix of translation × rotation × scale,
// column-major as glTF writes `node.matrix` (services/src/spatial/wow-documents.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { transformMatrix } from '../src/spatial/wow-documents.js';

const close = (actual: number[], expected: number[]) => {
  assert.equal(actual.length, expected.length);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]!) < 1e-12, `[${i}] ${v} ≠ ${expected[i]}`));
};

describe('transformMatrix', () => {
  test('given the identity transform, then the identity matrix', () => {
    close(
      transformMatrix({ position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }),
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    );
  });

  test('given a quarter turn about z, a scale of 2 and a translation, then x goes to y, y to −x, columns scaled, translation last', () => {
    const h = Math.SQRT1_2;
    close(
      transformMatrix({ position: [1, 2, 3], rotation: [0, 0, h, h], scale: [2, 2, 2] }),
      [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1],
    );
  });

  test('given a half turn about x and a scale per axis, then y and z flip and each column carries its own scale', () => {
    close(
      transformMatrix({ position: [0, 0, 0], rotation: [1, 0, 0, 0], scale: [1, 2, 3] }),
      [1, 0, 0, 0, 0, -2, 0, 0, 0, 0, -3, 0, 0, 0, 0, 1],
    );
  });
});
