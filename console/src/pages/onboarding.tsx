import { useState } from 'preact/hooks';
import type { Api } from '../api.ts';
import type { EmbeddedSignup, OnboardingAnswer } from '../answers.ts';
import { pageConfig } from '../config.ts';
import { launchEmbeddedSignup, type SignupResult } from '../embedded-signup.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, When } from '../ui.tsx';
import './pages.css';

const STEP_WORDS: Record<OnboardingAnswer['steps'][number]['step'], string> = {
  exchange: 'Exchange the code for a business token',
  register: 'Register each of the WABA’s numbers with the PIN',
  subscribe: 'Subscribe the app to the WABA’s webhooks',
  credit_line: 'Share the provider’s credit line',
  read_waba: 'Read the WABA: currency, timezone, portfolio',
  add_to_directory: 'Add the WABA, its numbers and their channels to the directory',
  templates: 'Read the WABA’s templates',
};
const STATUS_WORDS = { pending: 'Not run yet', done: 'Done', skipped: 'Skipped', failed: 'Failed' } as const;

/**
 * What Meta's flow gives the page: where the deployment configures Embedded Signup, Facebook's SDK launches it
 * (console/src/embedded-signup.ts); otherwise the local stand-in, the Graph API emulator's popup
 * (`POST /_local/embedded-signup`), which the local stack answers and a deployment refuses in words.
 */
async function signUp(api: Api, coexistence: boolean): Promise<SignupResult> {
  const configured = pageConfig().embeddedSignup;
  if (configured) return launchEmbeddedSignup(configured, coexistence);
  return { ...(await api.post<EmbeddedSignup>('_local/embedded-signup', { coexistence })), coexistence };
}

/**
 * Onboarding by Embedded Signup (issue 55): the client signs up in Meta's flow, and the service exchanges the code,
 * registers each of the WABA's numbers, subscribes the app, shares the credit line, adds the WABA and its numbers to
 * the directory and reads its templates, each step shown with its outcome, and resumed from the one that failed.
 */
function Onboarding() {
  const { api, clientId } = useSession();
  const [pin, setPin] = useState('');
  const [coexistence, setCoexistence] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [onboarding, setOnboarding] = useState<OnboardingAnswer>();
  const act = async (doing: () => Promise<OnboardingAnswer>) => {
    setBusy(true);
    setError(undefined);
    try {
      setOnboarding(await doing());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    act(async () => {
      const signup = await signUp(api, coexistence);
      const body = { ...signup, ...(pin && { pin }) };
      return api.post<OnboardingAnswer>(`v1/clients/${clientId}/onboardings`, body);
    });
  const resume = () =>
    act(() => api.post<OnboardingAnswer>(`v1/clients/${clientId}/onboardings/${onboarding?.onboarding_id}/resume`, pin ? { pin } : {}));
  return (
    <>
      <h1 tabIndex={-1}>Onboarding</h1>
      <p class="lead">
        A client signs up with Meta’s Embedded Signup; the service then registers the WABA’s numbers, subscribes to its WABA, shares the
        credit line, adds the WABA, its numbers and their channels to this client’s directory, and reads its templates.
      </p>
      <form
        class="add"
        onSubmit={(event) => {
          event.preventDefault();
          start();
        }}
      >
        <label>
          Two-step verification PIN (6 digits)
          <input inputMode="numeric" pattern="[0-9]{6}" value={pin} onInput={(e) => setPin(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={coexistence} onChange={(e) => setCoexistence(e.currentTarget.checked)} /> A WhatsApp Business app
          number (coexistence)
        </label>
        <button type="submit" disabled={busy}>
          Start Embedded Signup
        </button>
      </form>
      <ErrorNote error={error} doing="The onboarding" />
      {onboarding && <Outcome onboarding={onboarding} busy={busy} onResume={resume} />}
    </>
  );
}

/** Each step with its outcome, and the resume where one failed. */
function Outcome({ onboarding, busy, onResume }: { onboarding: OnboardingAnswer; busy: boolean; onResume: () => void }) {
  const failed = onboarding.steps.find((s) => s.status === 'failed');
  return (
    <section aria-label="The onboarding" data-onboarding={onboarding.onboarding_id} data-status={onboarding.status}>
      <h2>
        WABA {onboarding.waba_id}:{' '}
        {onboarding.status === 'completed' ? 'onboarded' : onboarding.status === 'failed' ? 'stopped' : 'in progress'}
      </h2>
      <table>
        <caption>Its steps, in order</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Outcome</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {onboarding.steps.map((s) => (
            <tr key={s.step} data-step={s.step} data-step-status={s.status}>
              <th scope="row">{STEP_WORDS[s.step]}</th>
              <td>
                {STATUS_WORDS[s.status]}
                {s.error ? `: ${s.error}` : s.detail ? `: ${s.detail}` : ''}
              </td>
              <td>{s.at ? <When at={s.at} /> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {onboarding.numbers && <Numbers numbers={onboarding.numbers} />}
      {onboarding.channels && (
        <p class="note">
          {onboarding.channels.length === 1 ? 'Channel' : 'Channels'} {onboarding.channels.join(', ')}{' '}
          {onboarding.channels.length === 1 ? 'is' : 'are'} in this client’s directory.
        </p>
      )}
      {failed && (
        <button type="button" disabled={busy} onClick={onResume}>
          Resume from “{STEP_WORDS[failed.step]}”
        </button>
      )}
    </section>
  );
}

/** Each of the WABA's numbers with its registration: a coexistence number is skipped and paced at 20 a second. */
function Numbers({ numbers }: { numbers: NonNullable<OnboardingAnswer['numbers']> }) {
  return (
    <table>
      <caption>The WABA’s numbers</caption>
      <thead>
        <tr>
          <th scope="col">Number</th>
          <th scope="col">WhatsApp Business app (coexistence)</th>
          <th scope="col">Registration</th>
        </tr>
      </thead>
      <tbody>
        {numbers.map((n) => (
          <tr key={n.phone_number_id} data-number={n.phone_number_id} data-registration={n.registration?.status ?? 'pending'}>
            <th scope="row">{n.display_phone_number}</th>
            <td>{n.is_on_biz_app ? 'Yes: paced at 20 messages a second' : 'No'}</td>
            <td>
              {STATUS_WORDS[n.registration?.status ?? 'pending']}
              {n.registration?.error ? `: ${n.registration.error}` : n.registration?.detail ? `: ${n.registration.detail}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const onboardingPage: Page = { path: 'onboarding', nav: 'Onboarding', title: 'Onboarding', view: Onboarding };
