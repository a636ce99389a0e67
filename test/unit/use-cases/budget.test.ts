import { describe, expect, it } from 'vitest';
import { getBudget, setBudget } from '#lib/domain/money/budget.ts';
import { statusChange } from '#lib/domain/shared/message-status.ts';
import { Conflict, Forbidden, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/** Budgets (decisions §24) on in-memory adapters: who sets them, what a send reserves, refuses and gives back. */
const acme = callerOf(7);
const bsp = { ...callerOf(7), isBsp: true };
const NOW = '2026-11-25T10:00:00.000Z';

function budgetWorld() {
  const world = memoryWorld();
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const deps = { ...world, now: () => NOW };
  let n = 0;
  /** A send of `count` Mexican numbers (the card's Mexico market: 0.0085 USD each at UTILITY from 2026-10-01). */
  const send = (count: number, sendAt?: string) =>
    sendTemplate(deps, acme, {
      pathDid: '5215550001',
      sendId: `s-${n++}`,
      body: {
        did: '5215550001',
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'es' },
        ...(sendAt && { send_at: sendAt }),
        recipients: Array.from({ length: count }, (_, i) => ({
          to: `52155${n}${String(i).padStart(4, '0')}`,
          params: { body: Array.from({ length: variables }, () => 'v') },
        })),
      },
    });
  return { world, deps, send };
}

describe('a client’s budget (decisions §24)', () => {
  it('is set by BSP_CN only, and shows what the month reserved and what is left', async () => {
    // Prepare
    const { deps, send } = budgetWorld();
    // Act
    const byAgent = await setBudget(deps, acme, 7, { monthly_amount: 1 }).catch((e) => e);
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    await send(100);
    const shown = await getBudget(deps, acme, 7);
    // Assess
    expect(byAgent).toBeInstanceOf(Forbidden);
    expect(shown).toEqual({
      client_id: 7,
      monthly_amount: 1,
      currency: 'USD',
      month: '2026-11',
      spent: 0,
      reserved: 0.85,
      remaining: 0.15,
    });
  });

  it('refuses a send whose estimate exceeds what is left, with the figures, and reserves nothing for it', async () => {
    // Prepare
    const { deps, send } = budgetWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    await send(100);
    // Act
    const refused = await send(31).catch((e) => e);
    const shown = await getBudget(deps, acme, 7);
    // Assess
    expect(refused).toBeInstanceOf(Conflict);
    expect(refused).toMatchObject({ reason: 'budget_exceeded', figures: { remaining: 0.15, estimate: 0.2635 } });
    expect(shown.reserved).toBe(0.85);
  });

  it('warns a send that takes the month past 80 %, and not one below', async () => {
    // Prepare
    const { deps, send } = budgetWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    // Act
    const below = await send(90);
    const past = await send(10);
    // Assess
    expect(below.warnings).toBeUndefined();
    expect(past.warnings).toEqual([expect.objectContaining({ code: 'budget_80_percent' })]);
  });

  it('gives the reservation back when the send could not be queued', async () => {
    // Prepare
    const { world, deps, send } = budgetWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    world.queue.failing = true;
    // Act
    const failed = await send(100).catch((e) => e);
    const shown = await getBudget(deps, acme, 7);
    // Assess
    expect(failed).toBeInstanceOf(UpstreamUnavailable);
    expect(shown.reserved).toBe(0);
  });

  it('counts the month spent so far when a budget is set mid-month', async () => {
    // Prepare: 0.60 USD delivered this month before any budget (as the status path adds it)
    const { world, deps } = budgetWorld();
    world.budgets.move(7, '2026-11', { spent: 600_000 });
    // Act
    const shown = await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    // Assess
    expect(shown).toMatchObject({ spent: 0.6, reserved: 0, remaining: 0.4 });
  });

  it('reserves a scheduled send in the month it goes in', async () => {
    // Prepare
    const { world, deps, send } = budgetWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    // Act
    await send(10, '2026-12-01T09:00:00.000Z');
    // Assess
    expect(await world.budgets.month(7, '2026-12')).toMatchObject({ reserved: 85_000 });
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 0 });
  });

  it('settles a message once, at its first delivery or failure, whatever comes after (its reservation given back then)', async () => {
    // Prepare: a delivered message's charge
    const charge = { pricing: { category: 'utility', type: 'regular', billable: true }, market: 'Mexico', micros: 8_500, currency: 'USD' };
    // Act
    const delivered = statusChange({}, 'delivered', undefined, charge)!;
    const failed = statusChange({}, 'failed', { code: '131049', title: 'capped' })!;
    const deliveredAfterFailure = statusChange(failed.next, 'delivered', undefined, charge)!;
    const readAfterDelivery = statusChange(delivered.next, 'read')!;
    // Assess: each settles once, whatever comes after
    expect([delivered.settles, failed.settles, deliveredAfterFailure.settles, readAfterDelivery.settles]).toEqual([
      true,
      true,
      undefined,
      undefined,
    ]);
  });
});
