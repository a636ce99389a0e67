import { DomainError } from './errors.ts';
import type { Log } from './log.ts';
import type { DirectoryStore, DirectoryWriter, OnboardedTemplates, OnboardingStore, OnboardingUpstream, SecretVault } from './ports.ts';
import type { NumberRegistration, OnboardedNumber, Onboarding, OnboardingStep, StepOutcome } from './onboarding-record.ts';

export interface OnboardingDeps {
  onboardings: OnboardingStore;
  upstream: OnboardingUpstream;
  vault: SecretVault;
  directory: Pick<DirectoryStore, 'getClient'>;
  writer: DirectoryWriter;
  /** The WABA's templates read into the client's records, as the template sync does (decisions §4). */
  templates: OnboardedTemplates;
  log: Log;
  settings: { providerPaysMeta: boolean; providerBusinessId?: string };
  /** Hex sha256 of a text (node:crypto's at the edge): an onboarding's id is its code's. */
  sha256: (text: string) => string;
  now?: () => Date;
}

/** The secret kept in the vault: the business token once exchanged, and the PIN when given. */
export interface OnboardingSecret {
  token?: string;
  pin?: string;
}

/** What a step is given: the onboarding (it notes what it learns on it), the kept secret and the code (exchange only). */
export interface StepContext {
  deps: OnboardingDeps;
  onboarding: Onboarding;
  secret: OnboardingSecret;
  code: string | undefined;
  keepSecret(change: OnboardingSecret): Promise<void>;
}

type Result = Pick<StepOutcome, 'status' | 'detail' | 'error'>;
const done = (detail?: string): Result => ({ status: 'done', ...(detail && { detail }) });
const failed = (error: string): Result => ({ status: 'failed', error });
const skipped = (detail: string): Result => ({ status: 'skipped', detail });

/** A step that cannot go on without the business token: the exchange must be done again with the code. */
function tokenOf(context: StepContext): string {
  if (!context.secret.token) throw new StepFailure('the business token is not kept: resume with the code to exchange it again');
  return context.secret.token;
}

class StepFailure extends Error {}

const STEPS: Record<OnboardingStep, (context: StepContext) => Promise<Result>> = {
  /** The code for the business token (kept in the vault, never logged or answered). */
  async exchange(context) {
    if (context.code === undefined) return failed('the code is needed to exchange it: resume with {"code"}');
    const token = await context.deps.upstream.exchangeCode(context.code);
    await context.keepSecret({ token });
    return done();
  },
  /**
   * Every number of the WABA (not only the one the flow named) with the PIN, each number's outcome kept on it: a
   * resume registers only those not done. A coexistence number is registered on the WhatsApp Business app already
   * (docs/platform-2027.md §1.3), and one on Cloud API already needs no registration.
   */
  async register(context) {
    const numbers = await numbersOfWaba(context);
    for (const number of numbers) {
      if (number.registration?.status === 'done' || number.registration?.status === 'skipped') continue;
      number.registration = await registerOne(context, number);
    }
    const failures = numbers.filter((n) => n.registration?.status === 'failed');
    if (failures.length > 0) return failed(failures.map((n) => `${n.display_phone_number}: ${n.registration?.error}`).join('; '));
    const registered = numbers.filter((n) => n.registration?.status === 'done').length;
    const detail = `${registered} of ${numbers.length} numbers registered, ${numbers.length - registered} skipped`;
    return registered > 0 ? done(detail) : skipped(`${detail}: ${numbers[0]?.registration?.detail ?? 'none needed it'}`);
  },
  async subscribe(context) {
    await context.deps.upstream.subscribeApp(context.onboarding.waba_id, tokenOf(context));
    return done();
  },
  /** The provider's credit line shared with the WABA in its currency, where the provider pays Meta. */
  async credit_line(context) {
    const { deps, onboarding } = context;
    if (!deps.settings.providerPaysMeta) return skipped('the client pays Meta (PROVIDER_PAYS_META=false)');
    if (!deps.settings.providerBusinessId) return failed('PROVIDER_BUSINESS_ID is not set: the provider’s credit line cannot be found');
    const line = await deps.upstream.providerCreditLine(deps.settings.providerBusinessId);
    if (!line) return failed('the provider’s business has no credit line');
    const { currency } = await deps.upstream.readWaba(onboarding.waba_id, tokenOf(context));
    onboarding.allocation_config_id = await deps.upstream.shareCreditLine(line, onboarding.waba_id, currency);
    return done(`credit line shared in ${currency}`);
  },
  /** The WABA's name, namespace, currency, timezone and portfolio (its numbers were read to register them). */
  async read_waba(context) {
    const { deps, onboarding } = context;
    onboarding.waba = await deps.upstream.readWaba(onboarding.waba_id, tokenOf(context));
    await numbersOfWaba(context);
    return done(`${onboarding.waba.currency}, timezone ${onboarding.waba.timezone_id ?? 'unknown'}`);
  },
  /** The WABA, its number and a channel for the client, as the import writes them (decisions §8). */
  async add_to_directory({ deps, onboarding }) {
    const client = await deps.directory.getClient(onboarding.client_id);
    if (!client || !onboarding.waba || !onboarding.numbers) return failed('the WABA was not read: resume to read it again');
    const { waba } = onboarding;
    const channels = onboarding.numbers.map((n) => ({
      wa_id: n.display_phone_number.replace(/\D/g, ''),
      client_id: client.client_id,
      client_name: client.client_name,
      waba_id: onboarding.waba_id,
      waba_name: waba.name,
      status: 'ACTIVE',
      business_id: waba.business_id,
      business_name: waba.business_name,
      phone_number_id: n.phone_number_id,
      phone_number: n.display_phone_number,
      is_on_biz_app: n.is_on_biz_app,
      register_at: onboarding.created_at,
    }));
    await deps.writer.addOnboarded({
      client,
      waba: {
        waba_id: onboarding.waba_id,
        waba_name: waba.name,
        business_id: waba.business_id,
        business_name: waba.business_name,
        namespace: waba.namespace,
        ...(onboarding.credentials_ref && { credentials_ref: onboarding.credentials_ref }),
      },
      channels,
      currency: waba.currency,
      ...(waba.timezone_id && { timezone_id: waba.timezone_id }),
    });
    onboarding.channels = channels.map((c) => c.wa_id);
    return done(`channel ${onboarding.channels.join(', ')}`);
  },
  /** The WABA's templates into the client's records, once it is in the directory: the template sync's own part. */
  async templates({ deps, onboarding }) {
    onboarding.templates_seen = await deps.templates.syncWaba(onboarding.client_id, onboarding.waba_id);
    return done(`${onboarding.templates_seen} templates read`);
  },
};

/** The WABA's numbers, read once (every page) and kept on the onboarding; the flow's number must be among them. */
async function numbersOfWaba(context: StepContext): Promise<OnboardedNumber[]> {
  const { deps, onboarding } = context;
  onboarding.numbers ??= await deps.upstream.numbersOf(onboarding.waba_id, tokenOf(context));
  if (!onboarding.numbers.some((n) => n.phone_number_id === onboarding.phone_number_id)) {
    const named = onboarding.phone_number_id;
    delete onboarding.numbers;
    throw new StepFailure(`the WABA has no number ${named}`);
  }
  return onboarding.numbers;
}

/** One number's registration: skipped for a coexistence number or one on Cloud API already; Meta's refusal kept. */
async function registerOne(context: StepContext, number: OnboardedNumber): Promise<NumberRegistration> {
  const { deps, onboarding, secret } = context;
  if (number.is_on_biz_app || (number.phone_number_id === onboarding.phone_number_id && onboarding.coexistence))
    return { status: 'skipped', detail: 'a coexistence number is registered on the WhatsApp Business app' };
  if (number.platform_type === 'CLOUD_API') return { status: 'skipped', detail: 'registered on Cloud API already' };
  if (!secret.pin) return { status: 'failed', error: 'the PIN is needed: resume with {"pin"}' };
  try {
    await deps.upstream.registerNumber(number.phone_number_id, secret.pin, tokenOf(context));
    return { status: 'done' };
  } catch (error) {
    if (error instanceof DomainError) return { status: 'failed', error: error.message };
    throw error;
  }
}

/** Runs one step: its outcome, a refusal of the upstream (or a missing input) as a failure in words. */
export async function runStep(step: OnboardingStep, context: StepContext): Promise<Result> {
  try {
    return await STEPS[step](context);
  } catch (error) {
    if (error instanceof StepFailure || error instanceof DomainError) return failed(error.message);
    throw error;
  }
}
