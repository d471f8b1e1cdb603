// A local server speaking Stripe's v1 HTTP API for the calls Tributary makes, and sending webhooks signed
// as Stripe signs them. Stripe cannot be reached from the test machines; this is the one stand-in for it,
// written from Stripe's API reference, and the official `stripe` package is its client:
//
//   const stripeApi = await startStripeApiServer();
//   const stripe = new Stripe(stripeApi.secretKey, stripeApi.clientOptions);   // host, port, protocol
//   const endpoint = stripeApi.addWebhookEndpoint({ url: `${instance.url}/api/...` }); // endpoint.secret
//   const session = await stripe.checkout.sessions.create({ mode: 'payment', line_items: [...], ... });
//   await stripeApi.completeCheckout(session.id);        // the buyer pays: PI, charge, transfer, events
//   await stripeApi.waitForDeliveries();                 // every webhook answered (or given up)
//   stripeApi.idempotency('my-key').executions           // 1: "charged once"
//   await stripeApi.close();
//
// The wire protocol, as Stripe's reference describes it:
// - Requests: `Authorization: Bearer <secret key>` (or Basic with the key as user name); bodies and query
//   strings form-encoded with bracketed nesting (`line_items[0][price_data][unit_amount]=500`,
//   `expand[]=payment_intent`); `Stripe-Account: acct_…` makes a request on a connected account (its
//   objects are invisible without the header, and an account the platform does not own answers 403
//   `account_invalid`). Unknown parameters answer 400 `parameter_unknown`, missing ones
//   `parameter_missing`, malformed integers `parameter_invalid_integer`.
// - Answers: JSON objects with Stripe's id prefixes and fields (`object`, `created`, `livemode: false`,
//   `metadata`), lists as `{ object: 'list', data, has_more, url }` newest first with `limit` (1–100,
//   default 10), `starting_after`, `ending_before` and `created[gt|gte|lt|lte]`; `expand[]` replaces an id
//   field by its object. Every answer has a `Request-Id`.
// - Errors: `{ error: { type, code?, message, param?, doc_url? } }` — 400 invalid_request_error, 401 a bad
//   or missing key, 402 a card_error, 403 account_invalid, 404 `resource_missing` or an unknown URL, 409
//   `idempotency_key_in_use`.
// - Idempotency (POST only, keys scoped to the account the request acts on): the first request's status
//   and body are saved once the endpoint has begun executing (a request refused for its parameters is not
//   saved, as Stripe says), and the same key with the same method, path and parameters answers that saved
//   answer byte for byte with `Idempotent-Replayed: true` and `Original-Request`; the same key with other
//   parameters or another path answers 400 `idempotency_error`. Keys live 24 hours.
//
// What it holds, per account (the platform's and each connected account's): checkout sessions (mode
// `payment` only, `price_data` line items), the payment intent and charge a completed checkout produces
// (destination charges with `payment_intent_data[transfer_data][destination]` and
// `application_fee_amount` create the transfer to the connected account), refunds (partial or full; above
// what is left: 400 `amount_too_large`, on a fully refunded charge `charge_already_refunded`;
// `reverse_transfer` takes the refunded share back from the destination), accounts (`type` express,
// custom or standard, or `controller`; `country` two letters), account links, transfers (from the
// platform's available balance: 400 `balance_insufficient`; to an account whose `transfers` capability is
// not active: 400 `insufficient_capabilities_for_transfer`), payouts (from the available balance of the
// account named by `Stripe-Account`), balances and balance transactions, events and webhook endpoints.
// Money moves without Stripe's fees (each balance transaction's `fee` is 0) and a charge's net is
// available at once, as with Stripe's test card for an available balance. Amounts follow Stripe's limits:
// a charge of at least 50 minor units (`amount_too_small`) and at most 99,999,999 (`amount_too_large`).
//
// Webhooks: every event is sent to each endpoint that wants it (`addWebhookEndpoint` or `POST
// /v1/webhook_endpoints`; a `connect` endpoint gets the events of connected accounts, with `account` set,
// the others the platform's own), as Stripe sends them: POST, `Content-Type: application/json;
// charset=utf-8`, the event pretty-printed, `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>" keyed with the endpoint secret>` (plus a test-mode `v0` signature under another key, which
// verifiers must ignore). A delivery answered other than 2xx (or not at all within `deliveryTimeoutMs`) is
// retried after each of `retryDelaysMs`, then given up. With `autoDeliver: false` events wait in
// `pendingEvents()` for the test to send them: `deliver(eventId, { times, timestampSeconds, body })` sends
// one event now (N times, stale, altered), `deliverPending({ order: 'reverse' })` sends what waits.
//
// Test controls (the buyer, the account holder and Stripe's own back office): `completeCheckout`,
// `expireCheckout`, `completeOnboarding` / `updateAccount` (charges, payouts, details submitted →
// `account.updated` with `previous_attributes`), `settlePayout` (`payout.paid` / `payout.failed`),
// `settleRefund` (a pending refund's `refund.updated`, with `pendingRefunds`), `createDispute`, `addBalance`, `failNext` (answer an error, or run the call and drop the connection so
// the answer is lost), and what the server saw: `requests`, `idempotency(key)` (requests, executions and
// replays for a key), `objects(kind)`, `events`, `deliveries`. The checkout `url` and the account link
// `url` point here: `GET` shows a page with a button, `POST` pays / finishes onboarding and redirects to
// the success / return URL, so a browser test can walk them.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Obj = Record<string, Json>;

export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeApiServerOptions {
  /** The platform's secret key; a random `sk_test_…` by default. */
  secretKey?: string;
  /** The platform's account id; a random `acct_…` by default. */
  platformAccountId?: string;
  /** The platform's country (accounts created without `country` take it, as at Stripe). Default 'US'. */
  platformCountry?: string;
  /** Send each event to the endpoints as it happens (default true); false keeps them for `deliver*`. */
  autoDeliver?: boolean;
  /** Delays before retrying a failed delivery; default [100, 500, 2000] ms. */
  retryDelaysMs?: number[];
  /** How long a webhook endpoint has to answer; default 10 s. */
  deliveryTimeoutMs?: number;
  /**
   * Refunds start `pending` (as many payment methods' refunds do at Stripe) until `settleRefund`; default
   * false: a refund is `succeeded` at once.
   */
  pendingRefunds?: boolean;
  /** The platform's available balance to start with, per currency (minor units). Default none. */
  platformBalance?: Record<string, number>;
  /** The unix time in seconds the server uses (objects' `created`, signatures). Default the clock. */
  now?: () => number;
  host?: string;
}

export interface WebhookEndpointOptions {
  url: string;
  /** The signing secret; a random `whsec_…` by default. */
  secret?: string;
  /** Events of connected accounts (true) or of the platform itself (false, default). */
  connect?: boolean;
  /** Event types to send; default every type (`['*']`). */
  enabledEvents?: string[];
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  connect: boolean;
  enabledEvents: string[];
}

export interface ReceivedStripeRequest {
  method: string;
  path: string;
  /** The parsed form body (POST) or query (GET, DELETE). */
  params: Obj;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
  /** `Stripe-Account`, or null for the platform. */
  account: string | null;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
}

export interface WebhookDelivery {
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  body: string;
  signatureHeader: string;
  /** The answer's status, or 0 when the endpoint did not answer. */
  status: number;
  responseBody: string;
}

export interface DeliverOptions {
  /** Only this endpoint (default: every endpoint the event is for). */
  endpointId?: string;
  /** Send it this many times in a row (default 1). */
  times?: number;
  /** Sign with this timestamp (a stale one: now − 3600). */
  timestampSeconds?: number;
  /** Send this body instead of the event's (signed as given unless `signBody` is set). */
  body?: string;
  /** With `body`: the body the signature is computed over (an altered body keeps the original's). */
  signBody?: string;
  /** Sign with this secret instead of the endpoint's. */
  secret?: string;
}

export interface IdempotencyStats {
  /** Requests that carried the key. */
  requests: number;
  /** Requests that ran the endpoint (never more than 1 for a key used correctly). */
  executions: number;
  /** Requests answered with the saved answer (`Idempotent-Replayed: true`). */
  replays: number;
  /** Requests refused with `idempotency_error` (the key reused with other parameters). */
  mismatches: number;
}

export type StripeObjectKind =
  | 'checkout.session'
  | 'payment_intent'
  | 'charge'
  | 'refund'
  | 'account'
  | 'transfer'
  | 'payout'
  | 'balance_transaction'
  | 'dispute'
  | 'event'
  | 'webhook_endpoint';

export interface FailNextOptions {
  method?: string;
  /** The request path starts with this (e.g. '/v1/transfers'). */
  pathPrefix?: string;
  /** Answer this error without running anything (e.g. { status: 500, type: 'api_error' }). */
  error?: { status: number; type: string; code?: string; message?: string };
  /** Run the call, then destroy the connection: the client never sees the answer. */
  dropResponse?: boolean;
  /** How many matching requests this applies to (default 1). */
  count?: number;
}

export interface StripeApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  port: number;
  secretKey: string;
  platformAccountId: string;
  /** Options for `new Stripe(secretKey, clientOptions)`. */
  clientOptions: { host: string; port: number; protocol: 'http' };
  requests: ReceivedStripeRequest[];
  events: Obj[];
  deliveries: WebhookDelivery[];
  addWebhookEndpoint(options: WebhookEndpointOptions): WebhookEndpoint;
  removeWebhookEndpoint(id: string): void;
  /** Every object of a kind, oldest first (all accounts). */
  objects(kind: StripeObjectKind): Obj[];
  object(id: string): Obj | undefined;
  idempotency(key: string, account?: string | null): IdempotencyStats;
  /** The buyer pays the session: it completes and its payment intent, charge (and transfer) exist. */
  completeCheckout(
    sessionId: string,
  ): Promise<{ session: Obj; paymentIntent: Obj; charge: Obj; events: Obj[] }>;
  expireCheckout(sessionId: string): Obj;
  /** The holder finishes onboarding: details submitted, charges and payouts enabled, capabilities active. */
  completeOnboarding(accountId: string): Obj;
  updateAccount(
    accountId: string,
    state: { chargesEnabled?: boolean; payoutsEnabled?: boolean; detailsSubmitted?: boolean },
  ): Obj;
  settlePayout(payoutId: string, outcome: 'paid' | 'failed', account?: string | null): Obj;
  /**
   * A pending refund goes through or fails: its `refund.updated` (and, failed, `refund.failed`; the
   * charge's refunded amount given back). Answers the `refund.updated` event.
   */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed', account?: string | null): Obj;
  createDispute(chargeId: string, amount?: number): Obj;
  /** Adds to an account's available balance (null: the platform). */
  addBalance(account: string | null, currency: string, amount: number): void;
  balanceOf(account: string | null, currency: string): { available: number; pending: number };
  failNext(options: FailNextOptions): void;
  /** Events not yet sent (with `autoDeliver: false`), oldest first. */
  pendingEvents(): Obj[];
  deliver(eventId: string, options?: DeliverOptions): Promise<WebhookDelivery[]>;
  deliverPending(options?: { order?: 'oldest' | 'newest' }): Promise<WebhookDelivery[]>;
  /** Resolves when no delivery or retry is in flight or scheduled. */
  waitForDeliveries(timeoutMs?: number): Promise<void>;
  /** The `Stripe-Signature` header Stripe would send for this body. */
  signatureHeader(body: string, secret: string, timestampSeconds?: number): string;
  setAutoDeliver(on: boolean): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Form encoding: `a[b][0][c]=x&e[]=y` → { a: { b: [{ c: 'x' }] }, e: ['y'] }

/** Parses Stripe's bracketed form encoding; objects whose keys are all indices become arrays. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  if (text === '') return root;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const first = key.indexOf('[');
    const head = first < 0 ? key : key.slice(0, first);
    const segments: string[] = [];
    const rest = first < 0 ? '' : key.slice(first);
    const re = /\[([^\]]*)\]/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(rest)) !== null) segments.push(m[1] ?? '');
    let node: Obj = root;
    const path = [head, ...segments];
    for (let i = 0; i < path.length; i++) {
      let seg = path[i]!;
      const last = i === path.length - 1;
      if (seg === '') seg = String(Object.keys(node).length); // `e[]=` appends
      if (last) node[seg] = value;
      else {
        if (typeof node[seg] !== 'object' || node[seg] === null) node[seg] = {};
        node = node[seg];
      }
    }
  }
  return arraysOf(root);
}

function arraysOf(value: Json): Json {
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value);
  for (const k of keys) value[k] = arraysOf(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => value[String(k)]);
  }
  return value;
}

/** Canonical text of parameters, to compare a replayed request with the first. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------------
// Errors

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** Refused before the endpoint began executing: no idempotent answer is saved. */
    readonly beforeExecution = false,
  ) {
    super(message);
  }
  body(): Obj {
    const error: Obj = {};
    if (this.code !== undefined) error.code = this.code;
    if (this.code !== undefined)
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`;
    error.message = this.message;
    if (this.param !== undefined) error.param = this.param;
    error.type = this.type;
    return { error };
  }
}

const invalid = (message: string, code?: string, param?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, code, param);
const badParam = (message: string, code: string, param: string) =>
  new StripeApiError(400, 'invalid_request_error', message, code, param, true);
const missingParam = (param: string) =>
  badParam(`Missing required param: ${param}.`, 'parameter_missing', param);

const noSuch = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);

// ---------------------------------------------------------------------------------------------------
// Parameter readers

function ensureKnown(params: Obj, allowed: string[]) {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key))
      throw badParam(`Received unknown parameter: ${key}`, 'parameter_unknown', key);
  }
}

function str(params: Obj, name: string, path = name): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw badParam(`Invalid string: ${JSON.stringify(v)}`, 'parameter_invalid_string', path);
  return v;
}

function requiredStr(params: Obj, name: string, path = name): string {
  const v = str(params, name, path);
  if (v === undefined || v === '') throw missingParam(path);
  return v;
}

function int(params: Obj, name: string, path = name): number | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v))
    throw badParam(
      `Invalid integer: ${typeof v === 'string' ? v : JSON.stringify(v)}`,
      'parameter_invalid_integer',
      path,
    );
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw badParam(`Invalid integer: ${v}`, 'parameter_invalid_integer', path);
  return n;
}

function nonNegativeInt(params: Obj, name: string, path = name): number | undefined {
  const n = int(params, name, path);
  if (n !== undefined && n < 0)
    throw badParam('This value must be greater than or equal to 0.', 'parameter_invalid_integer', path);
  return n;
}

function bool(params: Obj, name: string, path = name): boolean | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badParam(`Invalid boolean: ${JSON.stringify(v)}`, 'parameter_invalid_boolean', path);
}

function sub(params: Obj, name: string, path = name): Obj | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badParam(`Invalid object`, 'parameter_invalid_string', path);
  return v;
}

function metadataOf(params: Obj, previous: Obj = {}): Obj {
  const given = params.metadata;
  if (given === undefined) return previous;
  if (given === '') return {};
  if (typeof given !== 'object' || Array.isArray(given))
    throw badParam('Invalid metadata: must be an object', 'parameter_invalid_string', 'metadata');
  const out: Obj = { ...previous };
  for (const [k, v] of Object.entries(given)) {
    if (typeof v !== 'string')
      throw badParam('Invalid metadata value', 'parameter_invalid_string', `metadata[${k}]`);
    if (k.length > 40)
      throw badParam(
        'Metadata keys can be at most 40 characters',
        'parameter_invalid_string',
        `metadata[${k}]`,
      );
    if (v.length > 500)
      throw badParam(
        'Metadata values can be at most 500 characters',
        'parameter_invalid_string',
        `metadata[${k}]`,
      );
    if (v === '') delete out[k];
    else out[k] = v;
  }
  if (Object.keys(out).length > 50)
    throw badParam('Metadata can have at most 50 keys', 'parameter_invalid_string', 'metadata');
  return out;
}

const CURRENCIES = new Set(
  (
    'usd aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bif bmd bnd bob brl bsd bwp byn bzd cad cdf ' +
    'chf clp cny cop crc cve czk djf dkk dop dzd egp etb eur fjd fkp gbp gel gip gmd gnf gtq gyd hkd hnl htg ' +
    'huf idr ils inr isk jmd jpy kes kgs khr kmf krw kyd kzt lak lbp lkr lrd lsl mad mdl mga mkd mmk mnt mop ' +
    'mur mvr mwk mxn myr mzn nad ngn nio nok npr nzd pab pen pgk php pkr pln pyg qar ron rsd rub rwf sar sbd ' +
    'scr sek sgd shp sle sos srd std szl thb tjs top try ttd twd tzs uah ugx uyu uzs vnd vuv wst xaf xcd xof ' +
    'xpf yer zar zmw'
  ).split(' '),
);
/** Stripe's minimum charge amounts in minor units; 50 for the rest. */
const MINIMUM_CHARGE: Record<string, number> = {
  gbp: 30,
  jpy: 50,
  hkd: 400,
  mxn: 1000,
  sek: 300,
  nok: 300,
  dkk: 250,
  czk: 1500,
  huf: 17500,
  pln: 200,
  ron: 200,
  bgn: 100,
  thb: 1000,
  aed: 200,
  inr: 50,
};
const MAXIMUM_CHARGE = 99_999_999;

function currencyOf(params: Obj, name = 'currency', path = name): string {
  const raw = requiredStr(params, name, path);
  const c = raw.toLowerCase();
  if (!CURRENCIES.has(c))
    throw badParam(
      `Invalid currency: ${raw}. Stripe currently supports these currencies: ${[...CURRENCIES].join(', ')}`,
      'parameter_invalid_string',
      path,
    );
  return c;
}

function checkChargeAmount(amount: number, currency: string, param: string) {
  const min = MINIMUM_CHARGE[currency] ?? 50;
  if (amount < min)
    throw invalid(`Amount must be at least ${min} ${currency} (minor units)`, 'amount_too_small', param);
  if (amount > MAXIMUM_CHARGE)
    throw invalid(
      `Amount must be no more than ${MAXIMUM_CHARGE} ${currency} (minor units)`,
      'amount_too_large',
      param,
    );
}

function urlParam(params: Obj, name: string): string | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  try {
    const u = new URL(v.replace('{CHECKOUT_SESSION_ID}', 'x'));
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw badParam('Not a valid URL', 'url_invalid', name);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------------

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomChars(n: number): string {
  const bytes = crypto.randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHANUM[bytes[i]! % ALPHANUM.length];
  return out;
}
const newId = (prefix: string, n = 24) => `${prefix}_${randomChars(n)}`;

const hmacHex = (secret: string, text: string) =>
  crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

interface Stored {
  kind: StripeObjectKind;
  account: string | null;
  object: Obj;
  seq: number;
}

interface SavedAnswer {
  method: string;
  path: string;
  params: string;
  status: number;
  body: string;
  requestId: string;
  savedAt: number;
}

interface PendingFailure extends FailNextOptions {
  remaining: number;
}

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export async function startStripeApiServer(options: StripeApiServerOptions = {}): Promise<StripeApiServer> {
  const secretKey = options.secretKey ?? `sk_test_${randomChars(99)}`;
  const platformAccountId = options.platformAccountId ?? newId('acct', 16);
  const platformCountry = options.platformCountry ?? 'US';
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const retryDelaysMs = options.retryDelaysMs ?? [100, 500, 2000];
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 10_000;
  let autoDeliver = options.autoDeliver ?? true;
  const host = options.host ?? '127.0.0.1';

  const store = new Map<string, Stored>();
  let seq = 0;
  const requests: ReceivedStripeRequest[] = [];
  const events: Obj[] = [];
  const deliveries: WebhookDelivery[] = [];
  const endpoints = new Map<string, WebhookEndpoint>();
  const saved = new Map<string, SavedAnswer>();
  const inFlight = new Set<string>();
  const stats = new Map<string, IdempotencyStats>();
  const balances = new Map<string, Map<string, { available: number; pending: number }>>();
  const failures: PendingFailure[] = [];
  const pending: Obj[] = [];
  const activeDeliveries = new Set<Promise<void>>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let closed = false;
  let baseUrl = '';

  for (const [currency, amount] of Object.entries(options.platformBalance ?? {}))
    balanceCell(null, currency).available += amount;

  function balanceCell(account: string | null, currency: string) {
    const key = account ?? platformAccountId;
    let perCurrency = balances.get(key);
    if (!perCurrency) balances.set(key, (perCurrency = new Map()));
    let cell = perCurrency.get(currency);
    if (!cell) perCurrency.set(currency, (cell = { available: 0, pending: 0 }));
    return cell;
  }

  function put(kind: StripeObjectKind, account: string | null, object: Obj): Obj {
    store.set(object.id, { kind, account, object, seq: ++seq });
    return object;
  }

  /** An object visible to the request's account (the platform sees its own; connected accounts theirs). */
  function get(kind: StripeObjectKind, id: string, account: string | null, param = 'id'): Obj {
    const found = store.get(id);
    const name = kind === 'checkout.session' ? 'checkout.session' : kind;
    if (!found || found.kind !== kind || found.account !== account) throw noSuch(name, id, param);
    return found.object;
  }

  function balanceTransaction(
    account: string | null,
    amount: number,
    currency: string,
    type: string,
    source: string,
  ): string {
    const txn = put('balance_transaction', account, {
      id: newId('txn'),
      object: 'balance_transaction',
      amount,
      available_on: now(),
      created: now(),
      currency,
      description: null,
      fee: 0,
      fee_details: [],
      net: amount,
      reporting_category: type,
      source,
      status: 'available',
      type,
    });
    balanceCell(account, currency).available += amount;
    return txn.id;
  }

  // -------------------------------------------------------------------------------------------------
  // Events and webhooks

  function emit(
    type: string,
    object: Obj,
    account: string | null,
    request: { id: string | null; key: string | null },
    previous?: Obj,
  ): Obj {
    const data: Obj = { object: structuredClone(object) };
    if (previous !== undefined) data.previous_attributes = previous;
    const event: Obj = {
      id: newId('evt'),
      object: 'event',
      ...(account !== null ? { account } : {}),
      api_version: STRIPE_API_VERSION,
      created: now(),
      data,
      livemode: false,
      pending_webhooks: endpointsFor({ type, account }).length,
      request: { id: request.id, idempotency_key: request.key },
      type,
    };
    put('event', account, event);
    events.push(event);
    if (autoDeliver) void sendToEndpoints(event, {});
    else pending.push(event);
    return event;
  }

  function endpointsFor(event: { type: string; account?: string | null }): WebhookEndpoint[] {
    const connected = event.account !== undefined && event.account !== null;
    return [...endpoints.values()].filter(
      (e) =>
        e.connect === connected && (e.enabledEvents.includes('*') || e.enabledEvents.includes(event.type)),
    );
  }

  function signatureHeader(body: string, secret: string, timestampSeconds = now()): string {
    const v1 = hmacHex(secret, `${timestampSeconds}.${body}`);
    // Test-mode events also carry a v0 signature under a key of Stripe's own; verifiers check v1 only.
    const v0 = hmacHex(`whsec_v0_${secret}`, `${timestampSeconds}.${body}`);
    return `t=${timestampSeconds},v1=${v1},v0=${v0}`;
  }

  async function post(
    endpoint: WebhookEndpoint,
    event: Obj,
    attempt: number,
    o: DeliverOptions,
  ): Promise<WebhookDelivery> {
    const eventBody = JSON.stringify(event, null, 2);
    const body = o.body ?? eventBody;
    const header = signatureHeader(
      o.signBody ?? body,
      o.secret ?? endpoint.secret,
      o.timestampSeconds ?? now(),
    );
    const delivery: WebhookDelivery = {
      eventId: event.id,
      eventType: event.type,
      endpointId: endpoint.id,
      url: endpoint.url,
      attempt,
      body,
      signatureHeader: header,
      status: 0,
      responseBody: '',
    };
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Cache-Control': 'no-cache',
          Accept: '*/*; q=0.5, application/xml',
          'Stripe-Signature': header,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(deliveryTimeoutMs),
      });
      delivery.status = response.status;
      delivery.responseBody = (await response.text()).slice(0, 10_000);
    } catch {
      delivery.status = 0;
    }
    deliveries.push(delivery);
    return delivery;
  }

  function track(p: Promise<void>) {
    activeDeliveries.add(p);
    void p.finally(() => activeDeliveries.delete(p));
  }

  async function sendToEndpoints(event: Obj, o: DeliverOptions): Promise<WebhookDelivery[]> {
    const targets = endpointsFor(event as { type: string; account?: string | null }).filter(
      (e) => o.endpointId === undefined || e.id === o.endpointId,
    );
    const out: WebhookDelivery[] = [];
    const run = (async () => {
      for (const endpoint of targets) {
        for (let i = 0; i < (o.times ?? 1); i++) {
          const d = await post(endpoint, event, 1, o);
          out.push(d);
          if (
            !(d.status >= 200 && d.status < 300) &&
            o.body === undefined &&
            o.secret === undefined &&
            o.timestampSeconds === undefined
          )
            scheduleRetry(endpoint, event, 1);
        }
      }
    })();
    track(run);
    await run;
    return out;
  }

  function scheduleRetry(endpoint: WebhookEndpoint, event: Obj, attemptsSoFar: number) {
    const delay = retryDelaysMs[attemptsSoFar - 1];
    if (delay === undefined || closed) return;
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      if (closed || !endpoints.has(endpoint.id)) return;
      const p = (async () => {
        const d = await post(endpoint, event, attemptsSoFar + 1, {});
        if (!(d.status >= 200 && d.status < 300)) scheduleRetry(endpoint, event, attemptsSoFar + 1);
      })();
      track(p);
    }, delay);
    retryTimers.add(timer);
  }

  // -------------------------------------------------------------------------------------------------
  // Object builders

  function accountObject(params: Obj): Obj {
    const controller = sub(params, 'controller');
    const type = str(params, 'type') ?? (controller ? 'none' : undefined);
    if (type === undefined) throw missingParam('type');
    if (!['express', 'custom', 'standard', 'none'].includes(type))
      throw badParam(
        `Invalid type: must be one of express, custom, or standard`,
        'parameter_invalid_string',
        'type',
      );
    const countryRaw = str(params, 'country');
    if (countryRaw !== undefined && !/^[A-Za-z]{2}$/.test(countryRaw))
      throw badParam(
        `Country '${countryRaw}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'.`,
        'country_unsupported',
        'country',
      );
    const country = (countryRaw ?? platformCountry).toUpperCase();
    const requested = sub(params, 'capabilities') ?? {};
    const capabilities: Obj = {};
    for (const [name, value] of Object.entries(requested)) {
      if (!['card_payments', 'transfers'].includes(name))
        throw badParam(
          `Received unknown parameter: capabilities[${name}]`,
          'parameter_unknown',
          `capabilities[${name}]`,
        );
      if ((value as Obj)?.requested === 'true') capabilities[name] = 'inactive';
    }
    if (type === 'express' || type === 'custom') {
      if (Object.keys(capabilities).length === 0 && country === 'US')
        throw invalid(
          'In order to create an account, you must request at least one capability (e.g. `card_payments` or `transfers`).',
          'parameter_missing',
          'capabilities',
        );
    }
    if (type === 'standard') {
      capabilities.card_payments = 'inactive';
      capabilities.transfers = 'inactive';
    }
    const email = str(params, 'email') ?? null;
    const businessType = str(params, 'business_type') ?? null;
    return {
      id: newId('acct', 16),
      object: 'account',
      business_profile: { mcc: null, name: null, support_email: null, url: null },
      business_type: businessType,
      capabilities,
      charges_enabled: false,
      controller: controller
        ? { ...controller, type: 'application', is_controller: true }
        : { type: 'application', is_controller: true },
      country,
      created: now(),
      default_currency: country === 'US' ? 'usd' : country === 'GB' ? 'gbp' : 'eur',
      details_submitted: false,
      email,
      external_accounts: { object: 'list', data: [], has_more: false, total_count: 0, url: '' },
      future_requirements: { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null },
      metadata: metadataOf(params),
      payouts_enabled: false,
      requirements: {
        currently_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        eventually_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        past_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        pending_verification: [],
        disabled_reason: 'requirements.past_due',
        current_deadline: null,
        errors: [],
      },
      settings: { payouts: { schedule: { interval: 'daily', delay_days: 2 } } },
      tos_acceptance: { date: null, ip: null },
      type: type === 'none' ? 'none' : type,
    };
  }

  function setAccountState(
    accountId: string,
    state: { chargesEnabled?: boolean; payoutsEnabled?: boolean; detailsSubmitted?: boolean },
  ): Obj {
    const account = get('account', accountId, null);
    const previous: Obj = {};
    const set = (field: string, value: Json) => {
      if (JSON.stringify(account[field]) !== JSON.stringify(value)) {
        previous[field] = structuredClone(account[field]);
        account[field] = value;
      }
    };
    if (state.detailsSubmitted !== undefined) set('details_submitted', state.detailsSubmitted);
    if (state.chargesEnabled !== undefined) set('charges_enabled', state.chargesEnabled);
    if (state.payoutsEnabled !== undefined) set('payouts_enabled', state.payoutsEnabled);
    const capabilities: Obj = { ...account.capabilities };
    for (const name of Object.keys(capabilities)) {
      const on =
        name === 'card_payments'
          ? account.charges_enabled
          : account.payouts_enabled || account.charges_enabled;
      capabilities[name] = on ? 'active' : 'inactive';
    }
    set('capabilities', capabilities);
    const done = account.details_submitted && account.charges_enabled && account.payouts_enabled;
    const due = done ? [] : ['external_account'];
    set('requirements', {
      ...account.requirements,
      currently_due: due,
      eventually_due: due,
      past_due: due,
      disabled_reason: done ? null : 'requirements.past_due',
    });
    if (Object.keys(previous).length > 0)
      emit('account.updated', account, accountId, { id: null, key: null }, previous);
    return account;
  }

  function checkoutSession(params: Obj, account: string | null): Obj {
    ensureKnown(params, [
      'mode',
      'line_items',
      'success_url',
      'cancel_url',
      'currency',
      'customer',
      'customer_email',
      'client_reference_id',
      'metadata',
      'payment_intent_data',
      'expires_at',
      'payment_method_types',
      'locale',
      'expand',
      'submit_type',
      'ui_mode',
    ]);
    const mode = requiredStr(params, 'mode');
    if (mode !== 'payment')
      throw badParam(
        `Invalid mode: ${mode} is not supported by this local Stripe server (payment only)`,
        'parameter_invalid_string',
        'mode',
      );
    const items = params.line_items;
    if (items === undefined) throw missingParam('line_items');
    if (!Array.isArray(items) || items.length === 0)
      throw badParam('Invalid array', 'parameter_invalid_string', 'line_items');
    if (items.length > 100)
      throw badParam('line_items can have at most 100 items', 'parameter_invalid_string', 'line_items');
    let currency: string | undefined = params.currency === undefined ? undefined : currencyOf(params);
    const lineItems: Obj[] = [];
    let total = 0;
    items.forEach((item: Obj, i: number) => {
      const p = `line_items[${i}]`;
      if (typeof item !== 'object' || item === null)
        throw badParam('Invalid object', 'parameter_invalid_string', p);
      ensureKnownIn(item, ['price_data', 'quantity', 'price'], p);
      if (item.price !== undefined) throw noSuch('price', String(item.price), `${p}[price]`);
      const pd = sub(item, 'price_data', `${p}[price_data]`);
      if (!pd) throw missingParam(`${p}[price_data]`);
      ensureKnownIn(
        pd,
        ['currency', 'product_data', 'unit_amount', 'unit_amount_decimal', 'tax_behavior', 'product'],
        `${p}[price_data]`,
      );
      const c = currencyOf(pd, 'currency', `${p}[price_data][currency]`);
      if (currency !== undefined && c !== currency)
        throw invalid(
          'All line items must use the same currency.',
          'parameter_invalid_string',
          `${p}[price_data][currency]`,
        );
      currency = c;
      const product = sub(pd, 'product_data', `${p}[price_data][product_data]`);
      if (!product) throw missingParam(`${p}[price_data][product_data]`);
      ensureKnownIn(product, ['name', 'description', 'metadata', 'images'], `${p}[price_data][product_data]`);
      const name = requiredStr(product, 'name', `${p}[price_data][product_data][name]`);
      const unit = nonNegativeInt(pd, 'unit_amount', `${p}[price_data][unit_amount]`);
      if (unit === undefined) throw missingParam(`${p}[price_data][unit_amount]`);
      const quantity = int(item, 'quantity', `${p}[quantity]`);
      if (quantity === undefined) throw missingParam(`${p}[quantity]`);
      if (quantity < 1 || quantity > 999_999)
        throw badParam(
          'Quantity must be between 1 and 999999',
          'parameter_invalid_integer',
          `${p}[quantity]`,
        );
      total += unit * quantity;
      lineItems.push({
        id: newId('li'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: unit * quantity,
        amount_tax: 0,
        amount_total: unit * quantity,
        currency: c,
        description: name,
        price: {
          id: newId('price'),
          object: 'price',
          active: false,
          currency: c,
          product: newId('prod', 14),
          type: 'one_time',
          unit_amount: unit,
        },
        quantity,
      });
    });
    checkChargeAmount(total, currency!, 'line_items');
    const successUrl = urlParam(params, 'success_url') ?? null;
    const cancelUrl = urlParam(params, 'cancel_url') ?? null;
    const pid = sub(params, 'payment_intent_data') ?? {};
    ensureKnownIn(
      pid,
      [
        'application_fee_amount',
        'transfer_data',
        'on_behalf_of',
        'metadata',
        'description',
        'transfer_group',
        'capture_method',
      ],
      'payment_intent_data',
    );
    const fee = nonNegativeInt(pid, 'application_fee_amount', 'payment_intent_data[application_fee_amount]');
    const td = sub(pid, 'transfer_data', 'payment_intent_data[transfer_data]');
    let destination: string | null = null;
    if (td) {
      ensureKnownIn(td, ['destination', 'amount'], 'payment_intent_data[transfer_data]');
      destination = requiredStr(td, 'destination', 'payment_intent_data[transfer_data][destination]');
      if (account !== null)
        throw invalid(
          'You cannot create destination charges on a connected account.',
          undefined,
          'payment_intent_data[transfer_data][destination]',
        );
      const dest = store.get(destination);
      if (!dest || dest.kind !== 'account')
        throw noSuch('account', destination, 'payment_intent_data[transfer_data][destination]');
      if (
        dest.object.capabilities?.transfers !== 'active' &&
        dest.object.capabilities?.card_payments !== 'active'
      )
        throw invalid(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'insufficient_capabilities_for_transfer',
          'payment_intent_data[transfer_data][destination]',
        );
    }
    if (fee !== undefined && fee > total)
      throw invalid(
        'The application fee amount cannot exceed the total amount.',
        'parameter_invalid_integer',
        'payment_intent_data[application_fee_amount]',
      );
    if (fee !== undefined && account === null && !destination)
      throw invalid(
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
        undefined,
        'payment_intent_data[application_fee_amount]',
      );
    const expiresAt = int(params, 'expires_at') ?? now() + 24 * 3600;
    const id = `cs_test_${randomChars(58)}`;
    return {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: cancelUrl,
      client_reference_id: str(params, 'client_reference_id') ?? null,
      created: now(),
      currency,
      customer: str(params, 'customer') ?? null,
      customer_details: null,
      customer_email: str(params, 'customer_email') ?? null,
      expires_at: expiresAt,
      livemode: false,
      locale: str(params, 'locale') ?? null,
      metadata: metadataOf(params),
      mode,
      payment_intent: null,
      payment_method_types: Array.isArray(params.payment_method_types)
        ? params.payment_method_types
        : ['card'],
      payment_status: 'unpaid',
      status: 'open',
      submit_type: str(params, 'submit_type') ?? null,
      success_url: successUrl,
      ui_mode: 'hosted',
      url: `${baseUrl}/c/pay/${id}`,
      // Kept for completion; not part of Stripe's object (stripped from answers below).
      __lineItems: lineItems,
      __paymentIntentData: {
        application_fee_amount: fee ?? null,
        transfer_data: destination
          ? { destination, ...(td?.amount !== undefined ? { amount: Number(td.amount) } : {}) }
          : null,
        on_behalf_of: str(pid, 'on_behalf_of', 'payment_intent_data[on_behalf_of]') ?? null,
        metadata: metadataOf(pid),
        description: str(pid, 'description', 'payment_intent_data[description]') ?? null,
        transfer_group: str(pid, 'transfer_group', 'payment_intent_data[transfer_group]') ?? null,
      },
    };
  }

  function ensureKnownIn(params: Obj, allowed: string[], prefix: string) {
    for (const key of Object.keys(params)) {
      if (!allowed.includes(key))
        throw badParam(
          `Received unknown parameter: ${prefix}[${key}]`,
          'parameter_unknown',
          `${prefix}[${key}]`,
        );
    }
  }

  async function completeCheckout(sessionId: string) {
    const found = store.get(sessionId);
    if (!found || found.kind !== 'checkout.session') throw new Error(`no checkout session ${sessionId}`);
    const session = found.object;
    const account = found.account;
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
    const pid = session.__paymentIntentData as Obj;
    const amount = session.amount_total as number;
    const currency = session.currency as string;
    const piId = newId('pi');
    const chId = newId('ch');
    const chargeTxn = balanceTransaction(account, amount, currency, 'charge', chId);
    let transferId: string | null = null;
    let transferObject: Obj | null = null;
    if (pid.transfer_data) {
      const dest = pid.transfer_data.destination as string;
      const toDestination = pid.transfer_data.amount ?? amount - (pid.application_fee_amount ?? 0);
      transferId = newId('tr');
      const pyId = newId('py');
      balanceCell(account, currency).available -= toDestination;
      transferObject = put('transfer', null, {
        id: transferId,
        object: 'transfer',
        amount: toDestination,
        amount_reversed: 0,
        balance_transaction: null,
        created: now(),
        currency,
        description: null,
        destination: dest,
        destination_payment: pyId,
        livemode: false,
        metadata: {},
        reversals: {
          object: 'list',
          data: [],
          has_more: false,
          total_count: 0,
          url: `/v1/transfers/${transferId}/reversals`,
        },
        reversed: false,
        source_transaction: chId,
        source_type: 'card',
        transfer_group: pid.transfer_group ?? `group_${piId}`,
      });
      transferObject.balance_transaction = put('balance_transaction', null, {
        id: newId('txn'),
        object: 'balance_transaction',
        amount: -toDestination,
        available_on: now(),
        created: now(),
        currency,
        description: null,
        fee: 0,
        fee_details: [],
        net: -toDestination,
        reporting_category: 'transfer',
        source: transferId,
        status: 'available',
        type: 'transfer',
      }).id;
      balanceTransaction(dest, toDestination, currency, 'payment', pyId);
    } else if (account !== null && pid.application_fee_amount) {
      // A direct charge: the platform's application fee leaves the connected account.
      balanceCell(account, currency).available -= pid.application_fee_amount;
      balanceCell(null, currency).available += pid.application_fee_amount;
    }
    const charge = put('charge', account, {
      id: chId,
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      application_fee_amount: pid.application_fee_amount,
      balance_transaction: chargeTxn,
      billing_details: { email: session.customer_email, name: null },
      captured: true,
      created: now(),
      currency,
      customer: session.customer,
      description: pid.description,
      disputed: false,
      livemode: false,
      metadata: pid.metadata,
      on_behalf_of: pid.on_behalf_of,
      paid: true,
      payment_intent: piId,
      payment_method: newId('pm'),
      refunded: false,
      refunds: {
        object: 'list',
        data: [],
        has_more: false,
        total_count: 0,
        url: `/v1/charges/${chId}/refunds`,
      },
      status: 'succeeded',
      transfer: transferId,
      transfer_data: pid.transfer_data,
      transfer_group: transferObject?.transfer_group ?? null,
    });
    const paymentIntent = put('payment_intent', account, {
      id: piId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: amount,
      application_fee_amount: pid.application_fee_amount,
      capture_method: 'automatic_async',
      client_secret: `${piId}_secret_${randomChars(25)}`,
      created: now(),
      currency,
      customer: session.customer,
      description: pid.description,
      latest_charge: chId,
      livemode: false,
      metadata: pid.metadata,
      on_behalf_of: pid.on_behalf_of,
      payment_method: charge.payment_method,
      payment_method_types: session.payment_method_types,
      status: 'succeeded',
      transfer_data: pid.transfer_data,
      transfer_group: transferObject?.transfer_group ?? null,
    });
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = piId;
    session.customer_details = { email: session.customer_email ?? 'buyer@example.com', name: 'Test Buyer' };
    const req = { id: null, key: null };
    const emitted: Obj[] = [];
    emitted.push(emit('charge.succeeded', charge, account, req));
    emitted.push(emit('payment_intent.succeeded', paymentIntent, account, req));
    if (transferObject) emitted.push(emit('transfer.created', transferObject, null, req));
    emitted.push(emit('checkout.session.completed', visible(session), account, req));
    return { session: visible(session), paymentIntent, charge, events: emitted };
  }

  function refund(params: Obj, account: string | null, req: { id: string; key: string | null }): Obj {
    ensureKnown(params, [
      'charge',
      'payment_intent',
      'amount',
      'reason',
      'metadata',
      'reverse_transfer',
      'refund_application_fee',
      'expand',
    ]);
    const chargeId = str(params, 'charge');
    const piId = str(params, 'payment_intent');
    if (chargeId === undefined && piId === undefined)
      throw badParam(
        'One of the following params should be provided for this request: payment_intent or charge.',
        'parameter_missing',
        'charge',
      );
    const amount = int(params, 'amount');
    if (amount !== undefined && amount < 1)
      throw badParam('Invalid positive integer', 'parameter_invalid_integer', 'amount');
    const reason = str(params, 'reason');
    if (reason !== undefined && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason))
      throw badParam(
        'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer',
        'parameter_invalid_string',
        'reason',
      );
    const reverseTransfer = bool(params, 'reverse_transfer') ?? false;
    bool(params, 'refund_application_fee');
    const metadata = metadataOf(params);
    let charge: Obj;
    if (chargeId !== undefined) charge = get('charge', chargeId, account, 'charge');
    else {
      const pi = get('payment_intent', piId!, account, 'payment_intent');
      if (!pi.latest_charge)
        throw invalid(
          `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
          'charge_not_refundable',
          'payment_intent',
        );
      charge = get('charge', pi.latest_charge, account, 'payment_intent');
    }
    const left = charge.amount - charge.amount_refunded;
    if (left === 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, 'charge_already_refunded', 'charge');
    const value = amount ?? left;
    if (value > left)
      throw invalid(
        `Refund amount (${value} ${charge.currency}) is greater than unrefunded amount on charge (${left} ${charge.currency})`,
        'amount_too_large',
        'amount',
      );
    const reId = newId('re');
    const txn = balanceTransaction(account, -value, charge.currency, 'refund', reId);
    if (reverseTransfer && charge.transfer) {
      const transfer = store.get(charge.transfer)!.object;
      const back = Math.floor((transfer.amount * value) / charge.amount);
      transfer.amount_reversed += back;
      transfer.reversed = transfer.amount_reversed >= transfer.amount;
      balanceCell(transfer.destination, charge.currency).available -= back;
      balanceCell(null, charge.currency).available += back;
    }
    const refundObject = put('refund', account, {
      id: reId,
      object: 'refund',
      amount: value,
      balance_transaction: txn,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      destination_details: { card: { type: 'refund' }, type: 'card' },
      metadata,
      payment_intent: charge.payment_intent,
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: options.pendingRefunds ? 'pending' : 'succeeded',
      transfer_reversal: null,
    });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += value;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift(refundObject);
    charge.refunds.total_count += 1;
    emit('refund.created', refundObject, account, req);
    emit('charge.refunded', charge, account, req, previous);
    return refundObject;
  }

  function transfer(params: Obj, account: string | null, req: { id: string; key: string | null }): Obj {
    ensureKnown(params, [
      'amount',
      'currency',
      'destination',
      'description',
      'metadata',
      'source_transaction',
      'transfer_group',
      'expand',
    ]);
    const amount = int(params, 'amount');
    if (amount === undefined) throw missingParam('amount');
    if (amount < 1) throw badParam('Invalid positive integer', 'parameter_invalid_integer', 'amount');
    const currency = currencyOf(params);
    const destination = requiredStr(params, 'destination');
    if (account !== null)
      throw invalid('Transfers can only be created by the platform.', undefined, 'destination');
    const dest = store.get(destination);
    if (!dest || dest.kind !== 'account') throw noSuch('destination', destination, 'destination');
    if (dest.object.capabilities?.transfers !== 'active')
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'insufficient_capabilities_for_transfer',
        'destination',
      );
    if (balanceCell(null, currency).available < amount)
      throw invalid(
        'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
        'balance_insufficient',
        'amount',
      );
    const id = newId('tr');
    const pyId = newId('py');
    const txn = balanceTransaction(null, -amount, currency, 'transfer', id);
    balanceTransaction(destination, amount, currency, 'payment', pyId);
    const object = put('transfer', null, {
      id,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: txn,
      created: now(),
      currency,
      description: str(params, 'description') ?? null,
      destination,
      destination_payment: pyId,
      livemode: false,
      metadata: metadataOf(params),
      reversals: {
        object: 'list',
        data: [],
        has_more: false,
        total_count: 0,
        url: `/v1/transfers/${id}/reversals`,
      },
      reversed: false,
      source_transaction: str(params, 'source_transaction') ?? null,
      source_type: 'card',
      transfer_group: str(params, 'transfer_group') ?? null,
    });
    emit('transfer.created', object, null, req);
    return object;
  }

  function payout(params: Obj, account: string | null, req: { id: string; key: string | null }): Obj {
    ensureKnown(params, [
      'amount',
      'currency',
      'description',
      'metadata',
      'method',
      'statement_descriptor',
      'destination',
      'expand',
    ]);
    const amount = int(params, 'amount');
    if (amount === undefined) throw missingParam('amount');
    if (amount < 1) throw badParam('Invalid positive integer', 'parameter_invalid_integer', 'amount');
    const currency = currencyOf(params);
    const method = str(params, 'method') ?? 'standard';
    if (!['standard', 'instant'].includes(method))
      throw badParam(
        'Invalid method: must be one of standard or instant',
        'parameter_invalid_string',
        'method',
      );
    if (account !== null) {
      const acct = store.get(account)!.object;
      if (!acct.payouts_enabled)
        throw invalid('Payouts are not enabled for this account.', 'payouts_not_allowed', 'amount');
    }
    if (balanceCell(account, currency).available < amount)
      throw invalid(
        'You have insufficient funds in your Stripe account for this transfer. Your card balance is too low.',
        'balance_insufficient',
        'amount',
      );
    const id = newId('po');
    const txn = balanceTransaction(account, -amount, currency, 'payout', id);
    const object = put('payout', account, {
      id,
      object: 'payout',
      amount,
      arrival_date: now() + 2 * 24 * 3600,
      automatic: false,
      balance_transaction: txn,
      created: now(),
      currency,
      description: str(params, 'description') ?? null,
      destination: str(params, 'destination') ?? newId('ba'),
      failure_code: null,
      failure_message: null,
      livemode: false,
      metadata: metadataOf(params),
      method,
      source_type: 'card',
      statement_descriptor: str(params, 'statement_descriptor') ?? null,
      status: 'pending',
      type: 'bank_account',
    });
    emit('payout.created', object, account, req);
    return object;
  }

  // -------------------------------------------------------------------------------------------------
  // Reading

  function visible(object: Obj): Obj {
    const out: Obj = {};
    for (const [k, v] of Object.entries(object)) if (!k.startsWith('__')) out[k] = v;
    return structuredClone(out);
  }

  function expand(object: Obj, paths: string[], account: string | null): Obj {
    const out = visible(object);
    for (const path of paths) {
      const parts = path.split('.');
      let holder: Obj | undefined = out;
      for (let i = 0; i < parts.length && holder; i++) {
        const field = parts[i]!;
        const value: Json = holder[field];
        if (parts.length - 1 === i) {
          if (typeof value === 'string') {
            const found = store.get(value);
            if (
              found &&
              (found.account === account || found.kind === 'balance_transaction' || found.kind === 'account')
            )
              holder[field] = visible(found.object);
          } else if (value === undefined) {
            throw badParam(
              `This property cannot be expanded (${path}).`,
              'parameter_invalid_string',
              'expand',
            );
          }
        } else holder = typeof value === 'object' ? value : undefined;
      }
    }
    return out;
  }

  function expandsOf(params: Obj): string[] {
    const e = params.expand;
    if (e === undefined) return [];
    if (!Array.isArray(e)) throw badParam('Invalid array', 'parameter_invalid_string', 'expand');
    return e.map(String);
  }

  function list(
    kind: StripeObjectKind,
    params: Obj,
    account: string | null,
    url: string,
    filter: (o: Obj) => boolean = () => true,
  ): Obj {
    const limit = int(params, 'limit') ?? 10;
    if (limit < 1 || limit > 100)
      throw badParam(
        'Invalid integer: limit must be between 1 and 100',
        'parameter_invalid_integer',
        'limit',
      );
    const created = params.created;
    const within = (o: Obj) => {
      if (created === undefined) return true;
      if (typeof created === 'string') return o.created === Number(created);
      const c = created as Obj;
      if (c.gt !== undefined && !(o.created > Number(c.gt))) return false;
      if (c.gte !== undefined && !(o.created >= Number(c.gte))) return false;
      if (c.lt !== undefined && !(o.created < Number(c.lt))) return false;
      if (c.lte !== undefined && !(o.created <= Number(c.lte))) return false;
      return true;
    };
    let all = [...store.values()]
      .filter((s) => s.kind === kind && s.account === account && filter(s.object) && within(s.object))
      .sort((a, b) => b.seq - a.seq)
      .map((s) => s.object);
    const after = str(params, 'starting_after');
    const before = str(params, 'ending_before');
    let hasMore: boolean;
    let page: Obj[];
    if (after !== undefined) {
      const i = all.findIndex((o) => o.id === after);
      if (i < 0) throw noSuch(kind, after, 'starting_after');
      all = all.slice(i + 1);
      page = all.slice(0, limit);
      hasMore = all.length > limit;
    } else if (before !== undefined) {
      const i = all.findIndex((o) => o.id === before);
      if (i < 0) throw noSuch(kind, before, 'ending_before');
      all = all.slice(0, i);
      page = all.slice(Math.max(0, all.length - limit));
      hasMore = all.length > limit;
    } else {
      page = all.slice(0, limit);
      hasMore = all.length > limit;
    }
    const paths = expandsOf(params)
      .filter((p) => p.startsWith('data.'))
      .map((p) => p.slice(5));
    return { object: 'list', data: page.map((o) => expand(o, paths, account)), has_more: hasMore, url };
  }

  function balance(account: string | null): Obj {
    const per = balances.get(account ?? platformAccountId) ?? new Map();
    const available: Obj[] = [];
    const pendingList: Obj[] = [];
    for (const [currency, cell] of per) {
      available.push({ amount: cell.available, currency, source_types: { card: cell.available } });
      pendingList.push({ amount: cell.pending, currency, source_types: { card: cell.pending } });
    }
    if (available.length === 0) {
      available.push({ amount: 0, currency: 'usd', source_types: { card: 0 } });
      pendingList.push({ amount: 0, currency: 'usd', source_types: { card: 0 } });
    }
    return { object: 'balance', available, livemode: false, pending: pendingList };
  }

  // -------------------------------------------------------------------------------------------------
  // Routing

  interface Ctx {
    method: string;
    path: string;
    params: Obj;
    account: string | null;
    req: { id: string; key: string | null };
  }

  /** Answers [status, object] for an API call; throws StripeApiError. */
  function route(c: Ctx): [number, Obj] {
    const { method, path, params, account, req } = c;
    const seg = path.split('/').slice(2); // after '/v1'
    const ex = () => expandsOf(params);
    const only = (...allowed: string[]) => ensureKnown(params, [...allowed, 'expand']);
    const listParams = ['limit', 'starting_after', 'ending_before', 'created', 'expand'];

    // checkout sessions
    if (seg[0] === 'checkout' && seg[1] === 'sessions') {
      if (seg.length === 2 && method === 'POST')
        return [
          200,
          expand(put('checkout.session', account, checkoutSession(params, account)), ex(), account),
        ];
      if (seg.length === 2 && method === 'GET') {
        ensureKnown(params, [...listParams, 'payment_intent', 'status', 'customer', 'client_reference_id']);
        return [
          200,
          list(
            'checkout.session',
            params,
            account,
            '/v1/checkout/sessions',
            (o) =>
              (params.payment_intent === undefined || o.payment_intent === params.payment_intent) &&
              (params.status === undefined || o.status === params.status) &&
              (params.customer === undefined || o.customer === params.customer),
          ),
        ];
      }
      if (seg.length === 3 && method === 'GET') {
        only();
        return [200, expand(get('checkout.session', seg[2]!, account, 'session'), ex(), account)];
      }
      if (seg.length === 4 && seg[3] === 'line_items' && method === 'GET') {
        ensureKnown(params, listParams);
        const s = get('checkout.session', seg[2]!, account, 'session');
        const items = s.__lineItems as Obj[];
        return [
          200,
          {
            object: 'list',
            data: structuredClone(items.slice(0, int(params, 'limit') ?? 10)),
            has_more: items.length > (int(params, 'limit') ?? 10),
            url: `/v1/checkout/sessions/${s.id}/line_items`,
          },
        ];
      }
      if (seg.length === 4 && seg[3] === 'expire' && method === 'POST') {
        only();
        const s = get('checkout.session', seg[2]!, account, 'session');
        if (s.status !== 'open')
          throw invalid(
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
            undefined,
            'session',
          );
        s.status = 'expired';
        emit('checkout.session.expired', visible(s), account, req);
        return [200, expand(s, ex(), account)];
      }
    }
    if (seg[0] === 'payment_intents' && method === 'GET') {
      if (seg.length === 1) {
        ensureKnown(params, [...listParams, 'customer']);
        return [200, list('payment_intent', params, account, '/v1/payment_intents')];
      }
      if (seg.length === 2) {
        ensureKnown(params, ['expand', 'client_secret']);
        return [200, expand(get('payment_intent', seg[1]!, account, 'intent'), ex(), account)];
      }
    }
    if (seg[0] === 'charges' && method === 'GET') {
      if (seg.length === 1) {
        ensureKnown(params, [...listParams, 'payment_intent', 'customer', 'transfer_group']);
        return [
          200,
          list(
            'charge',
            params,
            account,
            '/v1/charges',
            (o) => params.payment_intent === undefined || o.payment_intent === params.payment_intent,
          ),
        ];
      }
      if (seg.length === 2) {
        only();
        return [200, expand(get('charge', seg[1]!, account, 'charge'), ex(), account)];
      }
    }
    if (seg[0] === 'refunds') {
      if (seg.length === 1 && method === 'POST')
        return [200, expand(refund(params, account, req), ex(), account)];
      if (seg.length === 1 && method === 'GET') {
        ensureKnown(params, [...listParams, 'charge', 'payment_intent']);
        return [
          200,
          list(
            'refund',
            params,
            account,
            '/v1/refunds',
            (o) =>
              (params.charge === undefined || o.charge === params.charge) &&
              (params.payment_intent === undefined || o.payment_intent === params.payment_intent),
          ),
        ];
      }
      if (seg.length === 2 && method === 'GET') {
        only();
        return [200, expand(get('refund', seg[1]!, account, 'refund'), ex(), account)];
      }
    }
    if (seg[0] === 'account' && seg.length === 1 && method === 'GET') {
      only();
      if (account === null)
        return [
          200,
          {
            id: platformAccountId,
            object: 'account',
            business_type: 'company',
            charges_enabled: true,
            payouts_enabled: true,
            details_submitted: true,
            country: platformCountry,
            default_currency: platformCountry === 'US' ? 'usd' : 'eur',
            type: 'standard',
            metadata: {},
          },
        ];
      return [200, expand(get('account', account, null), ex(), account)];
    }
    if (seg[0] === 'accounts') {
      if (account !== null)
        throw new StripeApiError(
          403,
          'invalid_request_error',
          'Connected accounts cannot manage other accounts.',
          'account_invalid',
        );
      if (seg.length === 1 && method === 'POST') {
        ensureKnown(params, [
          'type',
          'country',
          'email',
          'capabilities',
          'business_type',
          'metadata',
          'controller',
          'business_profile',
          'default_currency',
          'tos_acceptance',
          'settings',
          'expand',
        ]);
        const object = put('account', null, accountObject(params));
        return [200, expand(object, ex(), null)];
      }
      if (seg.length === 1 && method === 'GET') {
        ensureKnown(params, listParams);
        return [200, list('account', params, null, '/v1/accounts')];
      }
      if (seg.length === 2 && method === 'GET') {
        only();
        return [200, expand(get('account', seg[1]!, null, 'account'), ex(), null)];
      }
      if (seg.length === 2 && method === 'POST') {
        ensureKnown(params, [
          'email',
          'metadata',
          'business_profile',
          'business_type',
          'capabilities',
          'settings',
          'default_currency',
          'expand',
        ]);
        const a = get('account', seg[1]!, null, 'account');
        const previous: Obj = {};
        if (params.email !== undefined) {
          previous.email = a.email;
          a.email = str(params, 'email');
        }
        if (params.metadata !== undefined) {
          previous.metadata = a.metadata;
          a.metadata = metadataOf(params, a.metadata);
        }
        if (params.business_type !== undefined) {
          previous.business_type = a.business_type;
          a.business_type = str(params, 'business_type');
        }
        if (params.capabilities !== undefined) {
          previous.capabilities = { ...a.capabilities };
          for (const [name, v] of Object.entries(sub(params, 'capabilities') ?? {}))
            if ((v as Obj)?.requested === 'true' && a.capabilities[name] === undefined)
              a.capabilities[name] = 'inactive';
        }
        if (Object.keys(previous).length > 0) emit('account.updated', a, a.id, req, previous);
        return [200, expand(a, ex(), null)];
      }
      if (seg.length === 2 && method === 'DELETE') {
        only();
        const a = get('account', seg[1]!, null, 'account');
        store.delete(a.id);
        return [200, { id: a.id, object: 'account', deleted: true }];
      }
    }
    if (seg[0] === 'account_links' && seg.length === 1 && method === 'POST') {
      ensureKnown(params, [
        'account',
        'refresh_url',
        'return_url',
        'type',
        'collect',
        'collection_options',
        'expand',
      ]);
      const accountId = requiredStr(params, 'account');
      const type = requiredStr(params, 'type');
      if (!['account_onboarding', 'account_update'].includes(type))
        throw badParam(
          'Invalid type: must be one of account_onboarding or account_update',
          'parameter_invalid_string',
          'type',
        );
      const refreshUrl = urlParam(params, 'refresh_url');
      const returnUrl = urlParam(params, 'return_url');
      if (returnUrl === undefined) throw missingParam('return_url');
      if (account !== null)
        throw new StripeApiError(
          403,
          'invalid_request_error',
          'Account links can only be created by the platform.',
          'account_invalid',
        );
      const a = get('account', accountId, null, 'account');
      if (a.type === 'standard' && type === 'account_update')
        throw invalid(
          'You cannot create `account_update` type Account Links for Standard accounts.',
          undefined,
          'type',
        );
      const token = randomChars(32);
      linkTokens.set(token, {
        accountId,
        returnUrl,
        refreshUrl: refreshUrl ?? returnUrl,
        expiresAt: now() + 300,
      });
      return [
        200,
        {
          object: 'account_link',
          created: now(),
          expires_at: now() + 300,
          url: `${baseUrl}/setup/e/${accountId}/${token}`,
        },
      ];
    }
    if (seg[0] === 'transfers') {
      if (seg.length === 1 && method === 'POST')
        return [200, expand(transfer(params, account, req), ex(), account)];
      if (seg.length === 1 && method === 'GET') {
        ensureKnown(params, [...listParams, 'destination', 'transfer_group']);
        return [
          200,
          list(
            'transfer',
            params,
            account,
            '/v1/transfers',
            (o) =>
              (params.destination === undefined || o.destination === params.destination) &&
              (params.transfer_group === undefined || o.transfer_group === params.transfer_group),
          ),
        ];
      }
      if (seg.length === 2 && method === 'GET') {
        only();
        return [200, expand(get('transfer', seg[1]!, account, 'transfer'), ex(), account)];
      }
    }
    if (seg[0] === 'payouts') {
      if (seg.length === 1 && method === 'POST')
        return [200, expand(payout(params, account, req), ex(), account)];
      if (seg.length === 1 && method === 'GET') {
        ensureKnown(params, [...listParams, 'status', 'arrival_date', 'destination']);
        return [
          200,
          list(
            'payout',
            params,
            account,
            '/v1/payouts',
            (o) => params.status === undefined || o.status === params.status,
          ),
        ];
      }
      if (seg.length === 2 && method === 'GET') {
        only();
        return [200, expand(get('payout', seg[1]!, account, 'payout'), ex(), account)];
      }
    }
    if (seg[0] === 'balance' && seg.length === 1 && method === 'GET') {
      only();
      return [200, balance(account)];
    }
    if (seg[0] === 'balance_transactions' && method === 'GET') {
      if (seg.length === 1) {
        ensureKnown(params, [...listParams, 'type', 'source', 'currency', 'payout']);
        return [
          200,
          list(
            'balance_transaction',
            params,
            account,
            '/v1/balance_transactions',
            (o) =>
              (params.type === undefined || o.type === params.type) &&
              (params.source === undefined || o.source === params.source),
          ),
        ];
      }
      if (seg.length === 2) {
        only();
        return [200, expand(get('balance_transaction', seg[1]!, account, 'id'), ex(), account)];
      }
    }
    if (seg[0] === 'events' && method === 'GET') {
      if (seg.length === 1) {
        ensureKnown(params, [...listParams, 'type', 'types', 'delivery_success']);
        if (params.type !== undefined && params.types !== undefined)
          throw invalid('You may only specify one of these parameters: type, types.', undefined, 'type');
        const types: string[] | undefined = Array.isArray(params.types) ? params.types : undefined;
        const typeFilter = str(params, 'type');
        const matches = (t: string) => {
          if (types) return types.includes(t);
          if (typeFilter === undefined) return true;
          if (typeFilter.endsWith('.*')) return t.startsWith(typeFilter.slice(0, -1));
          return t === typeFilter;
        };
        return [200, list('event', params, account, '/v1/events', (o) => matches(o.type))];
      }
      if (seg.length === 2) {
        only();
        return [200, visible(get('event', seg[1]!, account, 'id'))];
      }
    }
    if (seg[0] === 'webhook_endpoints') {
      if (seg.length === 1 && method === 'POST') {
        ensureKnown(params, [
          'url',
          'enabled_events',
          'connect',
          'description',
          'metadata',
          'api_version',
          'expand',
        ]);
        const url = urlParam(params, 'url');
        if (url === undefined) throw missingParam('url');
        if (!Array.isArray(params.enabled_events)) throw missingParam('enabled_events');
        const e = addEndpoint({
          url,
          enabledEvents: params.enabled_events.map(String),
          connect: bool(params, 'connect') ?? false,
        });
        return [200, { ...endpointObject(e), secret: e.secret }];
      }
      if (seg.length === 1 && method === 'GET') {
        ensureKnown(params, listParams);
        return [
          200,
          {
            object: 'list',
            data: [...endpoints.values()].map(endpointObject),
            has_more: false,
            url: '/v1/webhook_endpoints',
          },
        ];
      }
      if (seg.length === 2 && method === 'DELETE') {
        if (!endpoints.has(seg[1]!)) throw noSuch('webhook endpoint', seg[1]!);
        endpoints.delete(seg[1]!);
        store.delete(seg[1]!);
        return [200, { id: seg[1], object: 'webhook_endpoint', deleted: true }];
      }
    }
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }

  const linkTokens = new Map<
    string,
    { accountId: string; returnUrl: string; refreshUrl: string; expiresAt: number }
  >();

  function endpointObject(e: WebhookEndpoint): Obj {
    return {
      id: e.id,
      object: 'webhook_endpoint',
      api_version: STRIPE_API_VERSION,
      application: null,
      created: now(),
      enabled_events: e.enabledEvents,
      livemode: false,
      metadata: {},
      status: 'enabled',
      url: e.url,
    };
  }

  function addEndpoint(o: WebhookEndpointOptions): WebhookEndpoint {
    const e: WebhookEndpoint = {
      id: newId('we'),
      url: o.url,
      secret: o.secret ?? `whsec_${randomChars(32)}`,
      connect: o.connect ?? false,
      enabledEvents: o.enabledEvents ?? ['*'],
    };
    endpoints.set(e.id, e);
    put('webhook_endpoint', null, endpointObject(e));
    return e;
  }

  function statsFor(scope: string): IdempotencyStats {
    let s = stats.get(scope);
    if (!s) stats.set(scope, (s = { requests: 0, executions: 0, replays: 0, mismatches: 0 }));
    return s;
  }

  function authenticate(headers: http.IncomingHttpHeaders): void {
    const auth = headers.authorization;
    let key: string | undefined;
    if (auth?.startsWith('Bearer ')) key = auth.slice(7).trim();
    else if (auth?.startsWith('Basic '))
      key = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0];
    if (key === undefined || key === '')
      throw new StripeApiError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      );
    if (key !== secretKey)
      throw new StripeApiError(
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      );
  }

  function connectedAccountOf(headers: http.IncomingHttpHeaders): string | null {
    const raw = headers['stripe-account'];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '' || value === platformAccountId) return null;
    const found = store.get(value);
    if (!found || found.kind !== 'account')
      throw new StripeApiError(
        403,
        'invalid_request_error',
        `The provided key '${secretKey.slice(0, 8)}***${secretKey.slice(-4)}' does not have access to account '${value}' (or that account does not exist). Application access may have been revoked.`,
        'account_invalid',
      );
    return value;
  }

  function takeFailure(method: string, path: string): PendingFailure | undefined {
    const i = failures.findIndex(
      (f) =>
        (f.method === undefined || f.method === method) &&
        (f.pathPrefix === undefined || path.startsWith(f.pathPrefix)),
    );
    if (i < 0) return undefined;
    const f = failures[i]!;
    f.remaining -= 1;
    if (f.remaining <= 0) failures.splice(i, 1);
    return f;
  }

  function answerApi(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\/+$/, '');
    const requestId = `req_${randomChars(14)}`;
    const idemHeader = req.headers['idempotency-key'];
    const idempotencyKey =
      method === 'POST' && typeof idemHeader === 'string' && idemHeader !== '' ? idemHeader : null;
    const record: ReceivedStripeRequest = {
      method,
      path,
      params: {},
      rawBody,
      headers: req.headers,
      account: null,
      idempotencyKey,
      status: 0,
      replayed: false,
    };
    requests.push(record);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Request-Id': requestId,
      'Stripe-Version': (req.headers['stripe-version'] as string | undefined) ?? STRIPE_API_VERSION,
      'Access-Control-Allow-Origin': '*',
    };
    if (idempotencyKey !== null) headers['Idempotency-Key'] = idempotencyKey;
    const send = (status: number, body: string, extra: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { ...headers, ...extra, 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    };
    const sendError = (e: StripeApiError) => send(e.status, JSON.stringify(e.body(), null, 2));

    let scope: string | null = null;
    try {
      authenticate(req.headers);
      const account = connectedAccountOf(req.headers);
      record.account = account;
      if (idempotencyKey !== null && idempotencyKey.length > 255)
        throw badParam(
          'Idempotency keys can be at most 255 characters long.',
          'idempotency_key_invalid',
          'Idempotency-Key',
        );
      const params = parseStripeForm(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : rawBody);
      record.params = params;
      const failure = takeFailure(method, path);
      if (failure?.error) {
        const e = failure.error;
        throw new StripeApiError(
          e.status,
          e.type,
          e.message ?? 'An unknown error occurred',
          e.code,
          undefined,
          true,
        );
      }
      if (idempotencyKey !== null) {
        scope = `${account ?? 'platform'}\u0000${idempotencyKey}`;
        const st = statsFor(scope);
        st.requests += 1;
        const first = saved.get(scope);
        const paramsText = canonical(params);
        if (first && now() - first.savedAt > IDEMPOTENCY_TTL_SECONDS) saved.delete(scope);
        else if (first) {
          if (first.method !== method || first.path !== path || first.params !== paramsText) {
            st.mismatches += 1;
            scope = null;
            throw new StripeApiError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              undefined,
              undefined,
              true,
            );
          }
          st.replays += 1;
          record.replayed = true;
          scope = null;
          if (failure?.dropResponse) {
            record.status = -1;
            res.socket?.destroy();
            return;
          }
          send(first.status, first.body, {
            'Idempotent-Replayed': 'true',
            'Original-Request': first.requestId,
          });
          return;
        }
        if (inFlight.has(scope)) {
          scope = null;
          throw new StripeApiError(
            409,
            'idempotency_error',
            'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' +
              idempotencyKey +
              '. Please try again later.',
            'idempotency_key_in_use',
            undefined,
            true,
          );
        }
        inFlight.add(scope);
      }
      let status: number;
      let body: string;
      try {
        const [s, object] = route({
          method,
          path,
          params,
          account,
          req: { id: requestId, key: idempotencyKey },
        });
        status = s;
        body = JSON.stringify(object, null, 2);
      } catch (e) {
        if (!(e instanceof StripeApiError)) throw e;
        if (e.beforeExecution || scope === null) throw e;
        status = e.status;
        body = JSON.stringify(e.body(), null, 2);
      }
      if (scope !== null) {
        statsFor(scope).executions += 1;
        saved.set(scope, {
          method,
          path,
          params: canonical(params),
          status,
          body,
          requestId,
          savedAt: now(),
        });
      }
      if (failure?.dropResponse) {
        record.status = -1;
        res.socket?.destroy();
        return;
      }
      send(status, body);
    } catch (e) {
      if (e instanceof StripeApiError) sendError(e);
      else {
        console.error('stripe-api-server: internal error', e);
        sendError(new StripeApiError(500, 'api_error', 'An unknown error occurred'));
      }
    } finally {
      if (scope !== null) inFlight.delete(scope);
    }
  }

  // Hosted pages: the checkout page and the onboarding page, each a form that does what the person would.
  function answerPage(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>Stripe (local)</title></head><body>${text}</body></html>`,
      );
    };
    const redirect = (to: string) => {
      res.writeHead(303, { Location: to });
      res.end();
    };
    const pay = /^\/c\/pay\/(cs_test_[A-Za-z0-9]+)$/.exec(url.pathname);
    if (pay) {
      const found = store.get(pay[1]!);
      if (!found || found.kind !== 'checkout.session') return html(404, '<p>Something went wrong</p>');
      const s = found.object;
      if (req.method === 'POST') {
        if (s.status !== 'open') return html(409, `<p>This checkout session is ${s.status}.</p>`);
        void completeCheckout(s.id).then(
          () => redirect(String(s.success_url ?? `${baseUrl}/c/done`).replace('{CHECKOUT_SESSION_ID}', s.id)),
          () => html(500, '<p>Payment failed</p>'),
        );
        return;
      }
      const items = (s.__lineItems as Obj[])
        .map((i) => `<li>${escapeHtml(i.description)} × ${i.quantity}: ${i.amount_total} ${i.currency}</li>`)
        .join('');
      return html(
        200,
        `<h1>Pay ${s.amount_total} ${s.currency}</h1><ul>${items}</ul><form method="post"><button type="submit">Pay</button></form>${s.cancel_url ? `<a href="${escapeHtml(s.cancel_url)}">Cancel</a>` : ''}`,
      );
    }
    const setup = /^\/setup\/e\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9]+)$/.exec(url.pathname);
    if (setup) {
      const link = linkTokens.get(setup[2]!);
      if (!link || link.accountId !== setup[1]) return html(404, '<p>This link is invalid.</p>');
      if (now() > link.expiresAt) return redirect(link.refreshUrl);
      if (req.method === 'POST') {
        linkTokens.delete(setup[2]!);
        completeOnboardingOf(link.accountId);
        return redirect(link.returnUrl);
      }
      return html(
        200,
        `<h1>Set up payouts for ${escapeHtml(link.accountId)}</h1><form method="post"><button type="submit">Submit</button></form>`,
      );
    }
    if (url.pathname === '/c/done') return html(200, '<p>Paid.</p>');
    html(404, '<p>Not found</p>');
  }

  function completeOnboardingOf(accountId: string): Obj {
    return setAccountState(accountId, { detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      if (path.startsWith('/v1/')) answerApi(req, res, rawBody);
      else answerPage(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host}:${port}`;

  return {
    url: baseUrl,
    host,
    port,
    secretKey,
    platformAccountId,
    clientOptions: { host, port, protocol: 'http' },
    requests,
    events,
    deliveries,
    addWebhookEndpoint: addEndpoint,
    removeWebhookEndpoint(id) {
      endpoints.delete(id);
      store.delete(id);
    },
    objects(kind) {
      return [...store.values()]
        .filter((s) => s.kind === kind)
        .sort((a, b) => a.seq - b.seq)
        .map((s) => visible(s.object));
    },
    object(id) {
      const found = store.get(id);
      return found ? visible(found.object) : undefined;
    },
    idempotency(key, account = null) {
      return { ...statsFor(`${account ?? 'platform'}\u0000${key}`) };
    },
    completeCheckout,
    expireCheckout(sessionId) {
      const found = store.get(sessionId);
      if (!found || found.kind !== 'checkout.session') throw new Error(`no checkout session ${sessionId}`);
      if (found.object.status !== 'open')
        throw new Error(`checkout session ${sessionId} is ${found.object.status}`);
      found.object.status = 'expired';
      emit('checkout.session.expired', visible(found.object), found.account, { id: null, key: null });
      return visible(found.object);
    },
    completeOnboarding: (id) => visible(completeOnboardingOf(id)),
    updateAccount: (id, state) => visible(setAccountState(id, state)),
    settlePayout(payoutId, outcome, account = null) {
      const p = get('payout', payoutId, account);
      if (p.status !== 'pending' && p.status !== 'in_transit')
        throw new Error(`payout ${payoutId} is ${p.status}`);
      const previous = { status: p.status };
      p.status = outcome;
      if (outcome === 'failed') {
        p.failure_code = 'account_closed';
        p.failure_message = 'The bank account has been closed.';
        balanceTransaction(account, p.amount, p.currency, 'payout_failure', p.id);
      }
      emit(
        outcome === 'paid' ? 'payout.paid' : 'payout.failed',
        p,
        account,
        { id: null, key: null },
        previous,
      );
      return visible(p);
    },
    settleRefund(refundId, outcome, account = null) {
      const r = get('refund', refundId, account);
      if (r.status !== 'pending') throw new Error(`refund ${refundId} is ${r.status}`);
      const previous = { status: r.status };
      r.status = outcome;
      if (outcome === 'failed') {
        r.failure_reason = 'unknown';
        const charge = get('charge', r.charge, account);
        charge.amount_refunded -= r.amount;
        charge.refunded = false;
        balanceTransaction(account, r.amount, r.currency, 'refund_failure', r.id);
      }
      const event = emit('refund.updated', r, account, { id: null, key: null }, previous);
      if (outcome === 'failed') emit('refund.failed', r, account, { id: null, key: null });
      return event;
    },
    createDispute(chargeId, amount) {
      const found = store.get(chargeId);
      if (!found || found.kind !== 'charge') throw new Error(`no charge ${chargeId}`);
      const charge = found.object;
      charge.disputed = true;
      const dispute = put('dispute', found.account, {
        id: newId('du'),
        object: 'dispute',
        amount: amount ?? charge.amount,
        charge: charge.id,
        created: now(),
        currency: charge.currency,
        livemode: false,
        metadata: {},
        payment_intent: charge.payment_intent,
        reason: 'fraudulent',
        status: 'needs_response',
      });
      emit('charge.dispute.created', dispute, found.account, { id: null, key: null });
      return visible(dispute);
    },
    addBalance(account, currency, amount) {
      balanceCell(account, currency.toLowerCase()).available += amount;
    },
    balanceOf(account, currency) {
      return { ...balanceCell(account, currency.toLowerCase()) };
    },
    failNext(o) {
      failures.push({ ...o, remaining: o.count ?? 1 });
    },
    pendingEvents: () => [...pending],
    async deliver(eventId, o = {}) {
      const found = store.get(eventId);
      if (!found || found.kind !== 'event') throw new Error(`no event ${eventId}`);
      const i = pending.findIndex((e) => e.id === eventId);
      if (i >= 0) pending.splice(i, 1);
      return sendToEndpoints(found.object, o);
    },
    async deliverPending(o = {}) {
      const batch = pending.splice(0, pending.length);
      if (o.order === 'newest') batch.reverse();
      const out: WebhookDelivery[] = [];
      for (const e of batch) out.push(...(await sendToEndpoints(e, {})));
      return out;
    },
    async waitForDeliveries(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (activeDeliveries.size > 0 || retryTimers.size > 0) {
        if (Date.now() > deadline) throw new Error('stripe-api-server: webhook deliveries still running');
        if (activeDeliveries.size > 0)
          await Promise.race([...activeDeliveries, new Promise((r) => setTimeout(r, 50))]);
        else await new Promise((r) => setTimeout(r, 20));
      }
    },
    signatureHeader,
    setAutoDeliver(on) {
      autoDeliver = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const t of retryTimers) clearTimeout(t);
        retryTimers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
