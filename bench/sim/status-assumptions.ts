/**
 * The status path's model at Meta's HIGH level (issue 54, bench/sim/status-path.ts): every assumption it is built
 * on, in one place, each with why. Figures read from the code (batch sizes, shards, transaction limits) are not
 * here: the model imports them where they are defined.
 */
export const STATUS_ASSUMPTIONS = {
  // What Meta posts for each accepted message (upstream-facts §6.3: "typically three", sent, delivered, read).
  /**
   * Every accepted message is reported `sent`. A `sent` changes no state (statusChange: the message was sent when
   * accepted), so the worker reads it and writes nothing: no transaction holds only `sent` statuses.
   */
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
  // Item sizes in KB as the code writes them: a message's state an attribute of its block third's latest item
  // (60f5830: 30 positions, no `MSG#` item), a ledger item a number's day and pricing category (a86875a); measured by
  // `npx tsx bench/send-path-report.ts` (item sizes as DynamoDB counts them, local/request-meter.ts itemBytes). In a
  // transaction DynamoDB bills 2 units a KB, the KB rounded up.
  itemKb: {
    /**
     * `SEND#…#P… / LATEST#…`: a third of a block, 30 states (each message's state with its pricing and, priced, its
     * price, an attribute `d<offset>`): 827 bytes at its fullest, every message read and priced
     * (test/unit/latest-records.test.ts), under 1 KB: 1 KB. Issue 56 sets a delivery's time beside its state
     * (withDeliveryTimes, `a<offset>`) only where it is more than a minute (DELIVERY_SLACK_MS) from its block's
     * settlement or came before it: here a block of 90 is settled within a tenth of a second of its launches and
     * its `delivered` comes 0.2–2 s and about 3 s after (sentDelayMs, deliveredMeanMs), so about one in e^19 is past the minute and the
     * thirds do not grow. Measured all the same (test/unit/high-tier-simulation.test.ts, itemBytes): a full third
     * read and priced, 808 bytes; with all 30 times an hour after its settlement, 988; with all 30 from before it
     * (`=` and the epoch), 1,108, over 1 KB (22 of the 30 pass it): a send whose blocks stay unsettled a minute.
     */
    latest: 1,
    /**
     * `SEND#… / SEND#COUNTS#…`: 2 a write. Issue 56 adds a variant's day's figures to it (`p<variant>:<yymmdd>:<code>`,
     * performance-items.ts): at its fullest in this model, every count, one category's four charges, three failure
     * codes with their titles and two days of figures (s, d, r, c, q and the three f<code>), each sum of 10 digits,
     * 757 bytes, 449 without the figures (test/unit/high-tier-simulation.test.ts, itemBytes): under 1 KB. A fourth
     * day, or a second variant's two, would pass it; a HIGH campaign of this model is read within its day or the next.
     */
    counts: 1,
    /**
     * `LEDGER#w…#C…#… / DAY#<day>#<did>#<category>`: an item a number's day and pricing category; 2 a write (0.2 KB,
     * one market). The global sender late in its day: 5.0 KB (globalLedgerKb).
     */
    ledger: 1,
    /** `BUDGET#<client>#<00–31> / BUDGET#<month>`: 2 a write (0.1 KB). */
    budget: 1,
    /** `TIERS#… / MONTH#…`: 2 a write (0.1 KB; 1.9 KB with the global sender's 47 markets). */
    tier: 1,
    /**
     * `TEMPLATE_FIGURES#<client>#<00–15> / DAY#<day>#<waba>#<name>#<language>` (issue 56: templateDayUpdates): a
     * template's day, one attribute a figure: with all ten of this model's figures (s, d, r, y, a, c, q and three
     * f<code>) at 10 digits each, its currencies and a 26-character name, 212 bytes (the same test, itemBytes): 2 a
     * write. A name of Meta's longest, 512 characters, would make it 698 bytes: still 1.
     */
    template: 1,
  },
  /**
   * A template's day item is written by every transaction whose statuses add figures (statusFigures: a `delivered`
   * its `d` and charges, a `read` its `r`, a `failed` its `f<code>`), so by every transaction this model writes,
   * one item a template and day (one day here, one template a send). Its partition is one of the client's
   * TEMPLATE_FIGURE_SHARDS drawn at random, as randomTemplateShard draws it. Chosen: a client's numbers send one
   * template a category (its MARKETING campaign on its even numbers, its UTILITY on its odd), so each template's
   * day items take five numbers' transactions: the hottest a template day item gets in this model.
   */
  templatesPerClient: 2,
  /**
   * The whole block's latest item a send accepted before the thirds keeps (90 states: 2.3 KB, 2.8 KB for the priced
   * global sender as the send-path bench measured them on 2026-11-29: 3 KB), for the figures of before 60f5830.
   */
  wholeBlockKb: 3,
  /**
   * A global sender late in its day (issue 54): its largest ledger item, the priced run's `…#marketing` (4.97 KB: 5
   * KB billed), for the figure that shows what it would cost. Before a86875a one item held every category: 22.9 KB
   * measured, 79 KB the estimate (the figure this model used).
   */
  globalLedgerKb: 5,
  // Time: the DynamoDB calls of a status transaction as the worker makes them, one send after another.
  /** A BatchGetItem of the blocks' latest items (the messages' states) and blocks (4 ms a call, as bench/sim/world.ts). */
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
 * CloudWatch Logs (docs/high-tier.md §5): the bytes each part of the path sends a call. The functions' own lines are
 * Powertools' JSON with Lambda's context keys, measured by test/unit/log-bytes.test.ts; Lambda's START and REPORT
 * lines (JSON, with X-Ray's tracing field) are AWS's documented shapes.
 */
export const LOG_BYTES = {
  /** The intake's one line a POST (`request`, 694 bytes with a request id of 36): its other (`accepted`) is at DEBUG. */
  intakePost: 700,
  /** Lambda's START and REPORT lines of an invocation: not sent for the intake (its system logs from WARN, infra/api.ts). */
  platformInvocation: 630,
  /** The worker's line a batch (`meta statuses applied`). */
  workerBatch: 650,
  /**
   * The dispatch's, a message: a block's line (`dispatched block`), a job's (`dispatch job`) and an invocation's
   * START and REPORT, at most one of each a block of 90 (an invocation takes up to 4 jobs): an upper bound.
   */
  dispatchMessage: Math.ceil((650 + 650 + 630) / 90),
} as const;

/**
 * Kinesis Data Streams between the intake and the worker (issue 54, docs/high-tier.md §3), in place of SQS: the
 * intake puts each status as a record (PutRecord) under a partition key naming its send (the message reference Meta
 * echoes says which send, block and position), and Lambda's event source reads each shard in order, in batches.
 */
export const KINESIS = {
  /** A status as the intake queues it today (the notification's JSON: message id, status, reference, WABA, number, recipient, pricing): about 600 bytes. */
  recordBytes: 600,
  /**
   * The record in the worker's event: its data in base64 (4/3) and about 450 bytes of the event's own fields
   * (sequence number, event id, the stream's ARN, the partition key, the arrival time).
   */
  eventRecordBytes: Math.ceil((600 * 4) / 3) + 450,
  /** Lambda's synchronous payload: a batch is cut before its event passes 6 MB, whatever its BatchSize. */
  invokePayloadBytes: 6 * 2 ** 20,
  /** BatchSize at its largest (10,000); MaximumBatchingWindowInSeconds 300, so the batch is cut by its size or payload. */
  batchSize: 10_000,
  /** ParallelizationFactor: batches of a shard at once (1–10); records of one partition key stay in one, in order. */
  parallelization: 1,
  /** A shard's writes a second (records; 1 MB is the other limit), the same in on-demand and provisioned mode. */
  shardRecordsPerSecond: 1_000,
  shardBytesPerSecond: 2 ** 20,
  /**
   * Shards at 35 % of their 1,000 records a second on average: a block's `sent` and `delivered` come in a burst of
   * seconds and a send's reads on one shard, so a shard's busiest second is about 2.5 times its average (728 shards
   * at the simulation's rate keyed by kind with the code's keys: 844 at most; at 40 %, 637 shards, 1,043: over its
   * 1,000; at half, 510 shards, 1,193).
   */
  shardLoad: 0.35,
} as const;

/**
 * Prices: us-east-1 on demand, as BENCHMARKS.md's cost table takes them (DynamoDB after its 2024-11-01 cut, SQS
 * standard, Lambda arm64), and the intakes' and Kinesis Data Streams' (docs/high-tier.md names each page). HTTP APIs at this volume: 777 billion
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
  /** Kinesis Data Streams, provisioned: a shard hour, a PUT payload unit (each record's 25 KB chunks: one here). */
  kinesisShardHour: 0.015,
  kinesisPutUnit: 0.014e-6,
  /** Kinesis Data Streams, on demand: a stream hour, a GB in and a GB read (each record rounded up to 1 KB). */
  kinesisStreamHour: 0.04,
  kinesisInGb: 0.08,
  kinesisOutGb: 0.04,
  /**
   * CloudWatch Logs ingestion of Lambda's logs, standard class, tiered since 2025-05-01 by a month's GB: $0.50 for the
   * first 10 TB, $0.25 for the next 20, $0.10 for the next 20, $0.05 beyond; a GB 2^30 bytes, a TB 1,024 GB
   * (docs/high-tier.md §5 names the pages).
   */
  logTiers: [
    [10 * 1024, 0.5],
    [20 * 1024, 0.25],
    [20 * 1024, 0.1],
    [Number.POSITIVE_INFINITY, 0.05],
  ] as const,
} as const;

/** Seconds in a month of 30 days: what a log tier's GB are counted over. */
export const MONTH_SECONDS = 30 * 86_400;

/** An ALB's capacity unit (LCU), each dimension's share of one: the largest dimension is billed. */
export const ALB_LCU = {
  newConnectionsPerSecond: 25,
  /** Bytes processed an hour for Lambda targets (0.4 GB; 1 GB for instances). */
  lambdaGbPerHour: 0.4,
} as const;
