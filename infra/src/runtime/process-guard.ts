// The last line of defence of a serving process: an exception nothing caught, or a rejected promise
// nothing awaited, is logged with its stack and the process keeps serving. Without this Node prints the
// stack and exits, and one bad request (or one forgotten await) stops the instance for everyone.
import type { Logger } from 'pino';

/** Installs the guard; returns a function that removes it. */
export function guardProcess(logger: Logger): () => void {
  const onException = (err: Error, origin: string) =>
    logger.error({ err, origin }, 'uncaught exception; the instance keeps serving');
  const onRejection = (reason: unknown) =>
    logger.error(
      { err: reason instanceof Error ? reason : { message: String(reason) } },
      'unhandled promise rejection; the instance keeps serving',
    );
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
