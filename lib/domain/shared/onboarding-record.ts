/** What the onboarding reads of a WABA (docs/platform-2027.md §1.4). */
export interface OnboardedWaba {
  name: string;
  namespace: string;
  currency: string;
  timezone_id?: string;
  business_id: string;
  business_name: string;
}

/** A number of the WABA as Graph lists it; `is_on_biz_app` marks a coexistence number. */
export interface OnboardedNumber {
  phone_number_id: string;
  display_phone_number: string;
  verified_name?: string;
  is_on_biz_app: boolean;
  platform_type?: string;
  /** Its registration's outcome (issue 55): each number's own, so a resume registers only those not done. */
  registration?: NumberRegistration;
}

export interface NumberRegistration {
  status: 'done' | 'skipped' | 'failed';
  /** Why it was skipped (a coexistence number, one registered already). */
  detail?: string;
  /** Why it failed: the upstream's words (Meta's code in them) or the service's. */
  error?: string;
}

/**
 * An onboarding by Embedded Signup (issue 55 item 1, decisions §34): its steps in order, each with its outcome.
 * Its id is the hash of the code, so the same code twice is the same onboarding; the code itself, the business token
 * and the PIN are never in it (the token and PIN are in the vault under `credentials_ref`).
 */
export const ONBOARDING_STEPS = ['exchange', 'register', 'subscribe', 'credit_line', 'read_waba', 'add_to_directory', 'templates'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export interface StepOutcome {
  step: OnboardingStep;
  status: 'pending' | 'done' | 'skipped' | 'failed';
  /** When it ended (ISO). */
  at?: string;
  /** Why it was skipped, or what it found. */
  detail?: string;
  /** Why it failed: the upstream's words (Meta's code in them) or the service's. */
  error?: string;
}

export interface Onboarding {
  onboarding_id: string;
  client_id: number;
  waba_id: string;
  phone_number_id: string;
  coexistence: boolean;
  status: 'in_progress' | 'failed' | 'completed';
  failed_at?: OnboardingStep;
  steps: StepOutcome[];
  /** The vault's reference of the business token (and the PIN): a secret's name, never the secret. */
  credentials_ref?: string;
  waba?: OnboardedWaba;
  numbers?: OnboardedNumber[];
  allocation_config_id?: string;
  /** The channels (DIDs) it added to the directory. */
  channels?: string[];
  /** How many of the WABA's templates the last `templates` step read (the sync's own count). */
  templates_seen?: number;
  created_at: string;
  updated_at: string;
  /** Bumped by each write: a write conditioned on the one read, so two runs never interleave their steps. */
  rev: number;
}
