// A value a JSON Schema plausibly accepts, for suites that run every operation with some input.
import { randomUUID } from 'node:crypto';

export type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
};

/** A value the schema plausibly accepts: the required fields only, each as small as allowed. */
export function sample(s: Schema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return sample(alt[0]!);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) if (s.properties?.[k]) out[k] = sample(s.properties[k]);
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'uri') return 'https://example.com/';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'date-time') return new Date().toISOString();
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return {};
  }
}
