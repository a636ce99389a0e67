import { assignmentSlot, type TemplateRecord, UNASSIGNED } from '#lib/domain/templates/template-record.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { campaignFacet } from './listing-items.ts';

/**
 * A template record as stored. gsi1 groups every record of one upstream template (siblings across clients,
 * for edits and sync); gsi2 lists a client's records in the listing's order (name, then language).
 */
export function recordItem(record: TemplateRecord): Record<string, unknown> {
  const t = record.meta_template;
  return {
    pk: keys.record(record.id),
    sk: SORT.record,
    entity: 'template_record',
    gsi1pk: keys.template(record.waba_id, t.id),
    gsi1sk: keys.recordOfClient(record.client_id, record.id),
    gsi2pk: keys.clientRecords(record.client_id),
    gsi2sk: keys.recordOrder(t.name, t.language, record.waba_id, t.id, record.id),
    ...record,
  };
}

/**
 * The uniqueness guard of an assignment: one item per (template, client, slot): a pair, half of one, or the
 * placeholder (PAIR#<channel>#<campaign>, `-` for a missing half; PAIR#UNASSIGNED). Written
 * in the same transaction as the record with `attribute_not_exists`, so two concurrent requests can never
 * give a client the same pair twice, or two placeholders.
 */
export function assignmentKey(record: TemplateRecord): { pk: string; sk: string } {
  const slot = assignmentSlot(record);
  const sk = slot === UNASSIGNED ? SORT.placeholder : keys.pair(slot);
  return { pk: keys.assignments(record.waba_id, record.meta_template.id, record.client_id), sk };
}

/** The key item; a holder of its template's campaign (listing-items.ts, campaignHolders) carries the facet. */
export function assignmentKeyItem(record: TemplateRecord, campaignHolder: boolean): Record<string, unknown> {
  return { ...assignmentKey(record), entity: 'assignment_key', record_id: record.id, ...campaignFacet(record, campaignHolder) };
}

/** The key of a record's (client, template): its version item's partition. */
export const aggregateKey = (r: TemplateRecord) => keys.assignments(r.waba_id, r.meta_template.id, r.client_id);

/** Records grouped by (client, template), by aggregateKey. */
export function byAggregate(records: TemplateRecord[]): Map<string, TemplateRecord[]> {
  const groups = new Map<string, TemplateRecord[]>();
  for (const record of records) groups.set(aggregateKey(record), [...(groups.get(aggregateKey(record)) ?? []), record]);
  return groups;
}
