import type { GraphUpstream } from './graph-upstream.ts';
import type { MessageAnswer, MessageRoute, MessageUpstream } from '#lib/domain/sends/dispatch/ports.ts';
import type { GraphClient, GraphErrorBody } from './graph-client.ts';
import { DIRECT_SEND_ERRORS } from '#lib/domain/sends/direct-send.ts';

/**
 * Graph's codes that mean "not now" rather than "not this message" (upstream-facts §6.2): throughput and rate
 * limits, and the upstream's own faults. Everything else refuses the message for good.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056]);

/** Cloud API sends (`POST /{phone_number_id}/messages`, upstream-facts §1.9) as the domain's message answers. */
export class GraphMessages implements MessageUpstream {
  constructor(
    private readonly graph: GraphClient,
    private readonly lookups: Pick<GraphUpstream, 'catalogsOf' | 'throughputOf'>,
  ) {}

  /** The reference travels as `biz_opaque_callback_data`, which Cloud API echoes in the message's status webhooks. */
  async sendMessage(
    phoneNumberId: string,
    message: Record<string, unknown>,
    reference: string,
    route?: MessageRoute,
  ): Promise<MessageAnswer> {
    // The Marketing Messages API (upstream-facts §9.B) takes the same body, and falls back to the Cloud API
    // where the WABA's terms are not signed (CLOUD_API_FALLBACK, Meta's default, said so).
    const answer =
      route?.api === 'mm'
        ? await this.graph.exchange(`${phoneNumberId}/marketing_messages`, {
            ...message,
            product_policy: 'CLOUD_API_FALLBACK',
            biz_opaque_callback_data: reference,
          })
        : await this.graph.exchange(`${phoneNumberId}/messages`, { ...message, biz_opaque_callback_data: reference });
    if ('failure' in answer) {
      return answer.failure === 'network'
        ? { kind: 'refused', code: 'network', title: 'The upstream could not be reached', retryable: true }
        : { kind: 'unknown' };
    }
    const body = answer.body as { messages?: { id?: unknown; message_status?: unknown }[]; error?: GraphErrorBody } | undefined;
    const messageId = body?.messages?.[0]?.id;
    if (answer.status >= 200 && answer.status < 300 && typeof messageId === 'string')
      return {
        kind: 'accepted',
        message_id: messageId,
        // Meta holds a new or low-quality template's message to assess it (upstream-facts §8).
        ...(body?.messages?.[0]?.message_status === 'held_for_quality_assessment' && { held: true as const }),
      };
    const code = body?.error?.code;
    const retryable = answer.status === 429 || answer.status >= 500 || (code !== undefined && RETRYABLE_CODES.has(code));
    return {
      kind: 'refused',
      code: code === undefined ? `http_${answer.status}` : String(code),
      // Graph's title for a person, without its trace id or our token (neither is ever in these fields).
      title:
        (code !== undefined && DIRECT_SEND_ERRORS[String(code)]?.title) ||
        body?.error?.error_user_title ||
        body?.error?.message?.replace(/^\(#\d+\)\s*/, '') ||
        `Upstream answered ${answer.status}`,
      retryable,
    };
  }

  async catalogOf(wabaId: string) {
    return (await this.lookups.catalogsOf(wabaId))[0]?.id;
  }

  throughputOf(phoneNumberId: string) {
    return this.lookups.throughputOf(phoneNumberId);
  }
}
