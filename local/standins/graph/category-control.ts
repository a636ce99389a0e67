import type { EmulatedTemplate, GraphModel } from './model.ts';
import type { MetaNotifier } from './notifier.ts';

type Answer = { status: number; body: unknown };

/** What the category endpoints read and change: the model's templates and Meta's webhooks. */
interface CategoryContext {
  model: GraphModel;
  notifier?: MetaNotifier;
  onChange?: () => Promise<void> | void;
}

const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
const DAY_SECONDS = 24 * 3600;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A template the emulator changes the category of, with its pending change while one is announced. */
type ChangingTemplate = EmulatedTemplate & { correct_category?: string; category_update_timestamp?: number };

/**
 * The emulator's control endpoints of Meta's category changes (docs/platform-2027.md §3): announce one
 * (`POST /_emulator/templates/{id}/category {"correct_category", "at"?, "complete_after_seconds"?}`: the impending
 * `template_category_update`, the template's category unchanged) and complete it (`POST …/category/complete
 * {"new_category"?}`: the category moves, with the completed `template_category_update`). Undefined when the
 * path is not one of them.
 */
export function categoryControl(ctx: CategoryContext, method: string, path: string, body: Record<string, unknown>): Answer | undefined {
  const match = method === 'POST' ? /^\/_emulator\/templates\/([^/]+)\/category(\/complete)?$/.exec(path) : null;
  if (!match) return undefined;
  const found = ctx.model.findTemplate(decodeURIComponent(match[1]));
  if (!found) return { status: 404, body: { error: 'no such template' } };
  if (!ctx.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
  const change = { ctx, wabaId: found.waba.id, template: found.template as ChangingTemplate };
  return match[2] ? completeChange(change, body) : announceChange(change, body);
}

interface Change {
  ctx: CategoryContext;
  wabaId: string;
  template: ChangingTemplate;
}

const namesOf = (t: EmulatedTemplate) => ({
  message_template_id: Number(t.id),
  message_template_name: t.name,
  message_template_language: t.language,
});

/** Meta announces the template becomes `correct_category` at `at` (epoch seconds; in 24 hours unless told). */
function announceChange({ ctx, wabaId, template }: Change, body: Record<string, unknown>): Answer {
  const correct = String(body.correct_category ?? '').toUpperCase();
  const at = body.at === undefined ? nowSeconds() + DAY_SECONDS : Number(body.at);
  const after = body.complete_after_seconds === undefined ? undefined : Number(body.complete_after_seconds);
  if (!CATEGORIES.includes(correct)) return { status: 400, body: { error: `correct_category must be one of ${CATEGORIES.join(', ')}` } };
  if (!Number.isSafeInteger(at) || at < 1) return { status: 400, body: { error: 'at must be epoch seconds' } };
  if (after !== undefined && !(after >= 0)) return { status: 400, body: { error: 'complete_after_seconds must be ≥ 0' } };
  template.correct_category = correct;
  template.category_update_timestamp = at;
  void ctx.onChange?.();
  ctx.notifier?.notify(wabaId, 'template_category_update', {
    ...namesOf(template),
    new_category: template.category,
    correct_category: correct,
    category_update_timestamp: at,
  });
  if (after !== undefined) {
    const timer = setTimeout(() => {
      if (template.correct_category === correct) completeChange({ ctx, wabaId, template }, {});
    }, after * 1000);
    timer.unref();
  }
  return { status: 200, body: { id: template.id, category: template.category, correct_category: correct, category_update_timestamp: at } };
}

/** Meta makes the change: the announced category, or `new_category` when given (a manual change). */
function completeChange({ ctx, wabaId, template }: Change, body: Record<string, unknown>): Answer {
  const next = String(body.new_category ?? template.correct_category ?? '').toUpperCase();
  if (!CATEGORIES.includes(next)) return { status: 409, body: { error: 'no change announced: give new_category' } };
  const previous = template.category;
  template.category = next;
  template.previous_category = previous;
  delete template.correct_category;
  delete template.category_update_timestamp;
  void ctx.onChange?.();
  ctx.notifier?.notify(wabaId, 'template_category_update', { ...namesOf(template), previous_category: previous, new_category: next });
  return { status: 200, body: { id: template.id, previous_category: previous, category: next } };
}
