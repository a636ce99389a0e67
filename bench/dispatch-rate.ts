import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { mintToken } from '../local/keys.ts';
import { DEMO_FIXTURE, startLocalStack } from '../local/stack.ts';
import { peakSecond, rateOf as rateOfTimes } from '../test/support/accept-times.ts';
import { trackOrderRecipients } from '../test/support/recipients.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * The dispatcher's pace on the local stack's real parts (the dispatch queue, the dispatcher's pollers, DynamoDB
 * Local, the Graph emulator): sends go in through the API, and the rate is read from the emulator's accept
 * times of the messages. The configured rate (MESSAGES_PER_SECOND) is the baseline.
 */
export interface DispatchRate {
  configured: number;
  /** One number, one send in several jobs dispatched by concurrent invocations. */
  oneNumber: { messages: number; jobs: number; perSecond: number; peakSecond: number };
  /** Ten numbers at once, at a rate each. */
  tenNumbers: { perSecond: number; messages: number; perNumber: number[]; peakSecond: number; totalPerSecond: number }[];
}

const CLIENT = 950;
const WABA = 'w950';
const did = (n: number) => `95000${String(n).padStart(2, '0')}`;
const numberId = (n: number) => `p950${String(n).padStart(2, '0')}`;

interface Accepted {
  phone_number_id: string;
  accepted_at: number;
  message: { to: string };
}

/** A number's rate and peak second, from its messages' accept times (test/support/accept-times.ts). */
const rateOf = (messages: Accepted[]) => rateOfTimes(messages.map((m) => m.accepted_at));
const peakOf = (messages: Accepted[]) => peakSecond(messages.map((m) => m.accepted_at));

/**
 * Runs the measurement in a process of its own: the AWS clients and settings a process caches (endpoints,
 * queue URLs) belong to the first local stack it started, and the store paths start one before this.
 */
export function measureDispatchRate(perNumber = 800): DispatchRate {
  const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(perNumber)], {
    env: { ...process.env, LOG_LEVEL: 'WARN' },
    maxBuffer: 16 * 2 ** 20,
  }).toString();
  return JSON.parse(output.slice(output.lastIndexOf(RESULT) + RESULT.length)) as DispatchRate;
}

const RESULT = '\nDISPATCH RATE: ';

async function measure(perNumber: number): Promise<DispatchRate> {
  const configured = Number(process.env.MESSAGES_PER_SECOND ?? 80);
  const restore = process.env.MESSAGES_PER_SECOND;
  const stack = await startLocalStack();
  try {
    const demo = JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8')) as { wabas: { templates: { name: string }[] }[] };
    const trackOrder = { ...demo.wabas.flatMap((w) => w.templates).find((t) => t.name === 'track_order')!, id: 't950' };
    const numbers = Array.from({ length: 10 }, (_, i) => i + 1);
    await importDirectory(table, {
      clients: [{ client_id: CLIENT, client_name: 'Pace' }],
      wabas: [{ waba_id: WABA, waba_name: WABA, business_id: 'b', business_name: 'b', namespace: `ns_${WABA}`, templates: [trackOrder] }],
      channels: numbers.map((n) => ({ wa_id: did(n), client_id: CLIENT, waba_id: WABA, phone_number_id: numberId(n) })),
    });
    await fetch(`${stack.graphUrl}/_emulator/wabas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: WABA, templates: [trackOrder], phone_numbers: numbers.map((n) => ({ id: numberId(n) })) }),
    });
    const token = await mintToken({ clientId: CLIENT, campaigns: [] });
    const send = async (n: number, recipients: unknown[]) => {
      const response = await fetch(`${stack.apiUrl}/v1/template/messages/${did(n)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          did: did(n),
          type: 'template',
          channel: 'MSGCHAN',
          template: { name: 'track_order', language: 'en_US' },
          recipients,
        }),
      });
      const body = (await response.json()) as { send_id: string };
      if (response.status !== 200) throw new Error(`send refused: ${JSON.stringify(body)}`);
      return body.send_id;
    };
    const settled = async (sendId: string) => {
      for (;;) {
        const response = await fetch(`${stack.apiUrl}/v1/sends/${sendId}`, { headers: { authorization: `Bearer ${token}` } });
        const status = (await response.json()) as { pending: number; sent: number; failed: number };
        if (status.pending === 0) return status;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const accepted = async (phone: string) => {
      const response = await fetch(`${stack.graphUrl}/_emulator/sent?phone_number_id=${phone}`);
      return ((await response.json()) as { sent: Accepted[] }).sent;
    };

    const rate = (perSecond: number) => {
      process.env.MESSAGES_PER_SECOND = String(perSecond);
    };
    const seen = new Map<string, number>();
    /** The messages a number accepted since the last look. */
    const acceptedSince = async (n: number) => {
      const all = await accepted(numberId(n));
      const fresh = all.slice(seen.get(numberId(n)) ?? 0);
      seen.set(numberId(n), all.length);
      return fresh;
    };
    const tenAt = async (perSecond: number, count: number) => {
      rate(perSecond);
      const sends = await Promise.all(numbers.map((n) => send(n, trackOrderRecipients(count))));
      await Promise.all(sends.map(settled));
      const messages = await Promise.all(numbers.map(acceptedSince));
      return {
        perSecond,
        messages: messages.flat().length,
        perNumber: messages.map(rateOf),
        peakSecond: Math.max(...messages.map(peakOf)),
        totalPerSecond: rateOf(messages.flat()),
      };
    };

    // One number at the configured rate: 2,000 recipients are two jobs, dispatched by two invocations at once.
    rate(configured);
    const oneRecipients = trackOrderRecipients(2 * perNumber + 400);
    const oneStatus = await settled(await send(1, oneRecipients));
    if (oneStatus.failed > 0) throw new Error(`one-number send failed ${oneStatus.failed} messages`);
    const one = await acceptedSince(1);
    // Ten numbers at once, at a quarter of the rate (what this machine carries), then at the configured rate.
    const quarter = await tenAt(configured / 4, perNumber / 2);
    const full = await tenAt(configured, perNumber);
    return {
      configured,
      oneNumber: { messages: one.length, jobs: Math.ceil(oneRecipients.length / 1000), perSecond: rateOf(one), peakSecond: peakOf(one) },
      tenNumbers: [quarter, full],
    };
  } finally {
    if (restore === undefined) delete process.env.MESSAGES_PER_SECOND;
    else process.env.MESSAGES_PER_SECOND = restore;
    await stack.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measure(Number(process.argv[2] ?? 800));
  process.stdout.write(`${RESULT}${JSON.stringify(result)}`);
  process.exit(0);
}
