import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { addMissingIndexes } from '../../local/parts/dynamodb.ts';
import { useStackTable } from '../support/seed.ts';
import { tableClient } from '#lib/wiring/table.ts';

/**
 * A table kept by an earlier version (decisions §16) has neither the listing's indexes nor its derived items:
 * the local stack adds the indexes and rebuilds the items, and the listing and the DID check then answer from
 * them. On a table of this file's own in the stack's DynamoDB Local.
 */
const TABLE = `kept-${Date.now()}`;
useStackTable();
/** The adapters get this file's own table through their constructors. */
const table = { client: tableClient(), name: TABLE };

const DERIVED = ['assignments_version', 'listing_count', 'client_channel'];

describe('data kept by an earlier version', () => {
  it('gets the missing indexes and its derived items, then lists and checks DIDs from them', async () => {
    // Prepare: the old table (gsi1 and gsi2 only) holding the demo directory as the old import wrote it
    const client = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    await client.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [1, 2].map((n) => ({
          IndexName: `gsi${n}`,
          KeySchema: [
            { AttributeName: `gsi${n}pk`, KeyType: 'HASH' as const },
            { AttributeName: `gsi${n}sk`, KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        })),
      }),
    );
    const { readFileSync } = await import('node:fs');
    const { parseDirectoryFile } = await import('#lib/adapters/directory-file.ts');
    const { directoryItems } = await import('#lib/adapters/dynamo/shared/directory-import.ts');
    const { rebuildDerivedItems } = await import('#lib/adapters/dynamo/derived-items.ts');
    const { putAll } = await import('#lib/adapters/dynamo/batch-write.ts');
    const fixture = parseDirectoryFile(JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8')));
    const old = directoryItems(fixture)
      .filter((item) => !DERIVED.includes(String(item.entity)))
      .map(({ listing_campaign_pk: _c, listing_sk: _s, ...item }) => item);
    await putAll(table, old);
    // Act
    const added = await addMissingIndexes(client, TABLE);
    const rebuilt = await rebuildDerivedItems(table);
    // Assess
    expect(added).toContain('listing');
    expect(await addMissingIndexes(client, TABLE)).toEqual([]);
    expect(rebuilt.entries).toBeGreaterThan(0);
    const { DynamoTemplateListing } = await import('#lib/adapters/dynamo/templates/template-listing.ts');
    const { DynamoDirectoryStore } = await import('#lib/adapters/dynamo/shared/directory-store.ts');
    const page = await new DynamoTemplateListing(table).listingPage(7, { deleted: false }, { offset: 0, size: 20 });
    expect(page.total).toBeGreaterThan(0);
    expect(page.entries.map((e) => e.facets.name)).toContain('order_update');
    expect(
      (await new DynamoTemplateListing(table).listingPage(7, { deleted: false, campaignName: 'Unassigned' }, { offset: 0, size: 20 }))
        .total,
    ).toBeGreaterThanOrEqual(0);
    expect(await new DynamoDirectoryStore(table).channelOfClient(7, '5215550001')).toMatchObject({ wa_id: '5215550001' });
  });
});
