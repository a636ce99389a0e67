import { describe, expect, it } from 'vitest';
import { call, expectErrorShape, token, tokens } from '../support/api.ts';

/**
 * Who sees what, at the edges (decisions §2, §32, issue 52 item 6), on the running local stack: every money and
 * people body refuses a field it does not know with the contract's 400, and a `permissions` claim counts only as
 * a flat list of strings. Each request names a client it may not change or one that does not exist, so nothing is
 * written whether the body is taken or not: the refusal is told apart by its status.
 */
const UNKNOWN = 999_999_999;
const ROUTES = [
  ['PUT', `/v1/clients/${UNKNOWN}/budget`, { monthly_amount: 10 }, tokens.bsp, 404],
  ['PUT', `/v1/clients/${UNKNOWN}/price-list`, { effective_from: '2099-01-01', currency: 'USD', markup_percent: 20 }, tokens.bsp, 404],
  ['POST', '/v1/suppressions', { phone: '+5215550000001', reason: 'asked by phone', client_id: 8 }, tokens.acme, 403],
] as const;

describe('money and people bodies with a field they do not know (decisions §2)', () => {
  it.each(ROUTES)('%s %s answers 400 naming the field, in the contract’s error shape', async (method, path, body, as, otherwise) => {
    // Prepare / Act
    const known = await call(method, path, { token: await as(), body });
    const unknown = await call(method, path, { token: await as(), body: { ...body, markup: 99 } });
    const several = await call(method, path, { token: await as(), body: { ...body, cost: 1, Client_Id: 7 } });
    // Assess: the known fields reach the use case; an unknown one never does
    expectErrorShape(known, otherwise);
    const refused = expectErrorShape(unknown, 400, 'validation_failed');
    expect(refused.details).toEqual([{ path: 'markup', message: 'Unknown field' }]);
    const details = expectErrorShape(several, 400, 'validation_failed').details ?? [];
    expect(details.length).toBeGreaterThan(0);
    for (const detail of details)
      expect([
        { path: 'cost', message: 'Unknown field' },
        { path: 'Client_Id', message: 'Unknown field' },
      ]).toContainEqual(detail);
  });
});

describe('a permissions claim that is no flat list of strings (decisions §32)', () => {
  /** Client 8's price lists: BSP_CN reads them, client 7's agent may not. */
  const readOther = async (permissions: unknown) =>
    call('GET', '/v1/clients/8/price-list', { token: await token({ clientId: 7, campaigns: [31], claims: { permissions } }) });

  it('makes no BSP_CN of [["BSP_CN"]], a bare "BSP_CN" or a list with junk in it', async () => {
    // Prepare / Act
    const flat = await readOther(['BSP_CN']);
    const nested = await readOther([['BSP_CN']]);
    const bare = await readOther('BSP_CN junk');
    const junk = await readOther(['BSP_CN', 5]);
    // Assess
    expect(flat.status).toBe(200);
    expectErrorShape(nested, 403, 'forbidden');
    expectErrorShape(bare, 403, 'forbidden');
    expectErrorShape(junk, 403, 'forbidden');
  });
});
