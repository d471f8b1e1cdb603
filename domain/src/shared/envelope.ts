// The signed envelope (docs/architecture.md#envelope, docs/envelope.md). The signature covers the JCS form of every field but `sig`.
// The local log position (the feed sequence) is never part of it.
import { z } from 'zod';

export interface UnsignedEnvelope {
  v: 1;
  id: string;
  type: string;
  origin: string;
  keyId: string;
  stream: string;
  streamVersion: number;
  actorId: string;
  occurredAt: string;
  nonce: string;
  data: Record<string, unknown>;
}

export interface Envelope extends UnsignedEnvelope {
  sig: string;
}

const base64url = /^[A-Za-z0-9_-]+$/;

/** Shape check only; canonical bytes and signature are checked by the verifier. */
export const envelopeSchema = z.strictObject({
  v: z.literal(1),
  id: z.string().min(1).max(64),
  type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/),
  origin: z.string().min(1).max(200),
  keyId: z.string().min(1).max(200),
  stream: z.string().min(1).max(200),
  streamVersion: z.number().int().positive(),
  actorId: z.string().min(1).max(200),
  occurredAt: z.string().datetime({ offset: true }),
  nonce: z.string().regex(base64url).min(22).max(64),
  data: z.record(z.string(), z.unknown()),
  sig: z.string().regex(base64url).length(86), // 64 bytes, base64url without padding
});

/** A new event as a decider emits it: which stream, which type, what data. */
export interface NewEvent<T extends string = string, D = Record<string, unknown>> {
  stream: string;
  type: T;
  data: D;
}
