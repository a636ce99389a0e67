import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { statusStreamKey } from '#lib/domain/shared/message-status.ts';

/**
 * The endpoint's changes as it hands them on (issue 54): a `messages` change of statuses becomes one change a
 * status, each with its partition key on the statuses' stream by its kind (statusStreamKey: Meta's `status`, the
 * reference the message carried back in `biz_opaque_callback_data`, its id); every other change as it was, queued.
 */
export function keyedStatuses(changes: NotifiedChange[]): NotifiedChange[] {
  return changes.flatMap((change) => {
    const value = change.value as { statuses?: unknown; messages?: unknown } | undefined;
    if (change.field !== 'messages' || !Array.isArray(value?.statuses) || value.messages !== undefined) return [change];
    return value.statuses.map((status: { status?: unknown; biz_opaque_callback_data?: unknown; id?: unknown } | undefined) => ({
      ...change,
      value: { ...value, statuses: [status] },
      stream_key: statusStreamKey(status?.status, status?.biz_opaque_callback_data, status?.id),
    }));
  });
}
