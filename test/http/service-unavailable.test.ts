import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * A service the request needs failing for its own sake (DynamoDB's InternalServerError on every write, injected by
 * the local server: `X-Local-DynamoDB-Fault: writes`) is a 502 `upstream_unavailable` in the contract's error
 * shape (decisions §2; the contract's "internal dispatch unreachable"), never a 500; nothing is half written, and
 * the same request goes through once the table answers.
 */
const client = new OwnClient(679);
const notice = demoTemplateAs('order_update', { id: '679001', name: 'outage_notice' });
const FAULT = { 'x-local-dynamodb-fault': 'writes' };

const sendBody = (to: string) => ({
  did: client.did,
  type: 'template',
  channel: 'MSGCHAN',
  template: { name: 'outage_notice', language: 'en_US' },
  recipients: [{ to, params: { body: ['A'] } }],
});
const sendsListed = async () => (await call('GET', '/v1/sends?size=50', { token: await client.token() })).body.total as number;

beforeAll(async () => {
  await client.seed('Outage', [notice]);
});

describe('a table that fails for its own sake (502, never 500)', () => {
  it('answers a send 502 upstream_unavailable with its request id, records nothing, and takes the same send once the table answers', async () => {
    // Prepare
    const before = await sendsListed();
    // Act
    const refused = await call('POST', `/v1/template/messages/${client.did}`, {
      token: await client.token(),
      body: sendBody('5215550679001'),
      headers: FAULT,
    });
    const listedAfterFault = await sendsListed();
    const accepted = await call('POST', `/v1/template/messages/${client.did}`, {
      token: await client.token(),
      body: sendBody('5215550679001'),
    });
    // Assess
    expect(refused.status).toBe(502);
    expect(refused.body).toEqual({
      code: 'upstream_unavailable',
      message: expect.stringContaining('try again'),
      request_id: refused.headers.get('x-request-id'),
    });
    expect(listedAfterFault).toBe(before);
    expect(accepted.status).toBe(200);
  });

  it('answers a budget write 502 upstream_unavailable, and the budget stays as it was', async () => {
    // Prepare
    const path = `/v1/clients/${client.clientId}/budget`;
    const { tokens } = await import('../support/api.ts');
    const bsp = await tokens.bsp();
    const before = await call('GET', path, { token: bsp });
    // Act
    const refused = await call('PUT', path, { token: bsp, body: { monthly_amount: 25 }, headers: FAULT });
    const after = await call('GET', path, { token: bsp });
    // Assess
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('upstream_unavailable');
    expect(after.body).toEqual(before.body);
  });
});
