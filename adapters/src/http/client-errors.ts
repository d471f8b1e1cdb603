// What Node's HTTP server does with a connection whose request never reached the app whole: a request
// that outran the header or request timeout, headers too large, bytes that are not HTTP. Node's own
// answer is a bare status line; ours is the same problem+json every other refusal is, then the
// connection closes. Where the answer has already begun (or the client is gone) the connection is only
// closed: a second status line would corrupt the one in flight.
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { ErrorCode } from './error-codes.js';

interface Refusal {
  status: number;
  reason: string;
  code: ErrorCode;
  title: string;
}

function refusalFor(code: string | undefined): Refusal {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        code: 'request.timeout',
        title: 'The request was not received in time',
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        code: 'request.headers_too_large',
        title: 'The request headers are too large',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        reason: 'Content Too Large',
        code: 'request.too_large',
        title: 'The chunk extensions are too large',
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        code: 'request.malformed',
        title: 'Not a valid HTTP request',
      };
  }
}

/** A `clientError` listener for an `http.Server`. */
export function clientErrorHandler(logger: Logger) {
  return (err: NodeJS.ErrnoException, socket: Duplex) => {
    const gone = err.code === 'ECONNRESET' || !socket.writable;
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!gone && !inFlight?.headersSent) {
      const r = refusalFor(err.code);
      const body = JSON.stringify({
        type: `urn:tributary:problem:${r.code}`,
        title: r.title,
        status: r.status,
        code: r.code,
      });
      socket.write(
        `HTTP/1.1 ${r.status} ${r.reason}\r\n` +
          'Content-Type: application/problem+json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
      if (r.status === 408) logger.warn({ err: { code: err.code } }, 'request timed out');
      // Closed once the answer is flushed, whatever the client still sends.
      const soon = (socket as Duplex & { destroySoon?: () => void }).destroySoon;
      if (soon) return soon.call(socket);
    }
    socket.destroy();
  };
}
