// The HTML check of the page tests (html-validity.ts) bites: the W3C Nu checker (vnu-jar on Java) refuses
// what it found on our pages before (aria-label on a <pre>, a heading level skipped) and passes a clean
// page. Integration tier: it starts a JVM.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, describe, test } from 'vitest';
import { htmlCapture } from './html-validity.js';

const doc = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body><main>${body}</main></body></html>`;
const pageOf = (content: string) => ({ content: async () => content }) as unknown as Page;

describe('the HTML check of the page tests', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  test('given pages with an aria-label on a pre and an h1 followed by an h3, then it fails naming both; a clean page passes', async () => {
    const dir = `${await mkdtemp(`${tmpdir()}/html-validity-`)}/`;
    dirs.push(dir);
    const bad = htmlCapture(dir, 'bad.test.ts');
    await bad.capture(pageOf(doc('<h1>A</h1><pre aria-label="args">{}</pre>')), 'pre');
    await bad.capture(pageOf(doc('<h1>A</h1><h3>B</h3>')), 'headings');
    await assert.rejects(bad.validate(), (e: Error) => {
      assert.match(
        e.message,
        /001-pre\.html:\d+ The “aria-label” attribute must not be specified on any “pre” element/,
      );
      assert.match(e.message, /002-headings\.html:\d+ The heading “h3” .* skipping 1 heading level/);
      return true;
    });
    const good = htmlCapture(dir, 'good.test.ts');
    await good.capture(
      pageOf(doc('<h1>A</h1><h2>B</h2><pre tabindex="0" role="group" aria-label="args">{}</pre>')),
      'clean',
    );
    await good.validate();
  });
});
