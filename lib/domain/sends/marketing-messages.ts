import { InvalidRequest } from '../shared/errors.ts';
import { upper } from '../shared/text.ts';
import type { MarketingOnboardings, MarketingUpstream } from './ports.ts';

/**
 * The Marketing Messages API (decisions §28): whether a WABA is onboarded to it, as kept or as Graph says, and
 * which API a send goes through.
 */

/** How long a WABA found not onboarded is believed before Graph is asked again. */
export const ONBOARDING_RECHECK_MS = 10 * 60_000;

/**
 * Whether a WABA is onboarded to the Marketing Messages API: as kept (Meta's webhook or an earlier read), else
 * as Graph says now (kept). Graph unreadable: as kept, else not onboarded (the send goes by the Cloud API).
 */
export async function isOnboarded(
  deps: { onboardings: MarketingOnboardings; marketing: MarketingUpstream },
  wabaId: string,
  nowMs: number,
): Promise<boolean> {
  const kept = await deps.onboardings.get(wabaId);
  if (kept?.onboarded) return true;
  if (kept && nowMs - Date.parse(kept.at) < ONBOARDING_RECHECK_MS) return false;
  const status = await deps.marketing.marketingOnboardingOf(wabaId).catch(() => null);
  if (status === null || status === undefined) return kept?.onboarded ?? false;
  const onboarded = upper(status) === 'ONBOARDED';
  await deps.onboardings.put(wabaId, { onboarded, source: 'graph', at: new Date(nowMs).toISOString() }).catch(() => undefined);
  return onboarded;
}

/**
 * Which API a send goes through (decisions §28): a MARKETING send on an onboarded WABA through the Marketing
 * Messages API (`auto` or `mm`), anything else through `/messages`. `mm` where the WABA is not onboarded, or a
 * `ttl_seconds` that cannot go through it, is a 400.
 */
export async function marketingApiOf(
  deps: { onboardings: MarketingOnboardings; marketing: MarketingUpstream },
  wabaId: string,
  category: string | undefined,
  body: { marketing_api?: 'auto' | 'cloud' | 'mm'; ttl_seconds?: number; max_price?: unknown },
  nowMs: number,
): Promise<'mm' | undefined> {
  const choice = body.marketing_api ?? 'auto';
  const marketing = upper(category) === 'MARKETING';
  const problems = [];
  if (choice === 'mm' && !marketing) problems.push({ path: 'marketing_api', message: 'mm takes MARKETING templates only' });
  if (body.ttl_seconds !== undefined && !marketing) problems.push({ path: 'ttl_seconds', message: 'is for MARKETING templates only' });
  if (body.ttl_seconds !== undefined && choice === 'cloud')
    problems.push({ path: 'ttl_seconds', message: 'needs the Marketing Messages API (marketing_api auto or mm)' });
  // A max price is the Marketing Messages API's (decisions §34): MARKETING sends through it only.
  if (body.max_price !== undefined && !marketing) problems.push({ path: 'max_price', message: 'is for MARKETING templates only' });
  if (body.max_price !== undefined && choice === 'cloud')
    problems.push({ path: 'max_price', message: 'needs the Marketing Messages API (marketing_api auto or mm)' });
  if (problems.length > 0) throw new InvalidRequest('The send cannot go through the Marketing Messages API', problems);
  if (!marketing || choice === 'cloud') return undefined;
  const onboarded = await isOnboarded(deps, wabaId, nowMs);
  if (onboarded) return 'mm';
  if (choice === 'mm')
    throw new InvalidRequest('The WABA is not onboarded to the Marketing Messages API', [
      { path: 'marketing_api', message: `WABA ${wabaId} has not accepted the Marketing Messages API's terms` },
    ]);
  for (const field of ['ttl_seconds', 'max_price'] as const)
    if (body[field] !== undefined)
      throw new InvalidRequest(`${field} needs the Marketing Messages API`, [
        { path: field, message: `WABA ${wabaId} is not onboarded to the Marketing Messages API` },
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
