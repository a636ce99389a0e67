import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceTable } from '../client.ts';
import { keys } from '../table.ts';

/** A WABA's ledger partition as written before decisions §32 (`LEDGER#<waba>#<00–07>`): every client's charges. */
const WABA_PARTITION = /^LEDGER#([^#]+)#(\d{2})$/;
/** The sort key suffix of a client's part of an older item: read with the day's or month's items (`…#~` ends them). */
export const REKEYED = '#rekeyed';
/** Items a transaction may write, less the older item's delete. */
const PUTS_A_TRANSACTION = 99;

/**
 * Moves the cost ledger's day and late-charge items written before the ledger was keyed by client (decisions §32)
 * to each client's own partitions: each older item becomes one item a client (its figures only, the same shard, its
 * sort key plus REKEYED), put in the transaction that deletes it. Safe to run again after a crash (the puts are
 * the same items) and beside the status path (which writes other keys). It reads the whole table (a Scan), so it
 * is a migration, never a request's path: the local stack runs it on kept data, a deployment once after the upgrade.
 */
export async function rekeyLedgerItems(table: ServiceTable): Promise<{ items: number; parts: number }> {
  let start: Record<string, unknown> | undefined;
  const moved = { items: 0, parts: 0 };
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: 'begins_with(pk, :ledger) AND (begins_with(sk, :day) OR begins_with(sk, :late))',
        ExpressionAttributeValues: { ':ledger': 'LEDGER#', ':day': 'DAY#', ':late': 'LATE#' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const partition = WABA_PARTITION.exec(String(item.pk));
      if (!partition) continue;
      const parts = clientPartsOf(item, partition[1], Number(partition[2]));
      await moveItem(table, item, parts);
      moved.items++;
      moved.parts += parts.length;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return moved;
}

/** An older item's figures by client (each figure's name is `<prefix>|<client>|…`), as items of the client's own. */
function clientPartsOf(item: Record<string, unknown>, wabaId: string, shard: number) {
  const shared: Record<string, unknown> = {};
  const byClient = new Map<string, Record<string, unknown>>();
  for (const [name, value] of Object.entries(item)) {
    const client = name.includes('|') ? name.split('|')[1] : undefined;
    if (client === undefined) shared[name] = value;
    else byClient.set(client, { ...byClient.get(client), [name]: value });
  }
  return [...byClient].map(([client, figures]) => ({
    ...shared,
    ...figures,
    pk: keys.clientLedger(wabaId, Number(client), shard),
    sk: `${String(item.sk)}${REKEYED}`,
  }));
}

/** The parts put, the older item deleted with the last of them (a crash between puts the same parts again). */
async function moveItem(table: ServiceTable, item: Record<string, unknown>, parts: Record<string, unknown>[]) {
  const puts = parts.map((Item) => ({ Put: { TableName: table.name, Item } }));
  const remove = { Delete: { TableName: table.name, Key: { pk: item.pk, sk: item.sk } } };
  for (let at = 0; at < Math.max(puts.length, 1); at += PUTS_A_TRANSACTION) {
    const chunk: object[] = puts.slice(at, at + PUTS_A_TRANSACTION);
    if (at + PUTS_A_TRANSACTION >= puts.length) chunk.push(remove);
    await table.client.send(new TransactWriteCommand({ TransactItems: chunk as never }));
  }
}
