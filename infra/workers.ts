import { Duration, NestedStack, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { DispatchMessages, type StreamTrigger, type WorkerDef, workers } from '#lib/manifest/workers.ts';
import type { NeedsGrants } from './grants.ts';
import type { ServiceResources } from './resources.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * The workers of the manifest (lib/manifest/workers.ts), in a nested stack of their own (docs/operations.md,
 * "Quotas"): each with its function, role, policy and log group, and its trigger: a queue's event source (the
 * dispatcher's concurrency from the deployment's setting when given) or an EventBridge schedule. The table,
 * queues, bus and secrets stay in the parent, which CDK hands in as parameters; the alarms stay in `Monitoring`.
 */
export class ServiceWorkers {
  readonly stack: NestedStack;

  constructor(
    scope: Stack,
    private readonly resources: ServiceResources,
    grants: NeedsGrants,
    private readonly dispatchConcurrency?: number,
  ) {
    this.stack = new NestedStack(scope, 'Workers', { description: 'Template Messaging Service: workers' });
    for (const worker of workers) {
      const fn = new ServiceFunction(this.stack, worker.name, { entry: worker.entry, timeout: Duration.seconds(worker.timeoutSeconds) });
      grants.grant(fn, worker.needs);
      if ('queue' in worker.trigger) this.consume(fn, worker, worker.trigger);
      else if ('stream' in worker.trigger) this.read(fn, worker.trigger);
      else this.schedule(fn, worker, worker.trigger.everyMinutes);
    }
  }

  /** A queue consumer reports partial batch failures: only the messages that failed come back. */
  private consume(fn: ServiceFunction, worker: WorkerDef, trigger: Extract<WorkerDef['trigger'], { queue: unknown }>) {
    const { def, queue: mainQueue, deadLetterQueue } = this.resources.queues[trigger.queue];
    const queue = trigger.deadLetters ? deadLetterQueue : mainQueue;
    queue.grantConsumeMessages(fn);
    fn.addEnvironment(def.urlSetting, queue.queueUrl);
    fn.addEventSource(
      new SqsEventSource(queue, {
        batchSize: trigger.batchSize,
        ...(trigger.batchWindowSeconds && { maxBatchingWindow: Duration.seconds(trigger.batchWindowSeconds) }),
        reportBatchItemFailures: true,
        ...(trigger.maxConcurrency && {
          maxConcurrency: (worker.name === DispatchMessages.name && this.dispatchConcurrency) || trigger.maxConcurrency,
        }),
      }),
    );
  }

  /**
   * A stream consumer (issue 54): each shard's batches in order, partial failures reported, a failing batch halved,
   * and a batch given up after its retries named on its dead-letter queue (the records stay on the stream for its
   * retention, to read again).
   */
  private read(fn: ServiceFunction, trigger: StreamTrigger) {
    fn.addEventSource(
      new KinesisEventSource(this.resources.streams[trigger.stream], {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: trigger.batchSize,
        maxBatchingWindow: Duration.seconds(trigger.batchWindowSeconds),
        parallelizationFactor: trigger.parallelization,
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: trigger.retryAttempts,
        onFailure: new SqsDlq(this.resources.queues[trigger.failuresTo].deadLetterQueue),
      }),
    );
  }

  private schedule(fn: ServiceFunction, worker: WorkerDef, everyMinutes: number) {
    new Rule(this.stack, `${worker.name}Schedule`, {
      schedule: Schedule.rate(Duration.minutes(everyMinutes)),
      // A run EventBridge could not start is kept; the next minute's run does the same work anyway.
      targets: [new LambdaFunction(fn, { deadLetterQueue: this.resources.eventsDlq, retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });
  }
}
