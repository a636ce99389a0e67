import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { EMULATOR_TOKEN, GraphEmulator } from '../../../local/standins/graph/emulator.ts';

/**
 * The emulator's people answering a send's messages (`POST /_emulator/replies`, decisions §33): Meta's `messages`
 * webhook of a quick-reply button or a text, quoting the message it answers in `context` as Meta does.
 */
const fixture = () => parseDirectoryFile(JSON.parse(readFileSync(new URL('../../../fixtures/demo.json', import.meta.url), 'utf8')));
const people = ['5215551110001', '5215551110002', '5215551110003'];

async function request(emulator: GraphEmulator, method: string, path: string, body?: unknown) {
  const response = await emulator.fetch(`http://emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${EMULATOR_TOKEN}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** The demo's number sends `order_update` to each person as send `s1` (and one of another send). */
async function sent() {
  const emulator = new GraphEmulator(fixture());
  const notified: { wabaId: string; value: Record<string, any> }[] = [];
  emulator.notifier = {
    log: [],
    notify: (wabaId: string, _: string, value: Record<string, unknown>) => notified.push({ wabaId, value }),
  } as never;
  const ids: string[] = [];
  for (const [i, to] of [...people, '5215551119999'].entries()) {
    const answer = await request(emulator, 'POST', '/v24.0/110001/messages', {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }],
      },
      biz_opaque_callback_data: `tms2:${i < 3 ? 's1' : 's2'}:0:${i}`,
    });
    ids.push(answer.body.messages[0].id);
  }
  notified.length = 0;
  return { emulator, notified, ids };
}

describe('POST /_emulator/replies', () => {
  it('presses a quick-reply button on the send’s messages, quoting each, and writes texts with or without a quote', async () => {
    // Prepare
    const { emulator, notified, ids } = await sent();
    // Act
    const pressed = await request(emulator, 'POST', '/_emulator/replies', {
      send_id: 's1',
      count: 2,
      button: { payload: 'YES', text: 'Yes' },
    });
    const wrote = await request(emulator, 'POST', '/_emulator/replies', { send_id: 's1', to: [people[2]], text: 'hi', context: false });
    // Assess
    expect(pressed.status).toBe(200);
    expect(pressed.body.replies.map((r: { context_id: string }) => r.context_id)).toEqual([ids[0], ids[1]]);
    expect(notified).toHaveLength(3);
    const [first] = notified[0].value.messages;
    expect(notified[0].wabaId).toBe('100200300');
    expect(first).toMatchObject({ from: people[0], type: 'button', button: { payload: 'YES', text: 'Yes' }, context: { id: ids[0] } });
    expect(notified[0].value.metadata.phone_number_id).toBe('110001');
    expect(wrote.body.replies).toEqual([{ to: people[2], message_id: expect.any(String) }]);
    expect(notified[2].value.messages[0]).toMatchObject({ type: 'text', text: { body: 'hi' } });
    expect(notified[2].value.messages[0]).not.toHaveProperty('context');
  });

  it('refuses a request without a send, a button or text, or with a button that quotes nothing', async () => {
    // Prepare
    const { emulator } = await sent();
    // Act
    const answers = await Promise.all([
      request(emulator, 'POST', '/_emulator/replies', { count: 1, text: 'x' }),
      request(emulator, 'POST', '/_emulator/replies', { send_id: 's1' }),
      request(emulator, 'POST', '/_emulator/replies', { send_id: 's1', button: { payload: 'YES' }, context: false }),
      request(emulator, 'POST', '/_emulator/replies', { send_id: 's1', text: 'x', count: -1 }),
    ]);
    // Assess
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
  });
});
