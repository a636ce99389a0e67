import { describe, expect, it } from 'vitest';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { performanceResults } from '#lib/domain/sends/ab/variant-results.ts';
import type { TemplateAnalytics, TemplateDay } from '#lib/domain/templates/template-analytics.ts';
import { callerOf, memoryWorld } from '../../../support/memory/world.ts';

/**
 * A test's figures (decisions §33): each variant's from the send's performance aggregates (what its jobs, the
 * status path and the inbound path counted under its variant), clicks from Meta's template analytics of the
 * variant's template on the send's days; none kept yet, no clicks (no data rather than 0).
 */
const acme = callerOf(7);
const NOW = '2026-11-29T10:00:00.000Z';

async function abSendOf(world: ReturnType<typeof memoryWorld>) {
  await sendTemplate({ ...world, now: () => NOW }, acme, {
    pathDid: '5215550001',
    sendId: 'ab-1',
    body: {
      did: '5215550001',
      type: 'template',
      channel: 'MSGCHAN',
      variants: [
        { template: 'order_update', language: 'en_US', weight: 1 },
        { template: 'order_update', language: 'es', weight: 1 },
      ],
      recipients: [{ to: '5215551000', params: { body: ['x'] } }],
    } as never,
  });
}

const day = (template_id: string, clicks: number): TemplateDay => ({
  template_id,
  day: '2026-11-29',
  waba_id: '100200300',
  read_at: NOW,
  sent: 10,
  delivered: 10,
  read: 5,
  clicked: [
    { type: 'url_button', button: 'Shop', count: clicks },
    { type: 'unique_url_button', button: 'Shop', count: 1 },
  ],
});

describe('a test’s figures per variant (decisions §33)', () => {
  it('reads each variant’s counts from the send’s aggregates, by the variant its jobs counted them under', async () => {
    // Prepare: the figures the dispatcher, statuses and replies added, as the count shards keep them
    const world = memoryWorld();
    await abSendOf(world);
    world.sendTable.addFigures(
      'ab-1',
      [
        { variant: 0, day: '2026-11-29', figure: 'sent', n: 40 },
        { variant: 0, day: '2026-11-29', figure: 'delivered', n: 38 },
        { variant: 1, day: '2026-11-29', figure: 'delivered', n: 35 },
        { variant: 1, day: '2026-11-29', figure: 'read', n: 20 },
        { variant: 1, day: '2026-11-30', figure: 'replied', n: 4 },
      ],
      () => undefined,
    );
    // Act
    const figures = await performanceResults({ performances: world.performances, now: () => NOW }).figuresOf('ab-1', 2);
    // Assess
    expect(figures).toEqual([
      { variant: 0, sent: 40, delivered: 38, read: 0, replied: 0 },
      { variant: 1, sent: 0, delivered: 35, read: 20, replied: 4 },
    ]);
  });

  it('takes clicks from Meta’s template analytics of each variant’s template, none where it kept no day yet', async () => {
    // Prepare: analytics of 9001 (order_update en_US) only
    const world = memoryWorld();
    await abSendOf(world);
    const asked: unknown[] = [];
    const analytics: TemplateAnalytics = {
      templateDays: async (clientId, query) => {
        asked.push({ clientId, ...query });
        return query.templateId === '9001' ? [day('9001', 7)] : [];
      },
    };
    // Act
    const figures = await performanceResults({ performances: world.performances, analytics, now: () => NOW }).figuresOf('ab-1', 2);
    // Assess
    expect(figures.map((f) => f.clicked)).toEqual([7, undefined]);
    expect(asked).toEqual([
      { clientId: 7, from: '2026-11-28', to: '2026-11-30', templateId: '9001' },
      { clientId: 7, from: '2026-11-28', to: '2026-11-30', templateId: '9002' },
    ]);
  });
});
