import type { MessagePricing } from '#lib/domain/shared/message-status.ts';
import type { SentMessage } from './model.ts';
import type { EmulatedPeople } from './people.ts';

/** Statuses the emulator can report of a message, as Cloud API's `messages` webhook names them. */
export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * A status of one accepted message, as the `messages` field's value carries it, with the person's BSUID and the
 * field presence rules of upstream-facts §9.A4: contacts on sent, delivered and read only (the username not on
 * sent); `recipient_id` the number sent to, or omitted for a BSUID send whose number is not shared;
 * `recipient_user_id` always but on a failure of a send to a number.
 */
export function statusValue(
  message: SentMessage,
  status: MessageStatus,
  people: EmulatedPeople,
  error?: { code: number; title: string },
  pricing?: MessagePricing,
  /** The sending number's display digits, as Meta's metadata names it (its id where the model has none). */
  displayNumber = message.phone_number_id,
  /** When Meta says the status happened (its `timestamp`): now, unless a test names another time. */
  atMs = Date.now(),
) {
  const to = String(message.message.to ?? '').replace(/\D/g, '');
  const recipient = typeof message.message.recipient === 'string' ? message.message.recipient : undefined;
  const user = people.userOf(to ? { phone: to } : { user_id: recipient });
  const recipientId = to || (people.phoneShared(message.phone_number_id, user) ? user.phone : undefined);
  return {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: displayNumber, phone_number_id: message.phone_number_id },
    ...(status !== 'failed' && { contacts: [people.contactOf(message.phone_number_id, user, status !== 'sent')] }),
    statuses: [
      {
        id: message.id,
        status,
        timestamp: String(Math.floor(atMs / 1000)),
        ...(recipientId && { recipient_id: recipientId }),
        ...((status !== 'failed' || !to) && { recipient_user_id: user.user_id }),
        ...(typeof message.message.biz_opaque_callback_data === 'string' && {
          biz_opaque_callback_data: message.message.biz_opaque_callback_data,
        }),
        ...(error && { errors: [{ code: error.code, title: error.title, message: error.title }] }),
        // Meta prices every status but a failure (upstream-facts §8).
        ...(pricing && status !== 'failed' && { pricing: { ...pricing, pricing_model: 'PMP' } }),
      },
    ],
  };
}
