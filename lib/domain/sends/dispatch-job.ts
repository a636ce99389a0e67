import type { SendReservation } from '../money/pricing/reservation.ts';

// A dispatch job: one part of an accepted send, as it travels on the `template-dispatch` queue (docs/dispatch-jobs.md).
// The send use case makes them; the dispatcher (sending/dispatcher.ts), or any other engine, consumes them. A
// value shared by the floors (docs/architecture.md §1): the sending port and the message rules carry it too.

/** A recipient's values (spec §1), and the send's header: as the caller gave them. */
export interface ProductAction {
  type: 'action';
  action: { thumbnailProductRetailerId: string; sections?: { title: string; product_items: { product_retailer_id: string }[] }[] };
}

export interface RecipientParams {
  header?: string[];
  body?: string[];
  buttons?: string[];
  products?: ProductAction[];
  cards?: { body?: string[]; buttons?: string[] }[];
}

export type SendHeader =
  | { type: 'image_url' | 'video_url' | 'document_url'; value: string; filename?: string }
  | { type: 'location'; location: { latitude: string; longitude: string; name: string; address: string } };

export interface JobRecipient {
  /** A phone number, a BSUID (`user_id`), or both (decisions §28): Meta sends to `to` when both are given. */
  to?: string;
  user_id?: string;
  params?: RecipientParams;
  /**
   * Set on a repeat of an earlier position of the send (same digits, decisions §12): its first position. The
   * send removes repeats when it accepts the recipients; a repeat travels without its values and is never sent.
   */
  duplicate_of?: number;
  /**
   * Set on a recipient of a MARKETING send who is on the client's suppression list (decisions §25): found when
   * the send was accepted and counted then; it travels without its values and is never sent.
   */
  suppressed?: true;
  /**
   * The person's halves its MARKETING count is kept by (decisions §33: `p:<digits>` first, then `u:<bsuid>`, the
   * people map's pair included): set on each recipient to send of a MARKETING send under a frequency cap.
   */
  cap_keys?: string[];
  /** A resend's recipient of an A/B send (decisions §33): the variant its message went with; jobs never carry it. */
  variant?: number;
}

/** The template as a job carries it, resolved at acceptance: its category and components. */
export interface JobTemplate {
  name: string;
  language: string;
  id: string;
  category?: string;
  components: Record<string, unknown>[];
}

/** One variant of an A/B send as its jobs carry it (decisions §33): its template, and its own values where given. */
export interface JobVariant {
  template: JobTemplate;
  params?: RecipientParams;
}

/** A Direct Send's message (issue 55 item 2, ./direct-send.ts) as Meta's `/messages` takes it: free-form text (the content every source agrees on). */
export type DirectMessage = DirectText | DirectInteractive;

export interface DirectText {
  type: 'text';
  text: { body: string };
}

/** A header of an interactive message: text, or a linked image, video or document (docs/platform-2027.md §2). */
export type DirectHeader =
  | { type: 'text'; text: string }
  | { type: 'image'; image: { link: string } }
  | { type: 'video'; video: { link: string } }
  | { type: 'document'; document: { link: string; filename?: string } };

interface InteractiveParts {
  header?: DirectHeader;
  body: { text: string };
  footer?: { text: string };
}

/** Reply buttons or one call-to-action URL, as Cloud API's interactive messages carry them. */
export interface DirectInteractive {
  type: 'interactive';
  interactive:
    | (InteractiveParts & { type: 'button'; action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] } })
    | (InteractiveParts & { type: 'cta_url'; action: { name: 'cta_url'; parameters: { display_text: string; url: string } } });
}

/** What a Direct Send's jobs carry to the dispatcher: the category and the message. */
export interface DirectSend {
  category: 'UTILITY' | 'AUTHENTICATION';
  message: DirectMessage;
}

export interface DispatchJob {
  send_id: string;
  client_id: number;
  did: string;
  waba_id: string;
  /** The sending number at the upstream (Cloud API `POST /{phone_number_id}/messages`); a DID without one cannot send. */
  phone_number_id?: string;
  namespace?: string;
  channel: 'MSGCHAN';
  /** The template as resolved at acceptance: its category and components (BODY, FOOTER, BUTTONS; HEADER and CAROUSEL when it has them). */
  template: JobTemplate;
  /**
   * An A/B send's job (decisions §33) sends one variant: `template` is its template, `variant` its place in the
   * send's variants (absent: the send's one template, variant 0 of its figures), `variant_params` its own values
   * (in place of each recipient's, part by part).
   */
  variant?: number;
  variant_params?: RecipientParams;
  /** A test-first send's rest, held until its test is decided: every variant, one of which its release makes its own. */
  variants?: JobVariant[];
  total_contacts: number;
  component?: { header: SendHeader };
  attends?: { waitTime?: number; typification?: number };
  allow_duplicates?: boolean;
  message_send_ttl_seconds?: number;
  campaignId?: number;
  /** A MARKETING send through the Marketing Messages API (decisions §28): `POST /{phone-number-id}/marketing_messages`. */
  marketing_api?: 'mm';
  /** A Direct Send (issue 55 item 2): the message goes free-form with `category`, not as `template`. */
  direct?: DirectSend;
  /** Its max price on the Marketing Messages API (decisions §34): per 1,000 deliveries, in the WABA's currency. */
  max_price?: { amount_per_1000: number; currency: string };
  /** The client's MARKETING frequency cap when the send was accepted (decisions §33): each message takes a place under it. */
  frequency_cap?: { max: number; days: number };
  /** What the send reserved of its client's month (decisions §27): each recipient's part is given back as it settles. */
  reservation?: SendReservation;
  /** The WABA's zone when the send was accepted (decisions §31): its figures' days are its (decisions §33). */
  zone?: string;
  /** This job's number among the send's jobs (1-based), and how many there are. */
  job: number;
  jobs: number;
  /** The position in the send's recipient list of this job's first recipient (0-based). */
  first_index: number;
  recipients: JobRecipient[];
}
