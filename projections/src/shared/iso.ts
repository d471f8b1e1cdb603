/** A timestamp column as RFC 3339 text (PostgreSQL's timestamptz arrives as a Date). */
export const isoText = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/** The same for a column that may be null (or absent): null stays null. */
export const iso = (v: unknown): string | null => (v === null || v === undefined ? null : isoText(v));
