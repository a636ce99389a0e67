import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { BLOCKED_MEDIA_URL, resolveMediaHandle, type MediaPorts } from '#lib/domain/templates/media.ts';
import { deliverEvent, isLocalReceiver, retryDelaySeconds } from '#lib/domain/webhooks/webhook-delivery.ts';
import type { WebhookConfig } from '#lib/domain/webhooks/webhook.ts';
import { type HttpsPost, standardWebhookSender } from '#lib/adapters/https/webhook-transport.ts';
import { MemoryDeliveryLog } from '../support/memory/webhooks/webhook-delivery-log.ts';
import { MemoryWebhookConfigStore } from '../support/memory/webhooks/webhook-config-store.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';

const ports = (overrides: Partial<MediaPorts> = {}): MediaPorts => ({
  resolve: async () => ['93.184.216.34'],
  download: vi.fn(async () => ({ bytes: new Uint8Array([1, 2]), contentType: 'image/png' })),
  upload: vi.fn(async () => '4::handle'),
  ...overrides,
});
const imageHeader = { format: 'IMAGE', isMedia: true, hasHandle: false };

describe('media header sources', () => {
  it('downloads a public header_source and uploads it for a handle', async () => {
    const p = ports();
    expect(await resolveMediaHandle(p, { header_source: 'https://cdn.example.com/banner.png' }, imageHeader)).toBe('4::handle');
    expect(p.upload).toHaveBeenCalledWith({ name: 'banner.png', type: 'image/png', bytes: new Uint8Array([1, 2]) });
  });

  it('makes no request at all to a blocked URL, whatever its spelling', async () => {
    for (const url of ['http://cdn.example.com/a.png', 'https://2130706433/a.png', 'https://[::ffff:169.254.169.254]/']) {
      const p = ports();
      await expect(resolveMediaHandle(p, { header_source: url }, imageHeader)).rejects.toThrow(BLOCKED_MEDIA_URL);
      expect(p.download).not.toHaveBeenCalled();
    }
    const rebinding = ports({ resolve: async () => ['10.0.0.5'] });
    await expect(resolveMediaHandle(rebinding, { header_source: 'https://evil.example.com/a.png' }, imageHeader)).rejects.toThrow(
      BLOCKED_MEDIA_URL,
    );
    expect(rebinding.download).not.toHaveBeenCalled();
  });

  it('refuses downloaded media of the wrong type for the header', async () => {
    const p = ports({ download: async () => ({ bytes: new Uint8Array([1]), contentType: 'text/html' }) });
    await expect(resolveMediaHandle(p, { header_source: 'https://cdn.example.com/a.png' }, imageHeader)).rejects.toThrow('invalid media');
    expect(p.upload).not.toHaveBeenCalled();
  });

  it('needs no source when the header already carries a handle, and refuses a source for a text header', async () => {
    expect(await resolveMediaHandle(ports(), {}, { ...imageHeader, hasHandle: true })).toBeUndefined();
    await expect(resolveMediaHandle(ports(), { header_handle: 'x' }, { isMedia: false, hasHandle: false })).rejects.toThrow(
      'invalid media',
    );
  });
});

describe('webhook delivery (use case, in memory)', () => {
  const secret = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
  const config = (over: Partial<WebhookConfig> = {}): WebhookConfig => ({
    client_id: 9,
    url: 'https://hooks.example.com/in',
    active: true,
    signing_secret: secret,
    created_at: '',
    updated_at: '',
    ...over,
  });
  const event = {
    id: 'evt-1',
    type: 'template.created',
    occurred_at: '2026-11-21T00:00:00Z',
    client_id: 9,
    data: {},
    correlation_id: 'req-42',
  } as unknown as ServiceEvent;
  const attempt = (receive: number, now = new Date()) => ({ receive, maxReceives: 20, retryBaseSeconds: 30, now });
  const depsWith = (found: WebhookConfig | null, post: HttpsPost, local?: HttpsPost) => {
    const configs = new MemoryWebhookConfigStore();
    if (found) configs.configs.set(9, found);
    return { configs, log: new MemoryDeliveryLog(), sender: standardWebhookSender(post, local) };
  };

  it('signs the Standard Webhooks way with the event as decisions §6 shows it, and logs the delivery', async () => {
    // Prepare
    let seen: { headers: Record<string, string>; body: string } | undefined;
    const deps = depsWith(config(), async (_u, headers, body) => {
      seen = { headers, body };
      return 204;
    });
    // Act
    const result = await deliverEvent(deps, event, attempt(1));
    // Assess
    expect(result).toEqual({ outcome: 'delivered' });
    expect(seen!.headers['webhook-id']).toBe('evt-1');
    expect(seen!.headers['x-correlation-id']).toBe('req-42');
    expect(new Webhook(secret).verify(seen!.body, seen!.headers)).toEqual({
      id: 'evt-1',
      type: 'template.created',
      occurred_at: '2026-11-21T00:00:00Z',
      client_id: 9,
      data: {},
    });
    expect((await deps.log.get('evt-1'))?.delivery).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      delivered_at: expect.any(String),
    });
    expect(await deliverEvent(deps, event, attempt(2))).toEqual({ outcome: 'already_delivered' });
    // A replay reaching the worker before the log says pending is sent all the same
    expect(await deliverEvent(deps, event, { ...attempt(1), replay: true })).toEqual({ outcome: 'delivered' });
    expect((await deps.log.get('evt-1'))?.delivery.attempts).toBe(2);
  });

  it('signs with both secrets while a rotated-out one lasts, and with the new one only after', async () => {
    // Prepare
    const newer = `whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`;
    const seen: Record<string, string>[] = [];
    const rotated = config({ signing_secret: newer, previous_secret: secret, previous_secret_expires_at: '2026-11-23T10:00:00Z' });
    const deps = depsWith(rotated, async (_u, headers) => {
      seen.push(headers);
      return 200;
    });
    // Act
    await deliverEvent(deps, event, attempt(1, new Date('2026-11-22T10:00:00Z')));
    await deliverEvent(deps, { ...event, id: 'evt-2' }, attempt(1, new Date('2026-11-23T10:00:01Z')));
    // Assess
    expect(seen[0]['webhook-signature'].split(' ')).toHaveLength(2);
    expect(seen[1]['webhook-signature'].split(' ')).toHaveLength(1);
  });

  it('sends nothing without a configuration or when it is inactive, and logs it skipped', async () => {
    const post = vi.fn(async () => 200);
    const none = depsWith(null, post);
    const inactive = depsWith(config({ active: false }), post);
    expect(await deliverEvent(none, event, attempt(1))).toEqual({ outcome: 'skipped' });
    expect(await deliverEvent(inactive, event, attempt(1))).toEqual({ outcome: 'skipped' });
    expect((await inactive.log.get('evt-1'))?.delivery).toMatchObject({ status: 'skipped', attempts: 0 });
    expect(post).not.toHaveBeenCalled();
  });

  it('retries a non-2xx answer or a network error with backoff, then logs it failed on the last receive', async () => {
    // Prepare
    const deps = depsWith(config(), async () => 500);
    const down = depsWith(config(), async () => {
      throw new Error('ECONNREFUSED');
    });
    // Act
    const first = await deliverEvent(deps, event, attempt(1));
    const second = await deliverEvent(deps, event, attempt(2));
    const last = await deliverEvent(deps, event, attempt(20));
    const unreachable = await deliverEvent(down, event, attempt(1));
    // Assess
    expect(first).toEqual({ outcome: 'retry', afterSeconds: 30, reason: 'webhook answered 500' });
    expect(second).toMatchObject({ outcome: 'retry', afterSeconds: 60 });
    expect(last).toEqual({ outcome: 'failed', reason: 'webhook answered 500' });
    expect((await deps.log.get('evt-1'))?.delivery).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status_code: 500,
      last_error: 'webhook answered 500',
    });
    expect(unreachable).toMatchObject({ outcome: 'retry', reason: 'webhook not reachable: ECONNREFUSED' });
  });

  it('calls a local http://127.0.0.1 receiver only when local receivers are allowed', async () => {
    const local = vi.fn(async () => 200);
    const allowed = { ...depsWith(config({ url: 'http://127.0.0.1:4100/hook' }), async () => 200, local), allowLocalReceivers: true };
    const refused = depsWith(config({ url: 'http://127.0.0.1:4100/hook' }), async () => 200, local);
    expect(await deliverEvent(allowed, event, attempt(1))).toEqual({ outcome: 'delivered' });
    expect(await deliverEvent(refused, { ...event, id: 'evt-3' }, attempt(1))).toMatchObject({
      outcome: 'retry',
      reason: 'webhook URL refused: not_https',
    });
    expect(local).toHaveBeenCalledTimes(1);
  });

  it('backs off so that the queue’s 20 receives span more than 24 hours', () => {
    const total = Array.from({ length: 19 }, (_, i) => retryDelaySeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3600);
    expect(retryDelaySeconds(1)).toBe(30);
    expect(retryDelaySeconds(3, 1)).toBe(4);
  });

  it('accepts as local receivers only http://127.0.0.1 with a port (property: nothing else slips through)', () => {
    expect(isLocalReceiver('http://127.0.0.1:4100/hook')).toBe(true);
    for (const url of [
      'http://127.0.0.1/hook',
      'https://127.0.0.1:4100/',
      'http://localhost:4100/',
      'http://127.1:4100/',
      'http://u:p@127.0.0.1:1/',
      'http://10.0.0.1:80/',
    ])
      expect(isLocalReceiver(url), url).toBe(url === 'http://127.1:4100/');
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        if (isLocalReceiver(url)) expect(new URL(url).hostname).toBe('127.0.0.1');
      }),
    );
  });
});
