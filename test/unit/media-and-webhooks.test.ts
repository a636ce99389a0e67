import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { BLOCKED_MEDIA_URL, resolveMediaHandle, type MediaPorts } from '#lib/domain/media.ts';
import { deliverEvent, DeliveryFailed, retryDelaySeconds } from '#lib/domain/webhook-delivery.ts';
import type { WebhookConfig } from '#lib/domain/webhook.ts';
import { standardWebhookSender } from '#lib/adapters/https/webhook-transport.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';

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

describe('webhook delivery', () => {
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
  } as unknown as ServiceEvent;

  it('signs the Standard Webhooks way, so a receiver holding the secret verifies it', async () => {
    let seen: { headers: Record<string, string>; body: string } | undefined;
    const outcome = await deliverEvent(
      {
        configs: { get: async () => config(), put: async () => config() },
        sender: standardWebhookSender(async (_u, headers, body) => {
          seen = { headers, body };
          return 204;
        }),
      },
      event,
    );
    expect(outcome).toBe('delivered');
    expect(seen!.headers['webhook-id']).toBe('evt-1');
    expect(new Webhook(secret).verify(seen!.body, seen!.headers)).toEqual(JSON.parse(seen!.body));
  });

  it('sends nothing without a configuration or when it is inactive', async () => {
    const post = vi.fn(async () => 200);
    expect(
      await deliverEvent({ configs: { get: async () => null, put: async () => config() }, sender: standardWebhookSender(post) }, event),
    ).toBe('no_configuration');
    expect(
      await deliverEvent(
        { configs: { get: async () => config({ active: false }), put: async () => config() }, sender: standardWebhookSender(post) },
        event,
      ),
    ).toBe('inactive');
    expect(post).not.toHaveBeenCalled();
  });

  it('fails (to be retried) on a non-2xx answer or a network error', async () => {
    const configs = { get: async () => config(), put: async () => config() };
    await expect(deliverEvent({ configs, sender: standardWebhookSender(async () => 500) }, event)).rejects.toBeInstanceOf(DeliveryFailed);
    await expect(
      deliverEvent(
        {
          configs,
          sender: standardWebhookSender(async () => {
            throw new Error('ECONNREFUSED');
          }),
        },
        event,
      ),
    ).rejects.toBeInstanceOf(DeliveryFailed);
  });

  it('backs off so that the queue’s 20 receives span more than 24 hours', () => {
    const total = Array.from({ length: 19 }, (_, i) => retryDelaySeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3600);
    expect(retryDelaySeconds(1)).toBe(30);
  });
});
