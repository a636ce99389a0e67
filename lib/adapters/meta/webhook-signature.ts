import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta's signature of a webhook (decisions §13): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body
 * with the app secret>`. Compared in constant time, over the bytes as they arrived, before anything parses them.
 */
export function isSignedByMeta(raw: Uint8Array, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** The signature header Meta would send for this body (the emulator and tests sign with it). */
export const metaSignature = (raw: Uint8Array | string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** Meta's verification handshake: the challenge back only for `subscribe` with the configured token. */
export function subscriptionChallenge(
  query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string },
  verifyToken: string,
): string | undefined {
  const given = Buffer.from(query['hub.verify_token'] ?? '');
  const wanted = Buffer.from(verifyToken);
  const tokenMatches = given.length === wanted.length && timingSafeEqual(given, wanted);
  if (query['hub.mode'] !== 'subscribe' || !tokenMatches || query['hub.challenge'] === undefined) return undefined;
  return query['hub.challenge'];
}
