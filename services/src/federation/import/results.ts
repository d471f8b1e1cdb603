// Each event's outcome in an import, by its place in the batch: every event starts rejected, and a step
// that takes it (or finds it held already) says so; a step that refuses it keeps its code and message.
import { isDomainError, type DomainErrorCode } from '@tributary/domain';

type ImportStatus = 'accepted' | 'duplicate' | 'rejected';

export interface ImportResult {
  index: number;
  id: string | null;
  status: ImportStatus;
  code?: DomainErrorCode;
  message?: string;
}

export interface ImportSummary {
  results: ImportResult[];
  accepted: number;
  duplicates: number;
  rejected: number;
}

export interface BatchResults {
  /** The event at `index` is the envelope with this id (as parsed). */
  identify(index: number, id: string): void;
  /** Refuses the event at `index` with a domain error; anything else is rethrown (a fault, not a refusal). */
  reject(index: number, e: unknown): void;
  duplicate(index: number, id: string): void;
  accept(index: number, id: string): void;
  isAccepted(index: number): boolean;
  summary(): ImportSummary;
}

export function batchResults(size: number): BatchResults {
  const results: ImportResult[] = Array.from({ length: size }, (_, index) => ({
    index,
    id: null,
    status: 'rejected',
  }));
  const count = (s: ImportStatus) => results.filter((r) => r.status === s).length;
  return {
    identify(index, id) {
      results[index]!.id = id;
    },
    reject(index, e) {
      if (!isDomainError(e)) throw e;
      results[index] = { ...results[index]!, status: 'rejected', code: e.code, message: e.message };
    },
    duplicate(index, id) {
      results[index] = { index, id, status: 'duplicate' };
    },
    accept(index, id) {
      results[index] = { index, id, status: 'accepted' };
    },
    isAccepted: (index) => results[index]!.status === 'accepted',
    summary: () => ({
      results,
      accepted: count('accepted'),
      duplicates: count('duplicate'),
      rejected: count('rejected'),
    }),
  };
}
