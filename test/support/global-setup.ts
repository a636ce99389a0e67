import type { TestProject } from 'vitest/node';
import { STACK_GRAPH_TIMEOUT_MS } from './graph-timeouts.ts';
import { profileStackProcess } from './stack-profile.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    graphUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    sqsEndpoint: string;
    dispatchQueueUrl: string;
  }
}

/** Starts the local stack once per test run; every HTTP test talks to it over real sockets. */
export default async function setup(project: TestProject) {
  process.env.LOG_LEVEL ??= 'SILENT';
  // A short upstream timeout keeps the timeout tests quick (graph-timeouts.ts); production uses the 5 s default.
  // Message sends keep their 10 s (GRAPH_MESSAGE_TIMEOUT_MS): a send without an answer costs its recipient.
  process.env.GRAPH_API_TIMEOUT_MS ??= String(STACK_GRAPH_TIMEOUT_MS);
  // Webhook deliveries to the tests' own receivers on 127.0.0.1, retried at once (decisions §15).
  process.env.ALLOW_LOCAL_WEBHOOKS ??= 'true';
  process.env.WEBHOOK_RETRY_BASE_SECONDS ??= '0';
  // A paused send's jobs sleep the deployed 300 s (PAUSED_RECHECK_SECONDS): a resume the tests see is Meta's event
  // waking them (decisions §25, issue 44), not a short recheck.
  // Imported only now, so the logger is made after LOG_LEVEL is set.
  const { startLocalStack } = await import('../../local/stack.ts');
  // Every stack file's requests, for minutes: DynamoDB Local's JVM compiles for that (local/parts/dynamodb.ts).
  const stack = await startLocalStack({ dynamoLoad: 'busy' });
  const endProfile = await profileStackProcess();
  // The settings it gave this process (its functions run here), named so a stack started as a child process
  // (test/support/child-stack.ts) does not inherit them: it would take GRAPH_API_URL as an upstream of the user's.
  process.env.LOCAL_STACK_SETTINGS = Object.keys(stack.settings).join(',');
  project.provide('apiUrl', stack.apiUrl);
  project.provide('graphUrl', stack.graphUrl);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', stack.tableName);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('dispatchQueueUrl', stack.queueUrls.dispatch);
  return async () => {
    await endProfile();
    await stack.stop();
  };
}
