import * as v from 'valibot';

const param = v.pipe(v.string(), v.maxLength(512, 'too long'));

/** Meta's verification handshake (decisions §13): `hub.mode`, `hub.verify_token`, `hub.challenge`. */
export const VerifyMetaQuery = v.object({
  'hub.mode': v.optional(param),
  'hub.verify_token': v.optional(param),
  'hub.challenge': v.optional(param),
});
