// Where the browser tests find Debian's Chromium, and what happens when it is missing: in CI (where
// .ci/run installs it) a missing browser fails the run; elsewhere the browser suites are skipped, and
// the reason is printed once so a skip never passes unnoticed.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let warned = false;

/** Whether the browser suites can run; throws under CI=true when Chromium is missing. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true')
    throw new Error(`Chromium is not at ${CHROMIUM} (set CHROMIUM_PATH); CI needs it for the browser tests`);
  if (!warned) {
    warned = true;
    console.warn(
      `[browser tests] skipped: Chromium is not at ${CHROMIUM}; install Debian's chromium or set CHROMIUM_PATH`,
    );
  }
  return false;
}
