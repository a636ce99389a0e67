import { beforeAll, describe, expect, it } from 'vitest';
import { settingDefault } from '#lib/config.ts';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * The Graph API version (issue 55 item 7) on the running local stack, which sets no GRAPH_API_VERSION: a send
 * goes out at the default version, v24.0, and the emulator's send response at that version parses into the
 * recipient's message id. Client 683.
 */
const client = new OwnClient(683);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');

beforeAll(() => client.seed('Graph version', [demoTemplateAs('order_update', { id: 't683' })]), 60_000);

describe('the Graph API version on the local stack (issue 55)', () => {
  it('sends at the default version, v24.0, and takes the message id from the emulator’s answer', async () => {
    // Prepare
    const to = `52${run}0001`;
    // Act
    const accepted = await client.send('order_update', [to]);
    const settled = await client.settled(accepted.body.send_id);
    // Assess: the message reached the emulator at v24.0, and its id is the one the send's recipient holds
    expect(settingDefault('GRAPH_API_VERSION')).toBe('v24.0');
    expect(settled).toMatchObject({ sent: 1, failed: 0, pending: 0 });
    const { calls } = await emulator('GET', `calls?path=/${client.numberId}/messages`);
    const mine = (calls as { method: string; path: string; body?: { to?: string } }[]).filter((c) => c.body?.to === to);
    expect(mine.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /v24.0/${client.numberId}/messages`]);
    const { sent } = await emulator('GET', `sent?phone_number_id=${client.numberId}&to=${to}`);
    const rows = await call('GET', `/v1/sends/${accepted.body.send_id}/recipients`, { token: await client.token() });
    expect(rows.body.data.map((r: { message_id?: string }) => r.message_id)).toEqual([sent[0].id]);
  });
});
