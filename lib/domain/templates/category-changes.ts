import type { EventType } from '../webhooks/events.ts';
import type { CategoryChange } from './template-record.ts';

/**
 * Meta's category changes of a template (`template_category_update`, decisions §34, docs/platform-2027.md §3):
 * an impending change (`correct_category`, the category it becomes, and `category_update_timestamp`, when) and
 * the completed one (`previous_category` → `new_category`). Both are kept on the template's records and told to
 * the client's webhook; only the completed one moves the category a send routes by.
 */
export interface CategoryNotification {
  kind: 'template_category';
  waba_id: string;
  template_id: string;
  /** Meta's entry time, epoch ms. */
  at: number;
  /** The category now: the new one of a completed change, the current one of an announced change. */
  new_category: string;
  /** Present when the change is done; absent when Meta only announces it (then `correct_category` is). */
  previous_category?: string;
  correct_category?: string;
  /** When an announced change happens (Meta's `category_update_timestamp`), epoch ms. */
  takes_effect_at?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The records' category change after the notification: a completed change replaces the one announced (and any
 * earlier completed one); an announcement keeps the last completed change beside it. A notification that is
 * neither leaves it as held.
 */
export function categoryChangeOf(held: CategoryChange | undefined, n: CategoryNotification): CategoryChange | undefined {
  if (n.previous_category !== undefined)
    return { completed: { previous_category: n.previous_category, new_category: n.new_category, at: iso(n.at) } };
  if (n.correct_category === undefined) return held;
  return {
    ...(held?.completed && { completed: held.completed }),
    impending: {
      category: n.new_category,
      correct_category: n.correct_category,
      ...(n.takes_effect_at !== undefined && { takes_effect_at: iso(n.takes_effect_at) }),
      announced_at: iso(n.at),
    },
  };
}

/** The client's event of a category notification: `template.category_changed` when done, else `…_changing`. */
export const categoryEventOf = (n: CategoryNotification): EventType =>
  n.previous_category !== undefined ? 'template.category_changed' : 'template.category_changing';

/** Whether two category changes say the same (the records took this news already). */
export const sameCategoryChange = (a: CategoryChange | undefined, b: CategoryChange | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
