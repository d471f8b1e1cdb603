// svc.spatial.admit_traveller (POST /wow/user, public): the door of this instance's hosted worlds
// (docs/spatial.md#presence). A traveller presents the presentation their home instance signed; it is
// admitted when its issuer is this instance or a registered, unblocked peer at the base URL it names,
// its signature verifies under that issuer's registered key, it is within its lifetime, it is bound to
// this instance and to a public world hosted here, and it was never presented here before (its stream
// `presentation-<issuer>-<nonce>` is new: the log burns the nonce, so a replay fails after a restart and
// under concurrency alike). The answer is a presence receipt; presenting a fresh presentation while
// present renews the same presence.
import {
  CLOCK_SKEW_SECONDS,
  conflict,
  decideAdmitTraveller,
  forbidden,
  invalid,
  isDomainError,
  keyIdOf,
  notFound,
  PRESENCE_DEFAULT_SECONDS,
  presentationSchema,
  presentationStream,
  presentationTiming,
  unauthenticated,
  worldStream,
  type Presentation,
  type PresentationUseState,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialSigningOperation, type SpatialSigningContext } from './spatial-operation.js';
import { admissionOutput, presenceAnswer, sameOrigin } from './presence-support.js';

/** The issuer's key for this presentation: ours, or the registered peer's. */
async function issuerKey(ctx: SpatialSigningContext, p: Presentation): Promise<string> {
  const unknownIssuer = () =>
    unauthenticated(
      'spatial.presentation_unknown_issuer',
      'the issuer is not this instance or a registered peer, or the key is not its',
    );
  const keyId = keyIdOf(p);
  if (!keyId) throw unknownIssuer();
  const now = ctx.services.clock.now().getTime();
  const usable = (k: { validUntil: string | null } | undefined) =>
    !!k && (k.validUntil === null || now < Date.parse(k.validUntil));
  if (p.issuer.instanceId === ctx.instance.instanceId) {
    if (!sameOrigin(p.issuer.baseUrl, ctx.instance.baseUrl)) throw unknownIssuer();
    const keys = await ctx.services.federationSurface.read.instanceKeys();
    const key = keys.find((k) => k.keyId === keyId);
    if (!usable(key)) throw unknownIssuer();
    return key!.publicKey;
  }
  const peer = await ctx.services.federation?.read.peer(p.issuer.instanceId);
  if (!peer || peer.blocked || !sameOrigin(peer.baseUrl, p.issuer.baseUrl)) throw unknownIssuer();
  const key = peer.keys.find((k) => k.keyId === keyId);
  if (!usable(key)) throw unknownIssuer();
  return key!.publicKey;
}

export const admitTraveller = defineSpatialSigningOperation({
  name: 'svc.spatial.admit_traveller',
  title: 'Admit a traveller',
  description:
    'The door of a hosted world (POST /wow/user): verifies a traveller presentation and answers a presence receipt.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  public: true,
  input: z.strictObject({ presentation: z.unknown() }),
  output: admissionOutput,
  async run(ctx, input) {
    // 1. The shape (strict: a member the signature would not cover in our reading is refused).
    const shape = presentationSchema.safeParse(input.presentation);
    if (!shape.success)
      throw invalid('spatial.presentation_invalid', 'not a traveller presentation (see docs/spatial.md)', {
        issues: shape.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    const p = shape.data;
    // 2. Who signed it, by the key we hold for them — never the key the document carries.
    const publicKey = await issuerKey(ctx, p);
    const { signature, ...unsigned } = input.presentation as Presentation;
    const verified = ctx.services.federationSurface.documents.verify(unsigned, signature.value, publicKey);
    if (!verified)
      throw unauthenticated(
        'spatial.presentation_bad_signature',
        'the presentation signature does not verify',
      );
    // 3. Its lifetime.
    const now = ctx.services.clock.now();
    const timing = presentationTiming(p, now, CLOCK_SKEW_SECONDS);
    if (timing === 'too_long')
      throw invalid('spatial.presentation_invalid', 'the presentation lives longer than allowed', {
        issues: [{ path: 'expiresAt', message: 'at most 3600 s after issuedAt' }],
      });
    if (timing !== 'ok')
      throw unauthenticated('spatial.presentation_expired', 'the presentation is not valid now', {
        expiresAt: p.expiresAt,
        serverTime: now.toISOString(),
      });
    // 4. Bound to us.
    if (!sameOrigin(p.audience.instance, ctx.instance.baseUrl))
      throw forbidden('spatial.presentation_wrong_audience', 'the presentation is for another instance', {
        audience: p.audience.instance,
      });
    const worldId = p.audience.worldId.toLowerCase();
    // 5. A renewal keeps the receipt of the presence the same traveller (same issuer) holds here now.
    const live = await ctx.services.presence.read.livePresenceOf(p.subject, now, worldId);
    const current = live && live.issuer.instanceId === p.issuer.instanceId ? live : null;
    const seconds = ctx.services.config.travellers?.presenceSeconds ?? PRESENCE_DEFAULT_SECONDS;
    const cmd = {
      receiptId: current?.receiptId ?? ctx.services.ids.entityId(),
      worldId,
      subject: p.subject,
      issuerInstanceId: p.issuer.instanceId,
      issuerBaseUrl: p.issuer.baseUrl,
      presentationId: p['@id'],
      nonce: p.nonce,
      content: p.content,
      renewal: current !== null,
      expiresAt: new Date(now.getTime() + seconds * 1000).toISOString(),
    };
    // 6. Once only, and only into a public world hosted here (its stream is read, not written).
    const once = presentationStream(p.issuer.instanceId, p.nonce);
    const world = worldStream(worldId);
    try {
      await ctx.commit([once, world], (states) => {
        const w = states.get(world) as WorldState;
        if (!w.exists || w.visibility !== 'public')
          throw notFound('spatial.world_not_found', 'no such public world here');
        return decideAdmitTraveller(cmd, states.get(once) as PresentationUseState);
      });
    } catch (e) {
      // Two admissions of one presentation at once: the loser's append finds the stream taken. Only the
      // presentation's stream is written here, so a stream conflict is that replay.
      if (isDomainError(e) && e.code === 'log.stream_conflict')
        throw conflict('spatial.presentation_replayed', 'this presentation was already presented here', {
          presentationId: p['@id'],
        });
      throw e;
    }
    const answer = presenceAnswer(ctx, (await ctx.services.presence.read.presence(cmd.receiptId))!);
    return { ...answer, tributary: { ...answer.tributary, renewed: cmd.renewal } };
  },
});
