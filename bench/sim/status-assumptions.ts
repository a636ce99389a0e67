/**
 * The status path's model at Meta's HIGH level (issue 54, bench/sim/status-path.ts): every assumption it is built
 * on, in one place, each with why. Figures read from the code (batch sizes, shards, transaction limits) are not
 * here: the model imports them where they are defined.
 */
export const STATUS_ASSUMPTIONS = {
  // What Meta posts for each accepted message (upstream-facts §6.3: "typically three", sent, delivered, read).
  /** Every accepted message is reported `sent`. */
  sentShare: 1,
  /** Then `delivered`, or `failed` after acceptance for the rest (chosen: 2 % failed, none given upstream). */
  deliveredShare: 0.98,
  /** `read` for most (the issue: "usually read"; chosen 80 %: receipts off or never opened for the rest). */
  readShare: 0.8,
  /**
   * POSTs Meta sends again (webhooks are at least once; the service answers before it applies, decisions §13, so
   * only a lost answer makes one): chosen 1 %. A repeat changes nothing (the worker reads it and writes nothing).
   */
  repeatShare: 0.01,
  // When each arrives after the message was accepted: no delays are given upstream; chosen, and why.
  /** `sent` within 0.2–2 s (uniform): Meta posts it when the message leaves its servers. */
  sentDelayMs: [200, 2_000] as const,
  /** `delivered` that and an exponential wait of 3 s on average: most phones are online. */
  deliveredMeanMs: 3_000,
  /** `read` that and an exponential wait of 20 minutes on average: people open messages late. */
  readMeanMs: 20 * 60_000,
  // The senders.
  /** Each number sends campaigns of this many back to back (a send a number at a time, the dispatch row's). */
  campaignSize: 100_000,
  /** Numbers per client, one WABA each (chosen: a provider's largest clients run 10 HIGH numbers each). */
  numbersPerClient: 10,
  /** Odd numbers send UTILITY (tier-counted, decisions §26: a tier month item in each charged write), even MARKETING. */
  tierCountedNumbers: 'odd' as const,
  // Item sizes in KB as BENCHMARKS.md's "where the units go" line measures them (units a write / 2 in a transaction).
  itemKb: {
    /** `SEND#…#P… / MSG#…`: 2.81 units a message over 2,250 writes of 1,600 items: 2 a write. */
    message: 1,
    /** `SEND#…#P… / LATEST#…`: 0.71 a message, 189 writes: 6 a write (a block's 90 states, about 3 KB). */
    latest: 3,
    /** `SEND#… / SEND#COUNTS#…`: 0.25 a message, 201 writes: 2 a write. */
    counts: 1,
    /** `LEDGER#w…#… / DAY#…#…`: 0.20 a message, 162 writes: 2 a write (one market; the global sender: 79 KB). */
    ledger: 1,
    /** `CLIENT#… / BUDGET#…#…`: 0.20, 162 writes: 2 a write. */
    budget: 1,
    /** `TIERS#… / MONTH#…`: not in that run (MARKETING); a month's market × category counts: taken as 1 KB. */
    tier: 1,
  },
  /** A global sender late in its day (issue 54): its ledger item, for the figure that shows what it would cost. */
  globalLedgerKb: 79,
  // Time: the DynamoDB calls of a status transaction as the worker makes them, one send after another.
  /** A BatchGetItem of the messages' states and their blocks (4 ms a call, as bench/sim/world.ts). */
  readMs: 4,
  /** A TransactWriteItems (a transaction's two phases: taken as 3 calls). */
  transactMs: 12,
  /** An invocation's own time besides its calls (parsing, routing, logging). */
  invocationMs: 10,
  /** The intake: the signature checked and one SendMessage (about 10 ms in AWS) in an invocation of 15 ms. */
  intakeMs: 15,
  /** Every function's memory (infra/service-function.ts: 512 MB, arm64). */
  memoryGb: 0.5,
  /** A status POST and its answer as they cross the intake (a statuses webhook with contacts and pricing). */
  requestBytes: 2_048,
  /** Meta's webhook calls are not documented to reuse connections: each POST taken as a new TLS connection. */
  newConnectionShare: 1,
} as const;

/**
 * Prices: us-east-1 on demand, as BENCHMARKS.md's cost table takes them (DynamoDB after its 2024-11-01 cut, SQS
 * standard, Lambda arm64), and the intakes' (docs/high-tier.md names each page). HTTP APIs at this volume: 777 billion
 * requests a month at 300,000 a second, nearly all beyond the first billion, at $0.80 a million.
 */
export const PRICES = {
  writeUnit: 0.625e-6,
  readUnit: 0.125e-6,
  sqsRequest: 0.4e-6,
  lambdaRequest: 0.2e-6,
  lambdaGbSecond: 0.0000133334,
  httpApiRequest: 0.8e-6,
  albHour: 0.0225,
  albLcuHour: 0.008,
} as const;

/** An ALB's capacity unit (LCU), each dimension's share of one: the largest dimension is billed. */
export const ALB_LCU = {
  newConnectionsPerSecond: 25,
  /** Bytes processed an hour for Lambda targets (0.4 GB; 1 GB for instances). */
  lambdaGbPerHour: 0.4,
} as const;
