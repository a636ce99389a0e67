import { randomUUID } from 'node:crypto';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type LocalServer, serveWhole } from './local-server.ts';
import { EVENT_RULES, matchesPattern } from '#lib/manifest/events.ts';

/**
 * A stand-in for EventBridge's PutEvents (AWS JSON 1.1, `AWSEvents.PutEvents`): each entry becomes the
 * event EventBridge would deliver and goes to the targets of the rules it matches, by the same patterns the
 * stack declares (lib/manifest/events.ts). Routed events are kept for inspection; faults can be injected.
 */
export interface RoutedEvent {
  rule: string;
  event: Record<string, unknown>;
}

export class LocalEventBridge {
  readonly routed: RoutedEvent[] = [];
  private failures: { times: number; match?: string }[] = [];
  private local?: LocalServer;
  url = '';

  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Record<string, string>,
  ) {}

  /** Fails the next `times` PutEvents calls, only those whose entries contain `match` when it is given. */
  failNext(times: number, match?: string) {
    this.failures.push({ times, match });
  }

  async start(host: string) {
    this.local = await serveWhole(async (req, res, body) => {
      const target = req.headers['x-amz-target'];
      if (target !== 'AWSEvents.PutEvents') {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        return res.end(JSON.stringify({ __type: 'UnknownOperationException', message: `unsupported ${String(target)}` }));
      }
      const text = body.toString();
      const fault = this.failures.find((f) => f.times > 0 && (!f.match || text.includes(f.match)));
      if (fault) {
        fault.times--;
        this.failures = this.failures.filter((f) => f.times > 0);
        res.writeHead(500, { 'content-type': 'application/x-amz-json-1.1' });
        return res.end(JSON.stringify({ __type: 'InternalException', message: 'Injected fault' }));
      }
      const input = JSON.parse(text) as { Entries: Record<string, string>[] };
      const entries = [];
      for (const entry of input.Entries) {
        const id = randomUUID();
        const event = {
          version: '0',
          id,
          'detail-type': entry.DetailType,
          source: entry.Source,
          account: '000000000000',
          time: new Date().toISOString(),
          region: 'us-east-1',
          resources: [],
          detail: JSON.parse(entry.Detail),
        };
        for (const rule of EVENT_RULES) {
          if (!matchesPattern(rule.pattern, event)) continue;
          await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrls[rule.targetQueue], MessageBody: JSON.stringify(event) }));
          this.routed.push({ rule: rule.name, event });
        }
        entries.push({ EventId: id });
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: entries }));
    }, host);
    this.url = this.local.url;
    return this.url;
  }

  async stop() {
    await this.local?.stop();
  }
}
