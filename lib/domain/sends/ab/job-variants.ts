import type { DispatchJob, RecipientParams } from '../dispatch-job.ts';

/**
 * An A/B send's jobs (decisions §33): each sends one variant, its template with the variant's own values in place
 * of the recipient's, part by part (docs/ab-sends.md). A test-first send's rest is held with every variant until
 * the test is decided; its release makes the winner the job's own. Pure.
 */

/** The recipient's values with the variant's parts in place of theirs. */
export const valuesFor = (recipient: RecipientParams | undefined, variant: RecipientParams | undefined) =>
  variant ? { ...recipient, ...variant } : recipient;

/** A held rest job as its test's winner sends it: the winner's template, place and values; the variants gone. */
export function decidedJob(job: DispatchJob, winner: number): DispatchJob {
  const { variants, variant_params: _params, ...rest } = job;
  const chosen = variants?.[winner];
  if (!chosen) return { ...rest, variant: winner };
  return { ...rest, template: chosen.template, variant: winner, ...(chosen.params && { variant_params: chosen.params }) };
}
