import * as v from 'valibot';

const param = v.pipe(v.string(), v.maxLength(512, 'too long'));

/** Meta's verification handshake (decisions §13): `hub.mode`, `hub.verify_token`, `hub.challenge`. */
export const VerifyMetaQuery = v.object({
  'hub.mode': v.optional(param),
  'hub.verify_token': v.optional(param),
  'hub.challenge': v.optional(param),
});

/** Meta's notification taken: how many changes it carried were queued. */
export const ReceiveMetaResponse = v.object({ success: v.literal(true), changes: v.pipe(v.number(), v.integer(), v.minValue(0)) });
