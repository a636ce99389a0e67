import type { WebhookConfigStore } from '#lib/domain/webhooks/ports.ts';
import type { WebhookConfig } from '#lib/domain/webhooks/webhook.ts';
import { copy } from '../copy.ts';

export class MemoryWebhookConfigStore implements WebhookConfigStore {
  readonly configs = new Map<number, WebhookConfig>();

  async get(clientId: number) {
    return copy(this.configs.get(clientId) ?? null);
  }
  async put(config: Pick<WebhookConfig, 'client_id' | 'url' | 'active'>, newSecret: string) {
    const now = new Date().toISOString();
    const existing = this.configs.get(config.client_id);
    const saved: WebhookConfig = {
      ...existing,
      ...config,
      active: config.active ?? existing?.active ?? true,
      signing_secret: existing?.signing_secret ?? newSecret,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    this.configs.set(config.client_id, saved);
    return copy(saved);
  }
  async rotate(clientId: number, newSecret: string, previousUntil: string) {
    const existing = this.configs.get(clientId);
    if (!existing) return null;
    Object.assign(existing, {
      previous_secret: existing.signing_secret,
      previous_secret_expires_at: previousUntil,
      signing_secret: newSecret,
      updated_at: new Date().toISOString(),
    });
    return copy(existing);
  }
}
