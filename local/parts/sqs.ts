import type { Server } from 'node:http';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { dlqName, QUEUES } from '#lib/queues.ts';
import { freePort, type Stop } from './network.ts';

export interface LocalQueue {
  url: string;
  arn: string;
}

/** `local-aws-sqs` with the stack's queues (lib/queues.ts) and their dead-letter queues, redrive included. */
export async function startSqs(
  host: string,
  region: string,
): Promise<{
  endpoint: string;
  sqs: SQSClient;
  queues: Record<keyof typeof QUEUES, LocalQueue>;
  dlqs: Record<keyof typeof QUEUES, LocalQueue>;
  stop: Stop;
}> {
  const { createSqsServer } = (await import('local-aws-sqs')) as unknown as {
    createSqsServer(o: Record<string, unknown>): Promise<Server>;
  };
  const port = await freePort(host);
  const server = await createSqsServer({ port, hostname: host, emulateQueueCreationLifecycle: false });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  const endpoint = `http://${host}:${port}`;
  const sqs = new SQSClient({ endpoint, region });
  const arnOf = async (url: string) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
  const queues = {} as Record<keyof typeof QUEUES, LocalQueue>;
  const dlqs = {} as Record<keyof typeof QUEUES, LocalQueue>;
  for (const [key, queue] of Object.entries(QUEUES) as [keyof typeof QUEUES, (typeof QUEUES)[keyof typeof QUEUES]][]) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: dlqName(queue) }));
    dlqs[key] = { url: dlq.QueueUrl ?? '', arn: await arnOf(dlq.QueueUrl ?? '') };
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: queue.name,
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await arnOf(dlq.QueueUrl ?? ''), maxReceiveCount: queue.maxReceiveCount }),
        },
      }),
    );
    const url = created.QueueUrl ?? '';
    queues[key] = { url, arn: await arnOf(url) };
  }
  return { endpoint, sqs, queues, dlqs, stop };
}
