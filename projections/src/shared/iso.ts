/** A timestamp column as RFC 3339 text (PostgreSQL's timestamptz arrives as a Date); null stays null. */
export const iso = (v: unknown): string | null =>
  v instanceof Date ? v.toISOString() : v === null ? null : String(v);
