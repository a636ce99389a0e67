import { describe, expect, it } from 'vitest';
import type { WebhookConfigStore } from '#lib/domain/webhooks/ports.ts';
import type { ThroughputStore } from '#lib/domain/sends/dispatch/ports.ts';
import type { MarketingOnboardings } from '#lib/domain/sends/ports.ts';

/**
 * The contracts of what a client or a number is configured with (a webhook, a throughput level), run on the
 * in-memory stores (test/unit/) and the DynamoDB adapters (test/http/). Clients and numbers are each test's own.
 */
const unique = () => 700_000 + Math.floor(Math.random() * 1_000_000_000);

export function webhookConfigStoreContract(name: string, makeStore: () => WebhookConfigStore | Promise<WebhookConfigStore>) {
  describe(`${name}: the webhook configuration contract`, () => {
    it('keeps the first signing secret through later writes, and rotates it keeping the previous one until a time', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      // Act
      const first = await store.put({ client_id: client, url: 'https://a.example.com/hook', active: true }, 'secret-1');
      const second = await store.put({ client_id: client, url: 'https://b.example.com/hook', active: false }, 'secret-2');
      const rotated = await store.rotate(client, 'secret-3', '2026-11-27T00:00:00.000Z');
      const none = await store.rotate(client + 1, 'secret-4', '2026-11-27T00:00:00.000Z');
      // Assess
      expect(first).toMatchObject({ client_id: client, url: 'https://a.example.com/hook', active: true, signing_secret: 'secret-1' });
      expect(second).toMatchObject({ url: 'https://b.example.com/hook', active: false, signing_secret: 'secret-1' });
      expect(rotated).toMatchObject({
        signing_secret: 'secret-3',
        previous_secret: 'secret-1',
        previous_secret_expires_at: '2026-11-27T00:00:00.000Z',
      });
      expect(await store.get(client)).toMatchObject({ signing_secret: 'secret-3', url: 'https://b.example.com/hook' });
      expect(none).toBeNull();
      expect(await store.get(client + 1)).toBeNull();
    });
  });
}

export function throughputStoreContract(name: string, makeStore: () => ThroughputStore | Promise<ThroughputStore>) {
  describe(`${name}: the throughput level contract`, () => {
    it('keeps a number’s level as last learned, and forgets it when told', async () => {
      // Prepare
      const store = await makeStore();
      const number = String(unique());
      // Act
      const before = await store.get(number);
      await store.put(number, { level: 'STANDARD', checkedAtMs: 1_000 });
      await store.put(number, { level: 'HIGH', checkedAtMs: 2_000 });
      const learned = await store.get(number);
      await store.forget(number);
      // Assess
      expect(before).toBeUndefined();
      expect(learned).toEqual({ level: 'HIGH', checkedAtMs: 2_000 });
      expect(await store.get(number)).toBeUndefined();
    });
  });
}

export function marketingOnboardingsContract(name: string, makeStore: () => MarketingOnboardings | Promise<MarketingOnboardings>) {
  describe(`${name}: the Marketing Messages API onboarding contract (decisions §28)`, () => {
    it('keeps a WABA’s onboarding as last learned, with its source and time; a WABA never seen has none', async () => {
      // Prepare
      const store = await makeStore();
      const waba = `w-mm-${unique()}`;
      // Act
      const before = await store.get(waba);
      await store.put(waba, { onboarded: false, source: 'graph', at: '2026-11-27T00:00:00.000Z' });
      const eligible = await store.get(waba);
      await store.put(waba, { onboarded: true, source: 'webhook', at: '2026-11-27T01:00:00.000Z' });
      // Assess
      expect(before).toBeNull();
      expect(eligible).toEqual({ onboarded: false, source: 'graph', at: '2026-11-27T00:00:00.000Z' });
      expect(await store.get(waba)).toEqual({ onboarded: true, source: 'webhook', at: '2026-11-27T01:00:00.000Z' });
    });
  });
}
