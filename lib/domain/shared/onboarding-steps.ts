import { DomainError } from './errors.ts';
import type { Log } from './log.ts';
import type { DirectoryStore, DirectoryWriter, OnboardingStore, OnboardingUpstream, SecretVault } from './ports.ts';
import type { Onboarding, OnboardingStep, StepOutcome } from './onboarding-record.ts';

export interface OnboardingDeps {
  onboardings: OnboardingStore;
  upstream: OnboardingUpstream;
  vault: SecretVault;
  directory: Pick<DirectoryStore, 'getClient'>;
  writer: DirectoryWriter;
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
  /** The number with its PIN; a coexistence number is registered on the WhatsApp Business app already. */
  async register({ deps, onboarding, secret, ...context }) {
    if (onboarding.coexistence) return skipped('a coexistence number is registered on the WhatsApp Business app');
    if (!secret.pin) return failed('the PIN is needed: resume with {"pin"}');
    await deps.upstream.registerNumber(onboarding.phone_number_id, secret.pin, tokenOf({ deps, onboarding, secret, ...context }));
    return done();
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
  /** The WABA's name, namespace, currency, timezone and portfolio, and its numbers. */
  async read_waba(context) {
    const { deps, onboarding } = context;
    const token = tokenOf(context);
    onboarding.waba = await deps.upstream.readWaba(onboarding.waba_id, token);
    const numbers = await deps.upstream.numbersOf(onboarding.waba_id, token);
    const number = numbers.find((n) => n.phone_number_id === onboarding.phone_number_id);
    if (!number) return failed(`the WABA has no number ${onboarding.phone_number_id}`);
    onboarding.numbers = [number];
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
};

/** Runs one step: its outcome, a refusal of the upstream (or a missing input) as a failure in words. */
export async function runStep(step: OnboardingStep, context: StepContext): Promise<Result> {
  try {
    return await STEPS[step](context);
  } catch (error) {
    if (error instanceof StepFailure || error instanceof DomainError) return failed(error.message);
    throw error;
  }
}
