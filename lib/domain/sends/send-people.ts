import { InvalidRequest } from '../shared/errors.ts';
import type { Person } from '../people/person.ts';
import type { IdentityMap } from '../people/ports.ts';
import type { MarketingOnboardings, MarketingUpstream } from './ports.ts';
import { isImpossibleNumber, regionOf } from '../money/pricing/region.ts';
import { upper } from '../shared/text.ts';
import { recipientDigits } from '../people/person.ts';
import { suppressedPeople } from '../people/suppression.ts';
import { BSUID_REFUSED, BSUID_REFUSED_TITLE, isBsuidOnly, refusesBsuid } from '../people/bsuid-refusals.ts';

/**
 * What a send does about people (decisions §28): recipients by number, by BSUID or both, the templates Meta
 * refuses for a BSUID, the US marketing pause, the pairs known to be one person, and which API a MARKETING send
 * goes through. Pure but for the reads its deps do.
 */

/** Meta's per-user marketing limit (upstream-facts §9.C): counted `capped`, apart from `failed`. */
export const CAPPED_CODE = '131049';

/** The problems of the recipients Meta would refuse (131062), by position: a dry run names them. */
export function bsuidRefusals(
  template: { category?: string; components: unknown[] },
  recipients: { index: number; to?: string; user_id?: string }[],
) {
  if (!refusesBsuid(template)) return [];
  return recipients.filter(isBsuidOnly).map((r) => ({
    index: r.index,
    path: `recipients[${r.index}].user_id`,
    message: `${BSUID_REFUSED}: ${BSUID_REFUSED_TITLE}`,
    code: BSUID_REFUSED,
  }));
}

/** Positions a warning names at most. */
const NAMED = 20;

/**
 * The warning of a MARKETING send to +1 numbers of a US area code (decisions §28): Meta sends no marketing
 * template there since 2025-04-01 (upstream-facts §9.C).
 */
export function usMarketingPaused(category: string | undefined, recipients: { index: number; to?: string }[]) {
  if (upper(category) !== 'MARKETING') return undefined;
  const positions = recipients
    .filter((r) => r.to !== undefined && recipientDigits(r.to).startsWith('1') && regionOf(recipientDigits(r.to)) === 'US')
    .map((r) => r.index);
  if (positions.length === 0) return undefined;
  return {
    code: 'us_marketing_paused' as const,
    message: `${positions.length} recipients are US numbers (positions ${positions.slice(0, NAMED).join(', ')}${positions.length > NAMED ? ', …' : ''}): Meta delivers no marketing template to a +1 number with a US area code`,
  };
}

/**
 * A dry run's warning for the recipients libphonenumber-js says cannot be numbers of their region (decisions §26):
 * a warning, never a refusal, since Meta has the last word on what it delivers.
 */
export function impossibleNumbers(
  recipients: { index: number; digits: string }[],
): { code: 'numbers_not_valid_for_region'; message: string } | undefined {
  const positions = recipients.filter((r) => isImpossibleNumber(r.digits)).map((r) => r.index);
  if (positions.length === 0) return undefined;
  const named = positions.slice(0, NAMED).join(', ');
  return {
    code: 'numbers_not_valid_for_region' as const,
    message: `${positions.length} recipients are not valid numbers of their region by libphonenumber-js (positions ${named}${positions.length > NAMED ? ', …' : ''}): Meta may not deliver to them`,
  };
}

/** The known pairs among a send's recipients (one read per hundred keys), or none without an identity map. */
export async function knownPairs(
  deps: { identities?: Pick<IdentityMap, 'pairsOf'> },
  scope: string,
  recipients: { to?: string; user_id?: string }[],
): Promise<Map<string, Person> | undefined> {
  if (!deps.identities || recipients.length === 0) return undefined;
  const keys = new Map<string, { phone?: string; user_id?: string }>();
  for (const r of recipients) {
    if (r.to !== undefined) keys.set(`p:${recipientDigits(r.to)}`, { phone: recipientDigits(r.to) });
    if (r.user_id !== undefined) keys.set(`u:${r.user_id}`, { user_id: r.user_id });
  }
  return deps.identities.pairsOf(scope, [...keys.values()]);
}

/** How long a WABA found not onboarded is believed before Graph is asked again. */
export const ONBOARDING_RECHECK_MS = 10 * 60_000;

/**
 * Whether a WABA is onboarded to the Marketing Messages API: as kept (Meta's webhook or an earlier read), else
 * as Graph says now (kept). Graph unreadable: as kept, else not onboarded (the send goes by the Cloud API).
 */
export async function isOnboarded(
  deps: { onboardings?: MarketingOnboardings; marketing?: MarketingUpstream },
  wabaId: string,
  nowMs: number,
): Promise<boolean> {
  const kept = await deps.onboardings?.get(wabaId);
  if (kept?.onboarded) return true;
  if (kept && nowMs - Date.parse(kept.at) < ONBOARDING_RECHECK_MS) return false;
  const status = await deps.marketing?.marketingOnboardingOf(wabaId).catch(() => null);
  if (status === null || status === undefined) return kept?.onboarded ?? false;
  const onboarded = upper(status) === 'ONBOARDED';
  await deps.onboardings?.put(wabaId, { onboarded, source: 'graph', at: new Date(nowMs).toISOString() }).catch(() => undefined);
  return onboarded;
}

/**
 * Which API a send goes through (decisions §28): a MARKETING send on an onboarded WABA through the Marketing
 * Messages API (`auto` or `mm`), anything else through `/messages`. `mm` where the WABA is not onboarded, or a
 * `ttl_seconds` that cannot go through it, is a 400.
 */
export async function marketingApiOf(
  deps: { onboardings?: MarketingOnboardings; marketing?: MarketingUpstream },
  wabaId: string,
  category: string | undefined,
  body: { marketing_api?: 'auto' | 'cloud' | 'mm'; ttl_seconds?: number },
  nowMs: number,
): Promise<'mm' | undefined> {
  const choice = body.marketing_api ?? 'auto';
  const marketing = upper(category) === 'MARKETING';
  const problems = [];
  if (choice === 'mm' && !marketing) problems.push({ path: 'marketing_api', message: 'mm takes MARKETING templates only' });
  if (body.ttl_seconds !== undefined && !marketing) problems.push({ path: 'ttl_seconds', message: 'is for MARKETING templates only' });
  if (body.ttl_seconds !== undefined && choice === 'cloud')
    problems.push({ path: 'ttl_seconds', message: 'needs the Marketing Messages API (marketing_api auto or mm)' });
  if (problems.length > 0) throw new InvalidRequest('The send cannot go through the Marketing Messages API', problems);
  if (!marketing || choice === 'cloud') return undefined;
  const onboarded = await isOnboarded(deps, wabaId, nowMs);
  if (onboarded) return 'mm';
  if (choice === 'mm')
    throw new InvalidRequest('The WABA is not onboarded to the Marketing Messages API', [
      { path: 'marketing_api', message: `WABA ${wabaId} has not accepted the Marketing Messages API's terms` },
    ]);
  if (body.ttl_seconds !== undefined)
    throw new InvalidRequest('ttl_seconds needs the Marketing Messages API', [
      { path: 'ttl_seconds', message: `WABA ${wabaId} is not onboarded to the Marketing Messages API` },
    ]);
  return undefined;
}

/** Meta's `MM_LITE_TERMS_SIGNED` webhook (decisions §28): the WABA's MARKETING sends go through the MM API from now on. */
export async function onboardedByMeta(deps: { onboardings?: MarketingOnboardings }, wabaId: string, atMs: number) {
  if (!deps.onboardings) return 'ignored' as const;
  if ((await deps.onboardings.get(wabaId))?.onboarded) return 'unchanged' as const;
  await deps.onboardings.put(wabaId, { onboarded: true, source: 'webhook', at: new Date(atMs).toISOString() });
  return 'applied' as const;
}

/**
 * The positions of a MARKETING send's recipients whose number is on the client's suppression list (decisions
 * §25): one batch read per hundred unique recipients, however long the list. Other categories are never filtered.
 */
export async function suppressedAmong(
  deps: Parameters<typeof suppressedPeople>[0],
  clientId: number,
  wabaId: string,
  category: string | undefined,
  recipients: { to?: string; user_id?: string; duplicate_of?: number }[],
  pairs?: Map<string, Person>,
) {
  if (upper(category) !== 'MARKETING') return new Set<number>();
  // By the person (decisions §28): the number, the BSUID, or the other half of a pair the identity map knows.
  const candidates = recipients.flatMap((r, i) =>
    r.duplicate_of === undefined && (r.to !== undefined || r.user_id !== undefined)
      ? [
          {
            i,
            person: { ...(r.to !== undefined && { phone: recipientDigits(r.to) }), ...(r.user_id !== undefined && { user_id: r.user_id }) },
          },
        ]
      : [],
  );
  // The pairs the repeats were found with are the ones to skip by: read once.
  const skipped = await suppressedPeople(
    deps,
    clientId,
    wabaId,
    candidates.map((c) => c.person),
    pairs,
  );
  return new Set(candidates.filter((_, k) => skipped.has(k)).map((c) => c.i));
}
