import { describe, expect, it } from 'vitest';
import { callerFromClaims } from '#lib/auth/caller.ts';
import { actingClient, templateListingClient } from '#lib/domain/tenancy.ts';

describe('claims to caller', () => {
  it('reads real arrays from a verified token', () => {
    const caller = callerFromClaims({ sub: 'a', client_id: 7, permissions: ['BSP_CN'], campaigns: [1, 2], role: 'agent' });
    expect(caller).toEqual({ sub: 'a', clientId: 7, permissions: ['BSP_CN'], campaigns: [1, 2], role: 'agent', isBsp: true });
  });

  it('reads API Gateway’s flattened claims ("[a b]" strings, numeric string client_id)', () => {
    const caller = callerFromClaims({ sub: 'a', client_id: '7', permissions: '[BSP_CN other]', campaigns: '[31 32]' });
    expect(caller).toMatchObject({ clientId: 7, permissions: ['BSP_CN', 'other'], campaigns: [31, 32], isBsp: true });
  });

  it.each([{ client_id: 'x' }, { client_id: 0 }, {}, { client_id: 7, sub: '' }])('refuses claims %o', (claims) => {
    expect(callerFromClaims({ sub: 'a', ...claims })).toBeNull();
  });
});

describe('tenancy', () => {
  const agent = { sub: 'a', clientId: 7, permissions: [], campaigns: [31], isBsp: false };
  const bsp = { ...agent, permissions: ['BSP_CN'], campaigns: [], isBsp: true };

  it('defaults to the token client and lets BSP_CN act for others', () => {
    expect(actingClient(agent)).toBe(7);
    expect(actingClient(agent, 7)).toBe(7);
    expect(actingClient(bsp, 9)).toBe(9);
    expect(() => actingClient(agent, 9)).toThrow('BSP_CN permission required for cross-client access');
  });

  it('applies the template listing rules in order', () => {
    expect(() => templateListingClient(bsp, undefined)).toThrow('client_id is required');
    expect(() => templateListingClient({ ...agent, campaigns: [] }, undefined)).toThrow('agent without campaigns');
    expect(() => templateListingClient(agent, 8)).toThrow('BSP_CN permission required for cross-client access');
    expect(templateListingClient(bsp, 9)).toBe(9);
    expect(templateListingClient(agent, undefined)).toBe(7);
  });
});
