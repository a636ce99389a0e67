import type { EmbeddedSignupConfig } from './config.ts';

/**
 * Meta's Embedded Signup launched from the console (issue 55, docs/platform-2027.md §1.1–1.2): Facebook's
 * JavaScript SDK is loaded once and initialised with the app, `FB.login` is called with the login configuration
 * asking for a code, and the flow's `WA_EMBEDDED_SIGNUP` message (from a facebook.com window only) gives the WABA
 * and number. Both may come in either order; the signup ends when both have.
 */

export const FACEBOOK_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
/** The feature type of the WhatsApp Business app's numbers (coexistence) in Embedded Signup v4's `extras`. */
export const COEXISTENCE_FEATURE = 'whatsapp_business_app_onboarding';

/** What the flow gave the page: the code to exchange, the IDs of its FINISH event, and whether it was coexistence. */
export interface SignupResult {
  code: string;
  waba_id: string;
  phone_number_id: string;
  business_id?: string;
  coexistence: boolean;
}

interface LoginResponse {
  authResponse?: { code?: string } | null;
  status?: string;
}
interface FacebookSdk {
  init(options: Record<string, unknown>): void;
  login(callback: (response: LoginResponse) => void, options: Record<string, unknown>): void;
}
type SdkWindow = Window & { FB?: FacebookSdk; fbAsyncInit?: () => void };

let sdk: Promise<FacebookSdk> | undefined;

/** Facebook's SDK, loaded from its address once and initialised with the app and Graph version. */
export function loadFacebookSdk(config: EmbeddedSignupConfig): Promise<FacebookSdk> {
  sdk ??= new Promise<FacebookSdk>((resolve, reject) => {
    const w = window as SdkWindow;
    w.fbAsyncInit = () => {
      w.FB!.init({ appId: config.appId, autoLogAppEvents: true, xfbml: false, version: config.graphVersion });
      resolve(w.FB!);
    };
    const script = document.createElement('script');
    script.src = FACEBOOK_SDK_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onerror = () => {
      sdk = undefined;
      reject(new Error('Facebook’s SDK could not be loaded'));
    };
    document.head.append(script);
  });
  return sdk;
}

/** A message from a window of facebook.com over HTTPS: the only origin the flow's session info is taken from. */
export function isFacebookOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' && (url.hostname === 'facebook.com' || url.hostname.endsWith('.facebook.com'));
  } catch {
    return false;
  }
}

type SessionInfo = Omit<SignupResult, 'code'>;
type SessionEvent = { info: SessionInfo } | { failure: string } | undefined;

/** The flow's `message` event as public code and Meta give it (docs/platform-2027.md §1.2), or undefined for another. */
export function sessionEventOf(event: MessageEvent): SessionEvent {
  if (!isFacebookOrigin(event.origin)) return undefined;
  let data: { type?: string; event?: string; data?: Record<string, string | undefined> };
  try {
    data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
  } catch {
    return undefined;
  }
  if (data?.type !== 'WA_EMBEDDED_SIGNUP') return undefined;
  const fields = data.data ?? {};
  if (data.event === 'FINISH' || data.event === 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING') {
    if (!fields.waba_id || !fields.phone_number_id) return { failure: 'Embedded Signup finished without a WABA and a number' };
    const coexistence = data.event === 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING';
    const business = fields.business_id ? { business_id: fields.business_id } : {};
    return { info: { waba_id: fields.waba_id, phone_number_id: fields.phone_number_id, ...business, coexistence } };
  }
  if (data.event === 'FINISH_ONLY_WABA') return { failure: 'Embedded Signup finished without a phone number: add one and sign up again' };
  if (data.event === 'CANCEL')
    return { failure: fields.error_message ?? `Embedded Signup was closed at ${fields.current_step ?? 'an unknown step'}` };
  if (data.event === 'ERROR' || data.event === 'error') return { failure: fields.error_message ?? 'Embedded Signup reported an error' };
  return undefined;
}

/**
 * Launches Embedded Signup: `FB.login` with the configuration and a code as its answer, and the coexistence
 * feature where the client signs up with a WhatsApp Business app number. Resolves once the code and the
 * session's IDs are both in; rejects when the flow is closed or fails.
 */
export async function launchEmbeddedSignup(config: EmbeddedSignupConfig, coexistence: boolean): Promise<SignupResult> {
  const fb = await loadFacebookSdk(config);
  return new Promise<SignupResult>((resolve, reject) => {
    let code: string | undefined;
    let info: SessionInfo | undefined;
    const end = (outcome: () => void) => {
      window.removeEventListener('message', listen);
      outcome();
    };
    const settle = () => {
      if (code && info) end(() => resolve({ code: code as string, ...(info as SessionInfo) }));
    };
    const listen = (event: MessageEvent) => {
      const session = sessionEventOf(event);
      if (!session) return;
      if ('failure' in session) end(() => reject(new Error(session.failure)));
      else {
        info = { ...session.info, coexistence: session.info.coexistence || coexistence };
        settle();
      }
    };
    window.addEventListener('message', listen);
    fb.login(
      (response) => {
        code = response.authResponse?.code ?? undefined;
        if (!code) end(() => reject(new Error('Embedded Signup gave no code: it was closed or refused')));
        else settle();
      },
      {
        config_id: config.configId,
        response_type: 'code',
        override_default_response_type: true,
        // v4: the products come from the login configuration; only the coexistence flow names a feature type.
        extras: coexistence ? { featureType: COEXISTENCE_FEATURE } : {},
      },
    );
  });
}
