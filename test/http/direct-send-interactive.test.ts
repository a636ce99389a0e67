import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, queuedBy } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Direct Send beyond text (issue 55, docs/platform-2027.md §2): what Meta's Direct Send takes of Cloud API's
 * free-form messages, interactive reply buttons and a call-to-action URL, with a text, image, video or document
 * header, through the stack to the emulator (client 692). A standalone image is not Direct Send's: refused with a
 * 400 naming the field, nothing queued.
 */
const client = new OwnClient(692);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');

const send = async (message: Record<string, unknown>, count = 1) =>
  call('POST', `/v1/template/messages/${client.did}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      category: 'UTILITY',
      message,
      recipients: Array.from({ length: count }, (_, i) => ({ to: `52155${run}${String(i).padStart(3, '0')}` })),
    },
  });
const sentOf = async (sendTo: string) =>
  (
    (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { message: Record<string, any>; direct_template?: string }[]
  ).filter((m) => m.message.to === sendTo);

const buttons = {
  type: 'interactive',
  interactive: {
    type: 'button',
    header: { type: 'image', image: { link: 'https://cdn.example.com/parcel.png' } },
    body: { text: `Your parcel ${run} is at the pickup point. When will you come?` },
    footer: { text: 'Reply to choose' },
    action: {
      buttons: [
        { type: 'reply', reply: { id: 'today', title: 'Today' } },
        { type: 'reply', reply: { id: 'tomorrow', title: 'Tomorrow' } },
      ],
    },
  },
};
const ctaUrl = {
  type: 'interactive',
  interactive: {
    type: 'cta_url',
    header: { type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf', filename: 'invoice.pdf' } },
    body: { text: `Your invoice ${run} is ready.` },
    action: { name: 'cta_url', parameters: { display_text: 'Pay now', url: 'https://pay.example.com/invoice' } },
  },
};

beforeAll(async () => {
  await client.seed('Direct Send interactive', [demoTemplateAs('order_update', { id: 't692' })]);
  await emulator('POST', `wabas/${client.waba}/direct-send`, { enabled: true });
}, 60_000);

describe('Direct Send of interactive messages through the stack (issue 55)', () => {
  it.each([
    ['reply buttons under an image header', buttons, 3],
    ['a call-to-action URL under a document header', ctaUrl, 2],
  ])('sends %s: each reaches the emulator as Meta’s interactive message with category', async (_name, message, count) => {
    // Act
    const accepted = await send(message, count);
    // Assess
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await client.settled(accepted.body.send_id)).toMatchObject({ total: count, sent: count, failed: 0, pending: 0 });
    const first = await sentOf(`52155${run}000`);
    const last = first.at(-1)!;
    expect(last.message).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: `52155${run}000`,
      type: 'interactive',
      interactive: message.interactive,
      category: 'utility',
      biz_opaque_callback_data: expect.any(String),
    });
    expect(last.direct_template).toMatch(/^auto_generated_interactive_/);
  });

  it.each([
    ['a standalone image', { type: 'image', image: { link: 'https://cdn.example.com/a.png' } }, 'message.type'],
    [
      'a video header without its link',
      { ...buttons, interactive: { ...buttons.interactive, header: { type: 'video', video: {} } } },
      'message.interactive.header.video.link',
    ],
    ['a list message', { ...buttons, interactive: { ...buttons.interactive, type: 'list' } }, 'message.interactive.type'],
  ])('refuses %s with a 400 naming %s, nothing queued', async (_name, message, path) => {
    // Act
    const refused = await send(message);
    // Assess
    expect(expectErrorShape(refused, 400).details).toEqual([expect.objectContaining({ path })]);
    expect(await queuedBy(refused)).toEqual([]);
  });
});
