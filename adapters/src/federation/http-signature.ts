// RFC 9421 HTTP Message Signatures, the profile every server-to-server request between instances uses
// (docs/federation.md shows the exact bytes, test/vectors/http-signature-vectors.json pins them):
//
//   covered components  ("@method" "@target-uri" "content-digest"), exactly these, in this order
//   parameters          created (integer seconds), nonce (base64url string), keyid (the sender's key
//                       id), alg="ed25519"
//   Content-Digest      RFC 9530 sha-256 of the body as received
//
// The signature base (RFC 9421 §2.5) is one line per covered component, `"<name>": <value>`, then
// `"@signature-params": <the inner list as serialized>`, joined by LF with no trailing LF. The value of
// `@signature-params` is the RFC 8941 serialization of the parsed Signature-Input member, so the
// verifier signs over exactly what the sender declared. Structured fields are read and written by the
// `structured-headers` package (RFC 9651/8941), not by hand.
import { createHash } from 'node:crypto';
import {
  isInnerList,
  parseDictionary,
  serializeDictionary,
  serializeInnerList,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers';

const COVERED_COMPONENTS = ['@method', '@target-uri', 'content-digest'] as const;
export const SIGNATURE_ALGORITHM = 'ed25519' as const;
const SIGNATURE_LABEL = 'sig1';

interface SignatureParams {
  created: number;
  nonce: string;
  keyid: string;
  alg: typeof SIGNATURE_ALGORITHM;
  expires?: number | undefined;
}

interface SignedRequestParts {
  method: string;
  /** The absolute URI the request is sent to. */
  targetUri: string;
  /** The Content-Digest field value. */
  contentDigest: string;
}

/** RFC 9530: `sha-256=:<base64 of SHA-256(body)>:`. */
export function contentDigest(body: Uint8Array | string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** The inner list `("@method" "@target-uri" "content-digest");created=…;nonce=…;keyid=…;alg=…`. */
export function signatureInputList(params: SignatureParams): InnerList {
  const p: Parameters = new Map();
  p.set('created', params.created);
  if (params.expires !== undefined) p.set('expires', params.expires);
  p.set('nonce', params.nonce);
  p.set('keyid', params.keyid);
  p.set('alg', params.alg);
  return [COVERED_COMPONENTS.map((c): Item => [c, new Map()]), p];
}

/** RFC 9421 §2.5: the exact text that is signed. */
export function signatureBase(parts: SignedRequestParts, list: InnerList): string {
  const values: Record<(typeof COVERED_COMPONENTS)[number], string> = {
    '@method': parts.method,
    '@target-uri': parts.targetUri,
    'content-digest': parts.contentDigest.trim(),
  };
  const lines = COVERED_COMPONENTS.map((c) => `"${c}": ${values[c]}`);
  lines.push(`"@signature-params": ${serializeInnerList(list)}`);
  return lines.join('\n');
}

/** The three headers a signed request carries. */
export function signatureHeaders(
  parts: SignedRequestParts,
  params: SignatureParams,
  sign: (base: Buffer) => Uint8Array,
): { 'content-digest': string; 'signature-input': string; signature: string } {
  const list = signatureInputList(params);
  const signature = sign(Buffer.from(signatureBase(parts, list), 'utf8'));
  return {
    'content-digest': parts.contentDigest,
    'signature-input': serializeDictionary(new Map([[SIGNATURE_LABEL, list]])),
    signature: serializeDictionary(new Map([[SIGNATURE_LABEL, [Buffer.from(signature), new Map()] as Item]])),
  };
}

type SignatureHeaderProblem = 'missing' | 'malformed';

interface ReceivedSignature {
  list: InnerList;
  params: SignatureParams;
  signature: Buffer;
}

const ALLOWED_PARAMS = new Set(['created', 'expires', 'nonce', 'keyid', 'alg', 'tag']);
const NONCE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Reads the one signature of a request: Signature-Input and Signature must each hold exactly one
 * member, under the same label, covering exactly our components with our parameters.
 */
export function readSignatureHeaders(
  signatureInput: string | undefined,
  signatureField: string | undefined,
): ReceivedSignature | SignatureHeaderProblem {
  if (!signatureInput || !signatureField) return 'missing';
  let inputs, signatures;
  try {
    inputs = parseDictionary(signatureInput);
    signatures = parseDictionary(signatureField);
  } catch {
    return 'malformed';
  }
  if (inputs.size !== 1 || signatures.size !== 1) return 'malformed';
  const [label, member] = [...inputs.entries()][0]!;
  const sigMember = signatures.get(label);
  if (!sigMember || !isInnerList(member) || isInnerList(sigMember)) return 'malformed';
  const list = member as InnerList;
  const [items, p] = list;
  if (
    items.length !== COVERED_COMPONENTS.length ||
    items.some(([name, itemParams], i) => name !== COVERED_COMPONENTS[i] || itemParams.size > 0)
  )
    return 'malformed';
  if ([...p.keys()].some((k) => !ALLOWED_PARAMS.has(k))) return 'malformed';
  const created = p.get('created');
  const expires = p.get('expires');
  const nonce = p.get('nonce');
  const keyid = p.get('keyid');
  const alg = p.get('alg');
  if (
    typeof created !== 'number' ||
    !Number.isInteger(created) ||
    (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires))) ||
    typeof nonce !== 'string' ||
    !NONCE.test(nonce) ||
    typeof keyid !== 'string' ||
    keyid.length === 0 ||
    keyid.length > 200 ||
    alg !== SIGNATURE_ALGORITHM
  )
    return 'malformed';
  const sigValue = sigMember[0];
  if (!(sigValue instanceof ArrayBuffer) || sigValue.byteLength !== 64) return 'malformed';
  return {
    list,
    params: { created, nonce, keyid, alg, ...(expires !== undefined && { expires: expires as number }) },
    signature: Buffer.from(sigValue),
  };
}
