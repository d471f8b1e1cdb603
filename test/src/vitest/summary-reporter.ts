// Ends every run with one line `N passed, M failed[, K skipped]`, the line scripts and CI read (vitest's
// own summary is laid out differently). A file that fails to load, a failing beforeAll/afterAll (whose
// tests vitest reports as skipped), a test that never finished and an error outside any test each count
// as a failure, so a run that lost tests never reads as clean.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.errors().length > 0) failed += 1;
      for (const suite of testModule.children.allSuites()) if (suite.errors().length > 0) failed += 1;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else if (state === 'skipped') skipped += 1;
        else failed += 1;
      }
    }
    console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}
