/**
 * The templates page's rows and the draft check, without a browser (issue 45): status, quality, pauses and
 * assignments per client from `GET /v1/templates`, and a draft's review warnings from a create's dry run
 * (decisions §18).
 */

import type { TemplateEntry } from '../answers.ts';

export interface TemplateRow {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  quality: string;
  active: boolean;
  /** Meta paused or disabled it for its quality: sends of it wait or stop (decisions §25). */
  paused: boolean;
  rejectedReason?: string;
  /** Meta's category changes in words (decisions §34): the one it announced, then the last one it made. */
  categoryNotes: string[];
  /** Each campaign with its channels, in words: `Sales: WA Sales (5215550001)`. */
  assignments: string[];
}

/** The fields the page asks the listing for (spec §8's `fields`). */
export const LISTING_FIELDS = 'id,client_id,active,waba_id,meta_template,channel_campaigns,category_change';

/** A time as the page says it: its day and minute, UTC. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Meta's announced and completed category changes, in words; none when it made or announced none. */
export function categoryNotes(change: TemplateEntry['category_change']): string[] {
  const notes: string[] = [];
  const { impending, completed } = change ?? {};
  if (impending)
    notes.push(
      `Meta will change it to ${impending.correct_category}${impending.takes_effect_at ? ` on ${when(impending.takes_effect_at)}` : ''}; its sends go as ${impending.category} until then.`,
    );
  if (completed) notes.push(`Meta changed it from ${completed.previous_category} to ${completed.new_category} on ${when(completed.at)}.`);
  return notes;
}

export function templateRow(entry: TemplateEntry): TemplateRow {
  const meta = entry.meta_template ?? {};
  const status = meta.status ?? 'UNKNOWN';
  return {
    id: entry.id,
    name: meta.name ?? '(no name)',
    language: meta.language ?? '',
    category: meta.category ?? '',
    status,
    quality: meta.quality_score?.score ?? 'UNKNOWN',
    active: entry.active === true,
    paused: status === 'PAUSED' || status === 'DISABLED',
    ...(meta.rejected_reason && { rejectedReason: meta.rejected_reason }),
    categoryNotes: categoryNotes(entry.category_change),
    assignments: (entry.channel_campaigns ?? []).map(
      (group) =>
        `${group.campaign_name ?? `Campaign ${group.campaign_id}`}: ${
          group.channels.map((c) => (c.name ? `${c.name} (${c.did ?? c.channel_id})` : String(c.did ?? c.channel_id))).join(', ') ||
          'no channel'
        }`,
    ),
  };
}

/** A draft as the check form holds it. */
export interface Draft {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  body: string;
  footer: string;
}

/** The example values a body's `{{n}}` placeholders need: one word a placeholder. */
export function bodyExamples(body: string): string[] {
  const numbers = [...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  const count = numbers.length > 0 ? Math.max(...numbers) : 0;
  return Array.from({ length: count }, (_, i) => `example${i + 1}`);
}

/** `POST /v1/templates/{did}?dry_run=true`'s body for a draft: its body and footer, examples filled in. */
export function draftBody(draft: Draft, clientId: number) {
  const examples = bodyExamples(draft.body);
  return {
    name: draft.name.trim(),
    language: draft.language.trim(),
    category: draft.category,
    client_id: clientId,
    components: [
      { type: 'BODY', text: draft.body, ...(examples.length > 0 && { example: { body_text: [examples] } }) },
      ...(draft.footer.trim() ? [{ type: 'FOOTER', text: draft.footer.trim() }] : []),
    ],
  };
}
