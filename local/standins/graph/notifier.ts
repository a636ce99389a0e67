import { metaSignature } from '#lib/adapters/meta/webhook-signature.ts';

/** Where the emulator sends its notifications, and the app secret it signs them with. */
export interface NotifierTarget {
  url: string;
  appSecret: string;
}

export interface SentNotification {
  at: number;
  field: string;
  status: number | 'failed';
  attempts: number;
}

/** Meta retries a notification that is not answered 200 (with backoff); the emulator tries this often. */
const ATTEMPTS = 5;

/**
 * The emulator's side of Meta's webhooks (upstream-facts §5): a WABA change as Meta's envelope, signed with the
 * app secret (`X-Hub-Signature-256`) and POSTed to the service, again with backoff until it answers 200.
 * Without a target nothing is sent (the in-process emulator of the unit tests).
 */
export class MetaNotifier {
  readonly log: SentNotification[] = [];
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly target: NotifierTarget,
    private readonly retryBaseMs = 200,
  ) {}

  /**
   * Sends in the background: the emulator's own answer never waits for the service. `timeS` is the entry's time
   * (epoch seconds, now unless given): a notification Meta sends late carries the time of its change.
   */
  notify(wabaId: string, field: string, value: Record<string, unknown>, delayMs = 0, timeS = Math.floor(Date.now() / 1000)) {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, time: timeS, changes: [{ field, value }] }],
    });
    const sending = this.deliver(field, body, delayMs).finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  /** Resolves when every notification sent so far has been answered or given up (tests and shutdown). */
  async settled() {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async deliver(field: string, body: string, delayMs: number) {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const entry: SentNotification = { at: Date.now(), field, status: 'failed', attempts: 0 };
    this.log.push(entry);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      entry.attempts = attempt;
      try {
        const response = await fetch(this.target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body, this.target.appSecret) },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        entry.status = response.status;
        if (response.status === 200) return;
      } catch {
        entry.status = 'failed';
      }
      await new Promise((r) => setTimeout(r, this.retryBaseMs * 2 ** (attempt - 1)));
    }
  }
}
