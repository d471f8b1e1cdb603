// The `stripe` package's HTTP client over our one outbound client: every call to Stripe (or, in tests,
// to the loopback server that speaks its API) goes through the address policy, the connect and total
// timeouts and the response size limit, like every other call out (docs/payments.md#configuration).
import Stripe from 'stripe';
import type { OutboundHttp } from '../outbound/index.js';

/** Stripe's answers are small JSON documents; anything larger is refused mid-body. */
const STRIPE_MAX_RESPONSE_BYTES = 1024 * 1024;

class OutboundStripeResponse extends Stripe.HttpClientResponse {
  constructor(
    status: number,
    headers: Record<string, string>,
    private readonly text: string,
  ) {
    super(status, headers);
  }
  /** The package decorates this with the status and request id (`lastResponse`): an object of its own. */
  private readonly raw: Record<string, unknown> = {};
  override getRawResponse(): unknown {
    return this.raw;
  }
  override toStream(streamCompleteCallback: () => void): unknown {
    streamCompleteCallback();
    throw new Error('streamed Stripe responses are not used here');
  }
  override toJSON(): Promise<unknown> {
    return Promise.resolve(this._parseResponseBody(this.text));
  }
}

export class OutboundStripeHttpClient extends Stripe.HttpClient {
  constructor(private readonly outbound: OutboundHttp) {
    super();
  }
  override getClientName(): string {
    return 'tributary-outbound';
  }
  override async makeRequest(
    host: string,
    port: string,
    path: string,
    method: string,
    headers: Record<string, string | number | string[]>,
    requestData: string,
    protocol: string,
    timeout: number,
  ): Promise<OutboundStripeResponse> {
    const url = `${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const answer = await this.outbound.request(url, {
      method,
      headers: flat,
      ...(requestData ? { body: requestData } : {}),
      timeoutMs: timeout,
      maxResponseBytes: STRIPE_MAX_RESPONSE_BYTES,
    });
    const responseHeaders: Record<string, string> = {};
    for (const name of [
      'request-id',
      'idempotency-key',
      'idempotent-replayed',
      'stripe-version',
      'content-type',
    ]) {
      const v = answer.header(name);
      if (v !== undefined) responseHeaders[name] = v;
    }
    return new OutboundStripeResponse(answer.status, responseHeaders, answer.text());
  }
}
