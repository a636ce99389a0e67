import { readFileSync } from 'node:fs';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import type { DispatchJob, JobRecipient } from '#lib/domain/sends/dispatch-job.ts';
import type { MetaTemplate } from '#lib/domain/templates/template-record.ts';

/** The demo fixture's templates (fixtures/demo.json), as the dispatcher's unit tests send them. */
export const demoTemplates: MetaTemplate[] = JSON.parse(
  readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'),
).wabas.flatMap((w: { templates: MetaTemplate[] }) => w.templates);
export const demoTemplate = (name: string) => demoTemplates.find((t) => t.name === name)!;

const trackOrder = demoTemplate('track_order');

/** A recipient with the values track_order needs (a header, two body values, two buttons). */
export const recipient = (to: string): JobRecipient => ({ to, params: { header: ['h'], body: ['a', 'b'], buttons: ['p', 'c'] } });

/** A dispatch job of track_order from the demo's first number: one job of one send unless `extra` says otherwise. */
export function jobOf(recipients: JobRecipient[], extra: Partial<DispatchJob> = {}): DispatchJob {
  return {
    send_id: 'send-1',
    client_id: 7,
    did: '5215550001',
    waba_id: '100200300',
    phone_number_id: '110001',
    channel: 'MSGCHAN',
    template: {
      name: trackOrder.name,
      language: trackOrder.language,
      id: trackOrder.id,
      category: trackOrder.category,
      components: trackOrder.components,
    },
    total_contacts: recipients.length,
    job: 1,
    jobs: 1,
    first_index: 0,
    recipients,
    ...extra,
  };
}

/** track_order's template as a job carries it, filed under another category (a campaign's MARKETING, say). */
export const templateOf = (category: string) => ({ ...jobOf([]).template, category });

/** The send jobOf's jobs belong to (`send-1` of client 7, one job), begun `queuing` at `atMs` of `total` recipients. */
export const sendOfJobs = (total: number, atMs: number): SendRecord => ({
  send_id: 'send-1',
  client_id: 7,
  did: '5215550001',
  template: { name: 'track_order', language: 'en_US' },
  status: 'queuing',
  created_at: new Date(atMs).toISOString(),
  total,
  jobs: 1,
});
