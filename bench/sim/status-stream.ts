import { randomFrom } from './sends.ts';
import { STATUS_ASSUMPTIONS as A } from './status-assumptions.ts';

/**
 * Meta's status POSTs as they arrive at the intake in a window of the steady state (issue 54): each number sends
 * at `rate` a second, campaigns of A.campaignSize back to back, and each accepted message brings its statuses after
 * the delays of bench/sim/status-assumptions.ts. A status in the window is drawn by its arrival, its delay, and
 * so the moment its message was accepted: which send, which position.
 */
export type StatusKind = 'sent' | 'delivered' | 'failed' | 'read';

export interface ArrivingStatus {
  at: number;
  number: number;
  /** The send on its number (its campaigns in order) and the message's position in it. */
  send: number;
  index: number;
  kind: StatusKind;
  /** A POST Meta sent again: the worker reads it and writes nothing. */
  repeat: boolean;
}

/** Positions count from a day before the window: every message a status in it reports was accepted after that. */
const HISTORY_MS = 24 * 3_600_000;

/** A draw from the exponential distribution of `mean`. */
const exponential = (next: () => number, mean: number) => -Math.log(1 - next()) * mean;

/** How long after its message's acceptance a status of `kind` arrives. */
function delayOf(kind: StatusKind, next: () => number) {
  const [low, high] = A.sentDelayMs;
  const sent = low + next() * (high - low);
  if (kind === 'sent') return sent;
  const delivered = sent + exponential(next, A.deliveredMeanMs);
  return kind === 'read' ? delivered + exponential(next, A.readMeanMs) : delivered;
}

/** Statuses a message brings, by kind, as shares of the messages accepted. */
const SHARES: [StatusKind, number][] = [
  ['sent', A.sentShare],
  ['delivered', A.deliveredShare],
  ['failed', 1 - A.deliveredShare],
  ['read', A.readShare],
];

/** The statuses arriving in `windowMs` (from `fromMs`) at numbers sending `rate` a second each, in the order they arrive. */
export function statusStream({
  numbers,
  rate,
  windowMs,
  seed = 5454,
  fromMs = 0,
}: {
  numbers: number;
  rate: number;
  windowMs: number;
  seed?: number;
  fromMs?: number;
}) {
  const next = randomFrom(seed);
  const stream: ArrivingStatus[] = [];
  for (let number = 1; number <= numbers; number++)
    for (const [kind, share] of SHARES) {
      const count = Math.round((rate * share * windowMs) / 1000);
      const repeats = Math.round(count * A.repeatShare);
      for (let n = 0; n < count + repeats; n++) {
        const at = fromMs + next() * windowMs;
        const accepted = HISTORY_MS + at - delayOf(kind, next);
        const position = Math.floor((accepted / 1000) * rate);
        const index = position % A.campaignSize;
        stream.push({ at, number, send: Math.floor(position / A.campaignSize), index, kind, repeat: n >= count });
      }
    }
  return stream.sort((a, b) => a.at - b.at);
}

/**
 * The same stream over a long window, a slice of `sliceMs` at a time (each drawn as statusStream draws a window,
 * from a seed of its own), so a run of a minute never holds its millions of statuses at once.
 */
export function* statusSlices(options: { numbers: number; rate: number; windowMs: number; seed?: number; sliceMs?: number }) {
  const { sliceMs = 1_000, seed = 5454 } = options;
  for (let fromMs = 0; fromMs < options.windowMs; fromMs += sliceMs)
    yield statusStream({ ...options, windowMs: Math.min(sliceMs, options.windowMs - fromMs), fromMs, seed: seed + fromMs / sliceMs });
}

/** Messages accepted in the window the stream reports on (the figures' denominator). */
export const messagesOf = (numbers: number, rate: number, windowMs: number) => numbers * rate * (windowMs / 1000);
