import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  type KinesisClient,
  ListShardsCommand,
  PutRecordsCommand,
  type _Record as KinesisRecord,
} from '@aws-sdk/client-kinesis';
import type { KinesisStreamRecord } from 'aws-lambda';
import type { DeployedFunction, LambdaAnswer } from './deployed-function.ts';
import { REHEARSAL_REGION } from './moto.ts';
import type { MadeStack, Template } from './resources.ts';

/**
 * A stream-triggered worker as its event source mapping runs it (issue 54): the given bodies (a sample's) are put
 * on the stream the template maps to the function, each under its `stream_key`, then each shard is read with the
 * function's role (Lambda's poller uses it) and handed over as Lambda shapes the batch; it must come back with no
 * record reported failed.
 */
export async function runStreamWorker(
  fn: DeployedFunction,
  template: Template,
  stack: MadeStack,
  bodies: string[],
  clients: { deployer: KinesisClient; role: KinesisClient },
): Promise<{ expected: string; got: string; read?: KinesisStreamRecord[] }> {
  const mapping = Object.values(template.Resources).find(
    (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties?.FunctionName?.Ref === fn.logicalId,
  );
  if (!mapping) return { expected: 'an event source mapping', got: 'none in the template' };
  const stream = stack.resources.get(mapping.Properties!.EventSourceArn['Fn::GetAtt'][0] as string)!;
  await clients.deployer.send(
    new PutRecordsCommand({
      StreamName: stream.ref,
      Records: bodies.map((body) => ({ PartitionKey: String(JSON.parse(body).stream_key ?? 'sample'), Data: Buffer.from(body) })),
    }),
  );
  const records: KinesisStreamRecord[] = [];
  const { Shards = [] } = await clients.role.send(new ListShardsCommand({ StreamName: stream.ref }));
  for (const shard of Shards) {
    const { ShardIterator } = await clients.role.send(
      new GetShardIteratorCommand({ StreamName: stream.ref, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    const got = await clients.role.send(new GetRecordsCommand({ ShardIterator, Limit: mapping.Properties!.BatchSize ?? 100 }));
    records.push(...(got.Records ?? []).map((record) => lambdaRecord(record, shard.ShardId!, stream.attributes.Arn)));
  }
  if (records.length < bodies.length) return { expected: `at least ${bodies.length} records read`, got: `${records.length}` };
  const answer: LambdaAnswer & { thrown?: string } = await fn
    .invoke({ Records: records })
    .catch((error: Error) => ({ thrown: error.message }));
  return { expected: JSON.stringify({ batchItemFailures: [] }), got: JSON.stringify(answer), read: records };
}

/**
 * What Lambda would name on the worker's on-failure destination had it given these records up (one shard's): the
 * body a redrive hands the notifications' worker, which reads them again from the stream with its own role.
 */
export function givenUpBody(records: KinesisStreamRecord[]) {
  const [first] = records;
  const shard = records.filter((r) => r.eventID.split(':')[0] === first.eventID.split(':')[0]);
  return JSON.stringify({
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 11 },
    KinesisBatchInfo: {
      shardId: first.eventID.split(':')[0],
      startSequenceNumber: first.kinesis.sequenceNumber,
      endSequenceNumber: shard.at(-1)?.kinesis.sequenceNumber,
      batchSize: shard.length,
      streamArn: first.eventSourceARN,
    },
  });
}

/** A shard's record as Lambda hands it to the function. */
function lambdaRecord(record: KinesisRecord, shardId: string, streamArn: string): KinesisStreamRecord {
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: record.PartitionKey!,
      sequenceNumber: record.SequenceNumber!,
      data: Buffer.from(record.Data!).toString('base64'),
      approximateArrivalTimestamp: (record.ApproximateArrivalTimestamp?.getTime() ?? 0) / 1000,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${shardId}:${record.SequenceNumber}`,
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/rehearsal',
    awsRegion: REHEARSAL_REGION,
    eventSourceARN: streamArn,
  };
}
