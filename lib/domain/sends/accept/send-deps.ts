import type { BillingCurrencies, BudgetStore, PriceLists } from '../../money/ports.ts';
import type { FrequencyCaps, MarketingCounts } from '../../people/frequency-caps.ts';
import type { PeopleMap, SuppressionStore } from '../../people/ports.ts';
import type { DirectoryStore, JobQueue } from '../../shared/ports.ts';
import type { Resolver } from '../../shared/url-guard.ts';
import type { TemplateListing, TemplateUpstream } from '../../templates/ports.ts';
import type {
  DirectSendUpstream,
  HeldJobs,
  MarketingOnboardings,
  MarketingUpstream,
  RecipientLists,
  SendRecords,
  SendScheduler,
} from '../ports.ts';

/**
 * The ports a send's acceptance, its dry run and its resend take (lib/wiring/send-deps.ts wires them once for
 * every composition root). Each is required: a port left out is a type error, never a feature silently off.
 */
export interface SendDeps {
  directory: DirectoryStore;
  listing: TemplateListing;
  sends: SendRecords;
  recipientLists: RecipientLists;
  heldJobs: HeldJobs;
  budgets: BudgetStore;
  suppressions: SuppressionStore;
  /** Who is who (decisions §28): repeats are found per person, and a MARKETING send skips either half of a known
   * pair that is suppressed. */
  peopleMap: PeopleMap;
  /** Each client's MARKETING frequency cap (decisions §33), and each person's count under it (a dry run reads them). */
  frequencyCaps: Pick<FrequencyCaps, 'get'>;
  marketingCounts: Pick<MarketingCounts, 'counted'>;
  upstream: TemplateUpstream;
  queue: JobQueue;
  resolve: Resolver;
  scheduler: SendScheduler;
  /** Each client's price lists: estimates and reservations are in the client's price (decisions §27). */
  priceLists: Pick<PriceLists, 'lists'>;
  /** Each WABA's billing currency: estimates are in it (decisions §26). */
  currencies: BillingCurrencies;
  /** Each WABA's onboarding to the Marketing Messages API (decisions §28), kept and as Graph reports it. */
  onboardings: MarketingOnboardings;
  marketing: MarketingUpstream;
  /** Whether Meta enabled the WABA for Direct Send (issue 55 item 2), as Graph says. */
  directSend: DirectSendUpstream;
  /** The clock (tests set it); the time now when absent. */
  now?: () => string;
}

/** What a dry run reads: a send's ports but those that record, reserve or queue. */
export type DryRunDeps = Omit<SendDeps, 'sends' | 'recipientLists' | 'heldJobs' | 'queue' | 'budgets'>;
