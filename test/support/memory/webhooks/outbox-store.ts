import type { OutboxStore } from '#lib/domain/webhooks/ports.ts';
import { copy } from '../copy.ts';
import type { MemoryTemplateTable } from '../templates/template-table.ts';

export class MemoryOutboxStore implements OutboxStore {
  constructor(private readonly templates: Pick<MemoryTemplateTable, 'outbox'>) {}

  async pending(olderThanIso: string, limit: number) {
    return [...this.templates.outbox.values()]
      .filter((e) => e.occurred_at < olderThanIso)
      .sort((a, b) => (a.occurred_at < b.occurred_at ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }
  async remove(ids: string[]) {
    for (const id of ids) this.templates.outbox.delete(id);
  }
}
