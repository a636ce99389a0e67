import { Duration, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { DispatchMessages, workers } from '#lib/manifest/workers.ts';
import type { NeedsGrants } from './grants.ts';
import type { ServiceResources } from './resources.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * The workers of the manifest (lib/manifest/workers.ts): queue consumers with their event sources (the
 * dispatcher's concurrency from the deployment's setting when given), scheduled ones on EventBridge schedules.
 */
export class ServiceWorkers {
  constructor(scope: Stack, resources: ServiceResources, grants: NeedsGrants, dispatchConcurrency?: number) {
    // Workers: queue consumers report partial batch failures; scheduled ones run on an EventBridge schedule.
    for (const worker of workers) {
      const fn = new ServiceFunction(scope, worker.name, { entry: worker.entry, timeout: Duration.seconds(worker.timeoutSeconds) });
      grants.grant(fn, worker.needs);
      if ('queue' in worker.trigger) {
        const { def, queue: mainQueue, deadLetterQueue } = resources.queues[worker.trigger.queue];
        const queue = worker.trigger.deadLetters ? deadLetterQueue : mainQueue;
        queue.grantConsumeMessages(fn);
        fn.addEnvironment(def.urlSetting, queue.queueUrl);
        fn.addEventSource(
          new SqsEventSource(queue, {
            batchSize: worker.trigger.batchSize,
            ...(worker.trigger.batchWindowSeconds && { maxBatchingWindow: Duration.seconds(worker.trigger.batchWindowSeconds) }),
            reportBatchItemFailures: true,
            ...(worker.trigger.maxConcurrency && {
              maxConcurrency: (worker.name === DispatchMessages.name && dispatchConcurrency) || worker.trigger.maxConcurrency,
            }),
          }),
        );
      } else {
        new Rule(scope, `${worker.name}Schedule`, {
          schedule: Schedule.rate(Duration.minutes(worker.trigger.everyMinutes)),
          // A run EventBridge could not start is kept; the next minute's run does the same work anyway.
          targets: [new LambdaFunction(fn, { deadLetterQueue: resources.eventsDlq, retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
        });
      }
    }
  }
}
