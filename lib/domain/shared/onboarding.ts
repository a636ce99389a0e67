import { BSP_PERMISSION, type Caller } from './caller.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from './errors.ts';
import { ONBOARDING_STEPS, type Onboarding, type OnboardingStep, type StepOutcome } from './onboarding-record.ts';
import { type OnboardingDeps, type OnboardingSecret, runStep } from './onboarding-steps.ts';

export type { OnboardingDeps, OnboardingSecret };

/**
 * Onboarding by Embedded Signup (issue 55 item 1, decisions §34): the code Meta's flow gave the console is exchanged
 * for a business token, the number registered with its PIN (not a coexistence number: it is registered on the
 * WhatsApp Business app already), the app subscribed to the WABA, the provider's credit line shared (where the
 * provider pays Meta), the WABA read, and the WABA, its number and a channel added to the client's directory. Each
 * step's outcome is kept; a failed step leaves the onboarding `failed_at` that step, and a resume goes on from it.
 * Its ports and the steps themselves: ./onboarding-steps.ts.
 */

/** What the console hands in from Embedded Signup (docs/platform-2027.md §1.2), with the number's PIN. */
export interface StartOnboarding {
  code: string;
  waba_id: string;
  phone_number_id: string;
  business_id?: string;
  pin?: string;
  coexistence?: boolean;
}

/** The role of a client's administrator: it may onboard for its own client (BSP_CN for any). */
export const CLIENT_ADMIN_ROLE = 'admin';
export const ONBOARDING_NOT_FOUND = 'Onboarding not found';

/** BSP_CN for any client; a client's administrator for its own. */
function mayOnboard(caller: Caller, clientId: number) {
  if (caller.isBsp || caller.permissions.includes(BSP_PERMISSION)) return;
  if (caller.clientId === clientId && caller.role === CLIENT_ADMIN_ROLE) return;
  throw new Forbidden('BSP_CN, or an administrator of the client, may onboard for it');
}

/** The onboarding's id: the code's hash (the code is never kept). */
export const onboardingIdOf = (deps: Pick<OnboardingDeps, 'sha256'>, code: string) => deps.sha256(code).slice(0, 32);

async function readSecret(deps: OnboardingDeps, onboarding: Onboarding): Promise<OnboardingSecret> {
  if (!onboarding.credentials_ref) return {};
  const text = await deps.vault.read(onboarding.credentials_ref);
  return text ? (JSON.parse(text) as OnboardingSecret) : {};
}

/** Keeps the secret (merged with what is kept) and notes its reference on the onboarding. */
async function keepSecret(deps: OnboardingDeps, onboarding: Onboarding, change: OnboardingSecret) {
  const kept = await readSecret(deps, onboarding);
  onboarding.credentials_ref = await deps.vault.keep(`onboarding/${onboarding.onboarding_id}`, JSON.stringify({ ...kept, ...change }));
}

/** What the caller sees: every field but the vault's reference. */
export function onboardingView(onboarding: Onboarding) {
  const { credentials_ref: _ref, rev: _rev, ...view } = onboarding;
  return view;
}

/**
 * Runs the steps from the first not done: each step's outcome is written as it ends, so a crash or a failure
 * resumes where it stopped. The code is used only by the exchange and never kept.
 */
async function runFrom(deps: OnboardingDeps, onboarding: Onboarding, code: string | undefined) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  for (const outcome of onboarding.steps) {
    if (outcome.status === 'done' || outcome.status === 'skipped') continue;
    const secret = await readSecret(deps, onboarding);
    const result = await runStep(outcome.step, { deps, onboarding, secret, code, keepSecret: (c) => keepSecret(deps, onboarding, c) });
    Object.assign(outcome, { at: now() }, result);
    delete (outcome as Partial<StepOutcome>)[result.status === 'failed' ? 'detail' : 'error'];
    onboarding.status = result.status === 'failed' ? 'failed' : 'in_progress';
    if (result.status === 'failed') onboarding.failed_at = outcome.step;
    else delete onboarding.failed_at;
    onboarding.updated_at = now();
    if (!(await deps.onboardings.save(onboarding))) throw new Conflict('The onboarding moved meanwhile: read it and try again');
    onboarding.rev += 1;
    if (result.status === 'failed') {
      deps.log.warn('onboarding step failed', { onboarding_id: onboarding.onboarding_id, step: outcome.step });
      return onboarding;
    }
  }
  onboarding.status = 'completed';
  onboarding.updated_at = now();
  if (!(await deps.onboardings.save(onboarding))) throw new Conflict('The onboarding moved meanwhile: read it and try again');
  onboarding.rev += 1;
  deps.log.info('onboarding completed', { onboarding_id: onboarding.onboarding_id, client_id: onboarding.client_id });
  return onboarding;
}

/**
 * `POST /v1/clients/{client_id}/onboardings`: starts the onboarding of the code, or answers the one it already is
 * (the same code twice adds nothing twice: its steps are not run again).
 */
export async function startOnboarding(deps: OnboardingDeps, caller: Caller, clientId: number, input: StartOnboarding) {
  mayOnboard(caller, clientId);
  if (!(await deps.directory.getClient(clientId))) throw new NotFound('Client not found');
  if (!input.coexistence && input.pin === undefined)
    throw new InvalidRequest('pin is required to register a number (but a coexistence one)');
  const id = onboardingIdOf(deps, input.code);
  const existing = await deps.onboardings.get(id);
  if (existing) return onboardingView(sameOnboarding(existing, clientId, input));
  const at = (deps.now?.() ?? new Date()).toISOString();
  const onboarding: Onboarding = {
    onboarding_id: id,
    client_id: clientId,
    waba_id: input.waba_id,
    phone_number_id: input.phone_number_id,
    coexistence: input.coexistence ?? false,
    status: 'in_progress',
    steps: ONBOARDING_STEPS.map((step) => ({ step, status: 'pending' })),
    created_at: at,
    updated_at: at,
    rev: 0,
  };
  if (!(await deps.onboardings.create(onboarding)))
    return onboardingView(sameOnboarding((await deps.onboardings.get(id))!, clientId, input));
  if (input.pin !== undefined) await keepSecret(deps, onboarding, { pin: input.pin });
  return onboardingView(await runFrom(deps, onboarding, input.code));
}

/** The code's onboarding, which must be of the same client and WABA (another's is not told apart from none). */
function sameOnboarding(onboarding: Onboarding, clientId: number, input: StartOnboarding) {
  if (onboarding.client_id !== clientId || onboarding.waba_id !== input.waba_id) throw new Conflict('The code was used already');
  return onboarding;
}

async function ownOnboarding(deps: OnboardingDeps, caller: Caller, clientId: number, onboardingId: string) {
  mayOnboard(caller, clientId);
  const onboarding = await deps.onboardings.get(onboardingId);
  if (!onboarding || onboarding.client_id !== clientId) throw new NotFound(ONBOARDING_NOT_FOUND);
  return onboarding;
}

/** `GET /v1/clients/{client_id}/onboardings/{onboarding_id}`. */
export async function getOnboarding(deps: Pick<OnboardingDeps, 'onboardings'>, caller: Caller, clientId: number, onboardingId: string) {
  return onboardingView(await ownOnboarding(deps as OnboardingDeps, caller, clientId, onboardingId));
}

/**
 * `POST /v1/clients/{client_id}/onboardings/{onboarding_id}/resume {pin?, code?}`: goes on from the failed step (a
 * new PIN after 133005; the code again when the exchange itself failed). A completed onboarding is answered as it is.
 */
export async function resumeOnboarding(
  deps: OnboardingDeps,
  caller: Caller,
  clientId: number,
  onboardingId: string,
  input: { pin?: string; code?: string },
) {
  const onboarding = await ownOnboarding(deps, caller, clientId, onboardingId);
  if (onboarding.status === 'completed') return onboardingView(onboarding);
  if (input.code !== undefined && onboardingIdOf(deps, input.code) !== onboarding.onboarding_id)
    throw new InvalidRequest('code is not the one this onboarding was started with');
  if (input.pin !== undefined) await keepSecret(deps, onboarding, { pin: input.pin });
  return onboardingView(await runFrom(deps, onboarding, input.code));
}

export type { OnboardingStep };
