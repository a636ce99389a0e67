import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type KeptPause, type KeptPauseSpan, pauseAfter, pauseSummary, shownPause } from '#lib/domain/templates/pause-events.ts';
import type { PauseChange, TemplatePause, TemplatePauses } from '#lib/domain/templates/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/** Writes that lose a race read the item again; more than a few at once on one template is not expected. */
const ATTEMPTS = 5;
/**
 * A template never paused keeps its item only to order a late `PAUSED` after its resume: a week, past Meta's
 * retries of a webhook, so review approvals of templates never paused leave nothing behind. A template once
 * paused keeps its item (how many pauses it had sets the next one's length).
 */
const NEVER_PAUSED_KEPT_S = 7 * 86_400;

/**
 * Templates Meta paused or disabled (decisions §25): one item a template, read by the dispatcher at each slice
 * of a job of it, written by Meta's status events (compared by Meta's times), by a 132015 refusal and when a
 * pause's period is over. Each write is conditional on the item as read (`rev`), so two changes racing end as the
 * rules of lib/domain/templates/pause-events.ts say, whichever lands first.
 */
export class DynamoTemplatePauses implements TemplatePauses {
  constructor(private readonly table: ServiceTable) {}

  private key(wabaId: string, templateId: string) {
    return { pk: keys.templatePause(wabaId, templateId), sk: SORT.templatePause };
  }

  private async read(wabaId: string, templateId: string): Promise<{ kept: KeptPause | null; rev?: number; exists: boolean }> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(wabaId, templateId), ConsistentRead: true }),
    );
    if (!Item) return { kept: null, exists: false };
    const kept: KeptPause = {
      state: Item.state,
      ...(Item.since_ms !== undefined && { since_ms: Number(Item.since_ms) }),
      ...(Item.until_ms !== undefined && { until_ms: Number(Item.until_ms) }),
      pauses: Number(Item.pauses ?? 0),
      ...(Item.event_ms !== undefined && { event_ms: Number(Item.event_ms), event: Item.event }),
      ...(Array.isArray(Item.history) && { history: (Item.history as Record<string, unknown>[]).map(spanOf) }),
      ...(Item.disabled_by_count === true && { disabled_by_count: true as const }),
    };
    return { kept, ...(Item.rev !== undefined && { rev: Number(Item.rev) }), exists: true };
  }

  /** The change applied to the item as read, written only if no other write came between: the item after it. */
  private async apply(wabaId: string, templateId: string, change: PauseChange): Promise<KeptPause | null> {
    for (let attempt = 0; ; attempt++) {
      const { kept, rev, exists } = await this.read(wabaId, templateId);
      const next = pauseAfter(kept, change);
      if (!next) return kept;
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: {
              ...this.key(wabaId, templateId),
              ...next,
              rev: (rev ?? 0) + 1,
              entity: 'template_pause',
              ...(next.pauses === 0 && next.state === 'active' && { [TTL_ATTRIBUTE]: Math.ceil(Date.now() / 1000) + NEVER_PAUSED_KEPT_S }),
            },
            ConditionExpression: !exists ? 'attribute_not_exists(pk)' : rev === undefined ? 'attribute_not_exists(rev)' : 'rev = :rev',
            ...(rev !== undefined && { ExpressionAttributeValues: { ':rev': rev } }),
          }),
        );
        return next;
      } catch (error) {
        if (!isConditionalCheckFailure(error) || attempt + 1 >= ATTEMPTS) throw error;
      }
    }
  }

  async get(wabaId: string, templateId: string): Promise<TemplatePause | null> {
    return shownPause((await this.read(wabaId, templateId)).kept);
  }

  /** The first pause lasts 3 hours, the next 6 (Meta's periods): from `atMs`, unless a pause is in force. */
  async pause(wabaId: string, templateId: string, atMs: number) {
    return shownPause(await this.apply(wabaId, templateId, { kind: 'refusal', at_ms: atMs })) as TemplatePause;
  }

  async notified(wabaId: string, templateId: string, change: Extract<PauseChange, { kind: 'event' }>) {
    return shownPause(await this.apply(wabaId, templateId, change));
  }

  async resume(wabaId: string, templateId: string, nowMs: number) {
    await this.apply(wabaId, templateId, { kind: 'period_over', at_ms: nowMs });
  }

  async summary(wabaId: string, templateId: string) {
    return pauseSummary((await this.read(wabaId, templateId)).kept);
  }
}

const spanOf = (s: Record<string, unknown>): KeptPauseSpan => ({
  since_ms: Number(s.since_ms),
  until_ms: Number(s.until_ms),
  ...(s.pacing === true && { pacing: true as const }),
});
