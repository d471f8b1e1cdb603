// The W3C Nu HTML checker (the `vnu-jar` package: vnu.jar, run on the machine's Java 17) over the pages
// a page-test file captured (docs/web.md#tests). The JVM starts slowly, so it runs once per file, after
// its last test, over every page the file's journeys showed, not once per page.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';

const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** Where one test file's pages go: test-artifacts/web/html/<file>/ (each file runs in its own process). */
function folderOf(artifacts: string, testFile: string): string {
  return `${artifacts}html/${basename(testFile).replace(/\.test\.ts$/, '')}/`;
}

export interface HtmlCapture {
  /** Writes the page's document as the browser holds it (after its scripts) for the check. */
  capture(page: Page, name: string): Promise<void>;
  /** Runs the checker once over every captured page; fails listing each error with its page and line. */
  validate(): Promise<void>;
}

export function htmlCapture(artifacts: string, testFile: string): HtmlCapture {
  const folder = folderOf(artifacts, testFile);
  const files: string[] = [];
  let cleared: Promise<void> | undefined;
  return {
    async capture(page, name) {
      // A page shown twice under one name (before and after an edit) is kept twice.
      cleared ??= rm(folder, { recursive: true, force: true }).then(async () => {
        await mkdir(folder, { recursive: true });
      });
      await cleared;
      const file = `${folder}${String(files.length + 1).padStart(3, '0')}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}.html`;
      files.push(file);
      await writeFile(file, await page.content());
    },
    async validate() {
      if (!files.length) return;
      const { stdout, stderr } = await promisify(execFile)(
        'java',
        ['-jar', VNU_JAR, '--format', 'json', '--errors-only', '--exit-zero-always', ...files],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      const out = (stdout.trim() || stderr.trim()) as string;
      const messages = (JSON.parse(out) as { messages: VnuMessage[] }).messages;
      const errors = messages.filter((m) => m.type === 'error' || m.subType === 'fatal');
      assert.deepEqual(
        errors.map((m) => `${basename(m.url ?? '?')}:${m.lastLine ?? '?'} ${m.message} — ${m.extract ?? ''}`),
        [],
        `the W3C Nu HTML checker found errors in the pages of ${basename(testFile)} (test-artifacts/web/html/)`,
      );
    },
  };
}
