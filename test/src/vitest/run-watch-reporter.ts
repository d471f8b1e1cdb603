// While a run goes on, names every test file that has been running for longer than RUN_WATCH_AFTER_MS
// (5 minutes by default) with the test it is in, again every further 5 minutes, and every 5 minutes says
// how many files are done. CI stops a run at 90 minutes and keeps only part of its output; a run that
// hangs (a test process stuck in native code, where no test timeout can fire) then still says, in lines
// of their own, what it was waiting on.
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';

const EVERY_MS = 60_000;

interface Running {
  readonly started: number;
  current: string | undefined;
  lastSaid: number;
}

function watchAfterMs(): number {
  const raw = Number(process.env.RUN_WATCH_AFTER_MS);
  return Number.isFinite(raw) && raw > 0 ? raw : 5 * 60_000;
}

export default class RunWatchReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private readonly after = watchAfterMs();
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  private lastProgress = 0;
  private total = 0;
  private done = 0;

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.started = Date.now();
    this.lastProgress = this.started;
    this.total = specifications.length;
    this.timer = setInterval(() => this.tick(), Math.min(EVERY_MS, this.after));
    this.timer.unref();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.running.set(testModule.relativeModuleId, { started: Date.now(), current: undefined, lastSaid: 0 });
  }

  onTestCaseReady(testCase: TestCase): void {
    const entry = this.running.get(testCase.module.relativeModuleId);
    if (entry) entry.current = testCase.fullName;
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (this.running.delete(testModule.relativeModuleId)) this.done += 1;
  }

  onTestRunEnd(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    if (now - this.lastProgress >= this.after) {
      this.lastProgress = now;
      console.log(
        `[run-watch] ${minutes(now - this.started)} min: ${this.done} of ${this.total} files done, ` +
          `${this.running.size} running`,
      );
    }
    for (const [file, entry] of this.running) {
      if (now - entry.started < this.after || now - entry.lastSaid < this.after) continue;
      entry.lastSaid = now;
      console.log(
        `[run-watch] ${file} has run ${minutes(now - entry.started)} min` +
          (entry.current === undefined ? ' (no test started yet)' : `, in: ${entry.current}`),
      );
    }
  }
}

function minutes(ms: number): string {
  return (ms / 60_000).toFixed(1);
}
