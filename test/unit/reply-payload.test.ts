import { describe, expect, it } from 'vitest';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';

/** A person's messages as Meta's `messages` webhook carries them (docs/template-analytics.md §2), read for replies (decisions §33). */
const change = (message: Record<string, unknown>) => ({
  waba_id: '100200300',
  at: 1_780_000_000_000,
  field: 'messages',
  value: {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5215550001', phone_number_id: 'p1' },
    messages: [{ from: '5215551110001', id: 'wamid.in', timestamp: '1780000000', ...message }],
  },
});

describe('a person’s message as a reply', () => {
  it('reads a quick-reply button with its payload, label and the message it answers', () => {
    // Prepare
    const pressed = change({ type: 'button', context: { from: '5215550001', id: 'wamid.out' }, button: { payload: 'YES_1', text: 'Yes' } });
    // Act
    const [message] = notificationsOf(pressed);
    // Assess
    expect(message).toEqual({
      kind: 'inbound_message',
      waba_id: '100200300',
      number_digits: '5215550001',
      from: '5215551110001',
      message_id: 'wamid.in',
      context_id: 'wamid.out',
      button: { payload: 'YES_1', text: 'Yes' },
      at: 1_780_000_000_000,
    });
  });

  it('reads a text’s context, leaves a forwarded one’s out, and reads no system or unsupported message', () => {
    // Prepare, Act
    const [quoting] = notificationsOf(change({ type: 'text', text: { body: 'ok' }, context: { id: 'wamid.out' } }));
    const [forwarded] = notificationsOf(change({ type: 'text', text: { body: 'fw' }, context: { forwarded: true } }));
    const unsupported = notificationsOf(change({ type: 'unsupported', errors: [{ code: 131051 }] }));
    const broken = notificationsOf(change({ type: 'button', button: 'not an object', context: 7 }));
    // Assess
    expect(quoting).toMatchObject({ text: 'ok', context_id: 'wamid.out' });
    expect(forwarded).toMatchObject({ text: 'fw' });
    expect(forwarded).not.toHaveProperty('context_id');
    expect(unsupported).toEqual([]);
    expect(broken).toEqual([expect.objectContaining({ kind: 'inbound_message', message_id: 'wamid.in' })]);
    expect(broken[0]).not.toHaveProperty('button');
  });
});
