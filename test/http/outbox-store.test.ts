import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { useStackTable } from '../support/seed.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * The outbox on DynamoDB Local, with throttling injected into the AWS client it is given. The events are dated in
 * the future, so the local relay (which takes events older than a minute) never takes them meanwhile.
 */

const events = (count: number, at: string): ServiceEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `outbox-${at}-${i}`,
    type: 'template.created',
    occurred_at: at,
    client_id: 1,
    data: {} as never,
  }));

/** The stack's table through a client that counts commands and throttles the first `throttled` batch writes. */
function instrumented(throttled: number) {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1' }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const commands: string[] = [];
  let left = throttled;
  const send = client.send.bind(client);
  client.send = (async (command: { constructor: { name: string }; input: { RequestItems?: unknown } }) => {
    commands.push(command.constructor.name);
    // Throttled: DynamoDB accepts the call and hands every request back unprocessed.
    if (command.constructor.name === 'BatchWriteCommand' && left-- > 0) return { UnprocessedItems: command.input.RequestItems };
    return send(command as never);
  }) as never;
  return { commands, table: { client, name: table.name } };
}

describe('the DynamoDB outbox', () => {
  it('retries the deletes DynamoDB leaves unprocessed, so a published event is never relayed again', async () => {
    // Prepare: 30 events in the outbox
    useStackTable();
    const at = '2998-01-01T00:00:00.000Z';
    const written = events(30, at);
    await new DynamoTemplateRecords(table).register([], written);
    const throttled = instrumented(2);
    // Act
    await new DynamoOutboxStore(throttled.table).remove(written.map((e) => e.id));
    // Assess
    expect(throttled.commands.filter((c) => c === 'BatchWriteCommand').length).toBeGreaterThanOrEqual(4);
    const outbox = new DynamoOutboxStore(table);
    const left = (await outbox.pending('2998-01-01T00:00:01.000Z', 1000)).filter((e) => e.id.startsWith(`outbox-${at}`));
    expect(left).toEqual([]);
  });

  it('reads one page to relay 100 events, not the whole backlog', async () => {
    useStackTable();
    const at = '2997-01-01T00:00:00.000Z';
    await new DynamoTemplateRecords(table).register([], events(150, at));
    const counted = instrumented(0);
    const pending = await new DynamoOutboxStore(counted.table).pending('2997-01-01T00:00:01.000Z', 100);
    expect(pending).toHaveLength(100);
    expect(counted.commands).toEqual(['QueryCommand']);
    await new DynamoOutboxStore(table).remove(events(150, at).map((e) => e.id));
  });
});
