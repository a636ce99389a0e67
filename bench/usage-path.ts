import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ledgerWrites } from '#lib/adapters/dynamo/money/ledger-items.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { ledgerEntryKey } from '#lib/adapters/dynamo/sends/send-items.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { keys, LEDGER_SHARDS } from '#lib/adapters/dynamo/table.ts';
import { usage } from '#lib/domain/money/usage.ts';
import type { Caller } from '#lib/domain/shared/caller.ts';
import { inParallel } from '#lib/domain/shared/parallel.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import type { SendAcceptContext } from './send-accept.ts';
import type { StoreRow } from './harness.ts';

const table = serviceTable();
/** Two clients of one WABA: the caller charged on 12 days of the year, the other on each of 366 days, 4 numbers. */
const [CALLER, OTHER, WABA] = [961, 962, 'w961'];
const DAYS = 366;
const OTHER_NUMBERS = 4;
const dayBefore = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const MARKETS = ['Mexico', 'Brazil', 'India', 'Indonesia'];

async function chargeDay(clientId: number, did: string, day: string) {
  const entries = new Map(
    MARKETS.map((market) => [
      ledgerEntryKey({ market, category: 'marketing', currency: 'USD' }),
      { messages: 3, billable: 3, micros: 90_000 },
    ]),
  );
  const owner = { waba_id: WABA, client_id: clientId, did };
  await table.client.send(
    new TransactWriteCommand({ TransactItems: ledgerWrites(table.name, owner, new Map([[day, entries]]), Date.now()) as never }),
  );
}

/**
 * `GET /v1/usage` of a year by one client of a WABA it shares with a client sending from 4 numbers every day
 * (decisions §32: money reads keyed by client): the caller's items read, never the other's. The baseline is the
 * fewest requests that work needs: the same reads of the client's lists, WABAs and Meta shares, and the caller's
 * ledger partitions queried directly.
 */
export async function measureSharedWabaUsage(ctx: Pick<SendAcceptContext, 'rounds' | 'metered' | 'alternating'>): Promise<StoreRow> {
  await importDirectory(table, {
    clients: [CALLER, OTHER].map((client_id) => ({ client_id, client_name: `Usage ${client_id}` })),
    wabas: [{ waba_id: WABA, waba_name: WABA, business_id: 'b', business_name: 'b', namespace: 'ns', templates: [] }],
    channels: [CALLER, OTHER].map((client_id) => ({ wa_id: `52${client_id}0001`, client_id, waba_id: WABA })),
  });
  const days = Array.from({ length: DAYS }, (_, i) => dayBefore(i));
  await inParallel(days, 16, async (day, i) => {
    if (i % 30 === 0) await chargeDay(CALLER, `52${CALLER}0001`, day);
    for (let n = 0; n < OTHER_NUMBERS; n++) await chargeDay(OTHER, `52${OTHER}000${n}`, day);
  });
  const deps = {
    ledger: new DynamoCostLedger(table),
    directory: new DynamoDirectoryStore(table),
    sends: new DynamoSendRecords(table),
    priceLists: new DynamoPriceListStore(table),
  };
  const caller = { sub: 'bench', clientId: CALLER, isBsp: false, campaigns: [] } as unknown as Caller;
  const query = { from: days[DAYS - 1], to: days[0], group_by: 'day' };
  const ours = () => usage(deps, caller, query as never);
  // The reads the work needs besides the ledger (the client's lists, WABAs and Meta shares) issued as the adapters
  // do, the ledger's partitions queried directly, in the same order of waits.
  const direct = async () => {
    await Promise.all([deps.priceLists.lists(CALLER), deps.directory.listClientWabas(CALLER)]);
    await Promise.all([
      deps.ledger.metaShares(CALLER, query.from, query.to),
      inParallel(
        Array.from({ length: LEDGER_SHARDS }, (_, shard) => keys.clientLedger(WABA, CALLER, shard)),
        8,
        (pk) =>
          table.client.send(
            new QueryCommand({
              TableName: table.name,
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': pk, ':from': keys.ledgerDay(query.from), ':to': keys.ledgerDayEnd(query.to) },
            }),
          ),
      ),
    ]);
  };
  const read = await ctx.metered(ours);
  const [ms, baselineMs] = await ctx.alternating(ctx.rounds * 4, ours, direct);
  const callerItems = Math.ceil(DAYS / 30);
  const otherItems = DAYS * OTHER_NUMBERS;
  return {
    path: `GET /v1/usage of ${DAYS} days by a client of a shared WABA (its ${callerItems} number days beside the other client's ${otherItems})`,
    ms,
    baselineMs,
    baseline: "the client's lists, WABAs and Meta shares read, and its 8 ledger partitions queried directly for the range",
    counts: `${read.meter.itemsRead} items read in ${read.meter.operations.length} requests (the other client's ${otherItems} never)`,
    budget: `items read ≤ the caller's + 10, ≤ 1.5×: ${read.meter.itemsRead <= callerItems + 10 && ms / baselineMs <= 1.5 ? 'met' : 'NOT met'}`,
  };
}
