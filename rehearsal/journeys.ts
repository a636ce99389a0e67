import type { SQSClient } from '@aws-sdk/client-sqs';
import type { GraphEmulator } from '../local/standins/graph/emulator.ts';
import type { DeployedFunction } from './deployed-function.ts';
import { runQueueWorker } from './queue-worker.ts';
import type { MadeStack, Template } from './resources.ts';

/** What the journeys need of the rehearsal: its functions, the stack made, the filled samples, the queues. */
export interface JourneyContext {
  functions: Map<string, DeployedFunction>;
  template: Template;
  stack: MadeStack;
  emulator: GraphEmulator;
  /** A sample event of events/, as written there. */
  sample: (name: string) => SampleEvent;
  /** An event with its placeholders filled (tokens, Meta's signature of its body). */
  fill: (event: SampleEvent) => Promise<SampleEvent>;
  sqs: { deployer: SQSClient; role: (fn: DeployedFunction) => SQSClient };
}

type SampleEvent = { body?: string; rawQueryString?: string; queryStringParameters?: Record<string, string> };

export interface JourneyStep {
  name: string;
  expected: string;
  got: string;
}

/**
 * Two paths through several functions and the template's queues, bus and rule, which the samples alone do not
 * take (the send sample is a dry run, no sample changes what an event reports): a send dispatched to the Graph
 * API, and a status change whose event reaches the webhook queue by the rule. Each hop runs as its own role.
 */
export async function journeys(context: JourneyContext): Promise<JourneyStep[]> {
  const steps: JourneyStep[] = [];
  const { functions } = context;
  const invoke = async (name: string, event: SampleEvent, expected: string) => {
    const answer = await functions.get(name)!.invoke(await context.fill(event));
    const status = String(answer.statusCode);
    return status === expected ? status : `${status}: ${String(answer.body).slice(0, 300)}`;
  };
  const worker = async (name: string) => {
    const fn = functions.get(name)!;
    const role = context.sqs.role(fn);
    try {
      const outcome = await runQueueWorker(
        fn,
        context.template,
        context.stack,
        { bodies: [], awaiting: 1 },
        { deployer: context.sqs.deployer, role },
      );
      return { expected: outcome.expected, got: outcome.got };
    } finally {
      role.destroy();
    }
  };

  if (functions.has('SendTemplate') && functions.has('DispatchMessages')) {
    // The send sample, sent for real to one number: SendTemplate queues the job, DispatchMessages sends it.
    const send = context.sample('SendTemplate');
    const payload = JSON.parse(send.body!) as { recipients: { to: string }[] };
    payload.recipients = [{ ...payload.recipients[0], to: '5215550100001' }];
    const accepted = context.emulator.model.sent.length;
    steps.push({
      name: 'a send: SendTemplate queues its job',
      expected: '200',
      got: await invoke(
        'SendTemplate',
        { ...send, body: JSON.stringify(payload), rawQueryString: '', queryStringParameters: undefined },
        '200',
      ),
    });
    steps.push({ name: 'a send: DispatchMessages takes the job', ...(await worker('DispatchMessages')) });
    steps.push({
      name: 'a send: the Graph API accepted its message',
      expected: '1',
      got: String(context.emulator.model.sent.length - accepted),
    });
  }
  if (['ReceiveMetaWebhook', 'ApplyMetaNotifications', 'DeliverWebhooks'].every((name) => functions.has(name))) {
    // Meta pauses the sample's template: the webhook route queues the notification, the worker applies it and
    // publishes the change to the bus, the rule hands it to the webhook queue.
    const notification = context.sample('ReceiveMetaWebhook');
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100200300',
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'PAUSED',
                message_template_id: 9001,
                message_template_name: 'order_update',
                message_template_language: 'en_US',
                reason: 'NONE',
              },
            },
          ],
        },
      ],
    });
    steps.push({
      name: 'an event: Meta pauses a template (ReceiveMetaWebhook)',
      expected: '200',
      got: await invoke('ReceiveMetaWebhook', { ...notification, body }, '200'),
    });
    steps.push({ name: 'an event: ApplyMetaNotifications applies it', ...(await worker('ApplyMetaNotifications')) });
    steps.push({ name: 'an event: the rule queued it, DeliverWebhooks takes it', ...(await worker('DeliverWebhooks')) });
  }
  return steps;
}
