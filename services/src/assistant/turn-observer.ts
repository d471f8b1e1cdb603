// What a surface hands a chat turn besides its input: where streamed text goes and the signal that
// cancels the model call when the client goes away. Carried beside the pipeline call (not in the
// operation's input, which is data) so `svc.assistant.chat` stays one catalogue operation on every
// surface: REST streams through it, MCP and /api/ops run without one.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TurnObserver {
  /** Each piece of the model's text as it arrives (the model is asked to stream when this is set). */
  onTextDelta?: (delta: string) => void;
  /** Aborted when the client has gone away or the surface's time ran out. */
  signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<TurnObserver>();

/** Runs `run` (a pipeline call of `svc.assistant.chat`) with `observer` in effect. */
export const observeTurn = <T>(observer: TurnObserver, run: () => Promise<T>): Promise<T> =>
  storage.run(observer, run);

/** The observer in effect for the current chat turn, if a surface set one. */
export const currentTurnObserver = (): TurnObserver | undefined => storage.getStore();
