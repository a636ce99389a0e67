import type * as v from 'valibot';
import type { BudgetResponse } from '#lib/schemas/budget.ts';
import type { ListChannelsResponse } from '#lib/schemas/channels.ts';
import type { EmbeddedSignupResponse, OnboardingResponse } from '#lib/schemas/onboarding.ts';
import type { TemplateDryRunResponse } from '#lib/schemas/create-template.ts';
import type {
  ListRecipientsResponse,
  ListSendsResponse,
  ResendAcceptedResponse,
  SendPrice,
  SendStatusResponse,
} from '#lib/schemas/send.ts';
import type { StatementResponse } from '#lib/schemas/statements.ts';
import type { AddSuppressionResponse, GetSuppressionResponse, ListSuppressionsResponse } from '#lib/schemas/suppression.ts';
import type { ListTemplatesResponse } from '#lib/schemas/templates.ts';
import type { UsageResponse } from '#lib/schemas/usage.ts';
import type { SendPerformanceResponse, TemplatePerformanceResponse } from '#lib/schemas/performance.ts';
import type { ListDeliveriesResponse } from '#lib/schemas/webhook.ts';

/**
 * The API's answers as the console reads them: the types of the routes' response schemas (lib/schemas), so a field
 * the API renames or drops fails the console's typecheck. Types only: the build erases them, and the bundle carries
 * neither valibot nor a schema (test/architecture/console-answers.test.ts says every answer is typed here).
 */
type Answer<Schema extends v.GenericSchema> = v.InferOutput<Schema>;

/** `POST /v1/clients/{client_id}/onboardings`, its resume and its read (issue 55). */
export type OnboardingAnswer = Answer<typeof OnboardingResponse>;
/** What Embedded Signup gives the page: the code and the IDs (locally the emulator's popup, `POST /_local/embedded-signup`). */
export type EmbeddedSignup = Answer<typeof EmbeddedSignupResponse>;

/** `GET /v1/sends/{send_id}`. */
export type SendStatus = Answer<typeof SendStatusResponse>;
/** `GET /v1/sends`: a page of sends, newest first. */
export type SendsPage = Answer<typeof ListSendsResponse>;
/** A send's price (or Meta's cost, which adds its billable count): an amount in a currency, by category. */
export type SendMoney = Answer<typeof SendPrice>;
/** `POST /v1/sends/{send_id}/resend`: the new send. */
export type Resent = Answer<typeof ResendAcceptedResponse>;
/** `GET /v1/sends/{send_id}/recipients`: a page of a send's recipients, each at its latest state. */
export type RecipientsPage = Answer<typeof ListRecipientsResponse>;
/** A recipient's latest state (decisions §22). */
export type Recipient = RecipientsPage['data'][number];

/** `GET /v1/webhook/deliveries`: a page of the client's delivery log. */
export type DeliveriesPage = Answer<typeof ListDeliveriesResponse>;
export type Delivery = DeliveriesPage['data'][number];

/** `GET /v1/suppressions`: a page of the client's suppression list. */
export type SuppressionsPage = Answer<typeof ListSuppressionsResponse>;
export type Suppression = SuppressionsPage['data'][number];
/** `GET /v1/suppressions/{person}`: one person's entry. */
export type SuppressionFound = Answer<typeof GetSuppressionResponse>;
/** `POST /v1/suppressions`: the entry, and whether it is new. */
export type SuppressionAdded = Answer<typeof AddSuppressionResponse>;

/** `GET /v1/usage`. */
export type UsageAnswer = Answer<typeof UsageResponse>;
export type UsageRow = UsageAnswer['data'][number];
/** `GET /v1/clients/{client_id}/budget`. */
export type Budget = Answer<typeof BudgetResponse>;
/** `GET /v1/clients/{client_id}/statements/{month}`. */
export type Statement = Answer<typeof StatementResponse>;
/** A statement's lines and totals in one of the currencies the month was charged in. */
export type CurrencyStatement = Statement['statements'][number];
export type StatementLine = CurrencyStatement['lines'][number];
/** A statement's totals in one currency. */
export type StatementFigures = CurrencyStatement['totals'];

/** `GET /v1/templates`: a page of the client's templates, each limited to the fields asked for (spec §8). */
export type TemplatesPage = Omit<Answer<typeof ListTemplatesResponse>, 'data'> & { data: TemplateEntry[] };
/**
 * A template record of the listing. The schema leaves a record loose (it carries the fields the caller asks for):
 * these are the fields the templates page asks for (`LISTING_FIELDS`), as the records hold them.
 */
export type TemplateEntry = Answer<typeof ListTemplatesResponse>['data'][number] & {
  id: string;
  client_id?: number;
  active?: boolean;
  waba_id?: string;
  meta_template?: {
    name?: string;
    language?: string;
    category?: string;
    status?: string;
    rejected_reason?: string;
    quality_score?: { score?: string };
  };
  channel_campaigns?: { campaign_id: number; campaign_name?: string; channels: { channel_id: number; name?: string; did?: string }[] }[];
};
/** `POST /v1/templates/{did}?dry_run=true`: a draft's problems and review warnings (decisions §18). */
export type DraftCheck = Answer<typeof TemplateDryRunResponse>;

/** `GET /v1/client-msg-channels`: a page of the directory's channels, each limited to the fields asked for. */
export type ChannelsPage = Answer<typeof ListChannelsResponse>;

/** `GET /v1/sends/{send_id}/performance` (decisions §33): a send's figures by variant and day, with rates. */
export type SendPerformance = Answer<typeof SendPerformanceResponse>;
/** `GET /v1/templates/performance`: a client's templates' figures by day, and each template's over the days. */
export type TemplatePerformance = Answer<typeof TemplatePerformanceResponse>;
