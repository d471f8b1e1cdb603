// While a run goes on, names every test file that has been running for longer than RUN_WATCH_AFTER_MS
// (5 minutes by default) with the test it is in, again every further 5 minutes, and every 5 minutes says
// how many files are done. CI stops a run at 90 minutes and keeps only part of its output; a run that
// hangs then still says, in lines of their own, what it was waiting on.
//
// It also ends one known wedge of vitest's fork pool (TryGhost/Ghost#27996, #29649): a fork that has
// reported every test of its file but never tells the pool the file is over, which vitest awaits with no
// deadline. When that file is the only one left, every one of its tests has its result, and nothing has
// been heard for RUN_WATCH_WEDGE_MS (11 minutes by default: longer than any test or hook may take, so a
// slow afterAll is never cut short), the run ends here with the results reported, saying so.
import { readdirSync, readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { countResults, summaryLine } from './summary-reporter.js';

const EVERY_MS = 60_000;

/** What the watch knows of a file still running. */
export interface WatchedFile {
  readonly file: string;
  readonly started: number;
  /** When a test of it last started or ended (or the file started). */
  readonly lastActivity: number;
  /** The state of each of its tests (none before they are collected): pending, passed, failed or skipped. */
  readonly testStates: readonly string[];
}

/**
 * The file the pool waits on for nothing: the only one left, every test of it done, silent for `wedgeMs`.
 */
export function wedgedFile(
  running: readonly WatchedFile[],
  done: number,
  total: number,
  now: number,
  wedgeMs: number,
): WatchedFile | undefined {
  if (running.length !== 1 || done + 1 !== total) return undefined;
  const file = running[0]!;
  if (file.testStates.length === 0) return undefined;
  if (file.testStates.some((state) => state === 'pending')) return undefined;
  return now - file.lastActivity >= wedgeMs ? file : undefined;
}

interface Running {
  readonly module: TestModule;
  readonly started: number;
  lastActivity: number;
  current: string | undefined;
  lastSaid: number;
}

function msFromEnv(name: string, fallback: number): number {
  const raw = Number(process.env[name]);
  return Number.isFinite(raw) && raw > 0 ? raw : fallback;
}

export default class RunWatchReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private readonly ended: TestModule[] = [];
  private readonly after = msFromEnv('RUN_WATCH_AFTER_MS', 5 * 60_000);
  private readonly wedgeMs = msFromEnv('RUN_WATCH_WEDGE_MS', 11 * 60_000);
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  private lastProgress = 0;
  private total = 0;

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.started = Date.now();
    this.lastProgress = this.started;
    this.total = specifications.length;
    this.timer = setInterval(() => this.tick(), Math.min(EVERY_MS, this.after, this.wedgeMs));
    this.timer.unref();
  }

  onTestModuleStart(testModule: TestModule): void {
    const now = Date.now();
    this.running.set(testModule.relativeModuleId, {
      module: testModule,
      started: now,
      lastActivity: now,
      current: undefined,
      lastSaid: 0,
    });
  }

  onTestCaseReady(testCase: TestCase): void {
    const entry = this.running.get(testCase.module.relativeModuleId);
    if (!entry) return;
    entry.current = testCase.fullName;
    entry.lastActivity = Date.now();
  }

  onTestCaseResult(testCase: TestCase): void {
    const entry = this.running.get(testCase.module.relativeModuleId);
    if (entry) entry.lastActivity = Date.now();
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (this.running.delete(testModule.relativeModuleId)) this.ended.push(testModule);
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
        `[run-watch] ${minutes(now - this.started)} min: ${this.ended.length} of ${this.total} files done, ` +
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
    const watched = [...this.running].map(([file, e]) => ({
      file,
      started: e.started,
      lastActivity: e.lastActivity,
      testStates: [...e.module.children.allTests()].map((t) => t.result().state),
    }));
    const wedged = wedgedFile(watched, this.ended.length, this.total, now, this.wedgeMs);
    if (wedged) this.endWedgedRun(wedged, now);
  }

  private endWedgedRun(wedged: WatchedFile, now: number): void {
    const entry = this.running.get(wedged.file)!;
    console.log(
      `[run-watch] ${wedged.file}: each of its ${wedged.testStates.length} tests has its result, but the ` +
        `test pool has not heard the file end in ${minutes(now - wedged.lastActivity)} min, and no other ` +
        'file is left: vitest would wait on it for ever, so the run ends here with the results reported.',
    );
    const counts = countResults([...this.ended, entry.module], []);
    console.log(summaryLine(counts));
    killChildren();
    process.exit(counts.failed > 0 ? 1 : 0);
  }
}

/** SIGKILLs this process's children (the test pool's forks), so none outlives the run. */
function killChildren(): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) process.kill(Number(name), 'SIGKILL');
    } catch {
      // gone already, or not ours to read
    }
  }
}

function minutes(ms: number): string {
  return (ms / 60_000).toFixed(1);
}
