// A part of `tributary status` that an area contributes (docs/cli.md#status): its member of the report,
// read off the database like the rest, and its lines. status.ts walks the list in status-parts.ts as
// compose.ts walks compose/areas.ts. Status loads none of the instance's modules to answer within a
// second, so a part imports only node and npm packages, types, and single helpers by their own path
// (`@tributary/projections/iso`), never a workspace's index.
import type pg from 'pg';

/** What a part reads with, once the database answers and holds an instance. */
export interface StatusReading {
  query<T extends pg.QueryResultRow>(sql: string): Promise<T[]>;
  /** A variable as `start` reads it: trimmed, undefined when unset or blank. */
  setting(name: string): string | undefined;
  /** The feed's head (a push cursor's lag is counted against it). */
  feedHead: number;
  /** A line for the report's warnings: they come in the order the parts are read. */
  warn(line: string): void;
}

export interface StatusPart<K extends string, V> {
  /** Its member in the report (`status --json`). */
  key: K;
  /** What the member holds when the database does not answer or holds no instance. */
  none: V;
  /**
   * Where its lines go: `runs` among what runs (after the log), `instance` among the instance's state
   * (after the operators, printed only once there is an instance).
   */
  place: 'runs' | 'instance';
  read(r: StatusReading): Promise<V>;
  print(value: V, print: (line: string) => void): void;
}

/** A part with its key's and value's types kept, for the list in status-parts.ts. */
export const defineStatusPart = <K extends string, V>(part: StatusPart<K, V>): StatusPart<K, V> => part;

/** A database, Redis or SMTP URL without its password, for printing. */
export function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
