// CPU time from /proc (Linux): this process, another process by pid, and the embedded PostgreSQL this
// process started (its postmaster and every backend), so a benchmark can say what a unit of work cost in
// CPU on each side, which a shared machine's wall time cannot. Elsewhere every reading is 0.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  cpuMs: number;
}

function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const rest = text.slice(close + 2).split(' ');
    // After the comm: state(0) ppid(1) … utime(11) stime(12).
    return { pid, comm, ppid: Number(rest[1]), cpuMs: (Number(rest[11]) + Number(rest[12])) * TICK_MS };
  } catch {
    return null;
  }
}

export interface CpuReading {
  /** This process, all threads (ms). */
  self: number;
  /** The other process named, all threads (ms). */
  other: number;
  /** The PostgreSQL this process started: postmaster and backends alive now (ms). */
  postgres: number;
}

/** CPU used so far by this process, by `otherPid` (if any) and by the PostgreSQL this process started. */
export function cpuReading(otherPid?: number): CpuReading {
  const u = process.cpuUsage();
  const self = (u.user + u.system) / 1000;
  const other = otherPid === undefined ? 0 : (stat(otherPid)?.cpuMs ?? 0);
  let all: Stat[] = [];
  try {
    all = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((d) => stat(Number(d)))
      .filter((s): s is Stat => s !== null && s.comm.startsWith('postgres'));
  } catch {
    return { self, other, postgres: 0 };
  }
  const masters = new Set(all.filter((s) => s.ppid === process.pid).map((s) => s.pid));
  const postgres = all
    .filter((s) => masters.has(s.pid) || masters.has(s.ppid))
    .reduce((sum, s) => sum + s.cpuMs, 0);
  return { self, other, postgres };
}

/** `after - before`, per unit of work, in µs: what each side spent. */
export function cpuPer(before: CpuReading, after: CpuReading, units: number): string {
  const us = (a: number, b: number) => Math.round(((a - b) * 1000) / units);
  const self = us(after.self, before.self);
  const other = us(after.other, before.other);
  const pg = us(after.postgres, before.postgres);
  return `CPU per event: ${self} µs here, ${other} µs the origin's process, ${pg} µs PostgreSQL (backends alive at the end), ${self + other + pg} µs in all`;
}
