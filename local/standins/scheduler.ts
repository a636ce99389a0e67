import { existsSync, readFileSync } from 'node:fs';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { saveJson } from '../parts/persistence.ts';
import { type LocalServer, serveWhole } from './local-server.ts';

/**
 * A stand-in for EventBridge Scheduler's one-time schedules (REST JSON: `POST /schedules/{Name}` CreateSchedule,
 * `DELETE /schedules/{Name}` DeleteSchedule), as the send's adapter calls them: an `at(…)` expression in UTC
 * whose target is an SQS queue, deleted after it runs. Each schedule is on disk (in the data folder) before
 * CreateSchedule answers, and leaves it only after its message is on the queue, so a SIGKILL in between loses
 * none (a schedule run twice sends its message twice, which its consumer takes as once).
 */
export interface LocalSchedule {
  name: string;
  group: string;
  /** When it runs, epoch ms. */
  at: number;
  targetArn: string;
  input: string;
}

/** How often due schedules are looked for: EventBridge Scheduler runs a one-time schedule within a minute. */
const TICK_MS = 1000;
const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

export class LocalScheduler {
  private schedules = new Map<string, LocalSchedule>();
  private local?: LocalServer;
  private timer?: NodeJS.Timeout;
  private running = false;
  url = '';

  constructor(
    private readonly sqs: SQSClient,
    /** Queue URLs by queue ARN: where a target's message goes. */
    private readonly queueUrls: Record<string, string>,
    /** The file that keeps the schedules between runs; in memory when absent. */
    private readonly file?: string,
  ) {
    if (file && existsSync(file))
      for (const schedule of JSON.parse(readFileSync(file, 'utf8')) as LocalSchedule[]) this.schedules.set(this.keyOf(schedule), schedule);
  }

  /** Schedules not run yet (kept from an earlier run too). */
  pending(): LocalSchedule[] {
    return [...this.schedules.values()];
  }

  async start(host: string) {
    this.local = await serveWhole((req, res, body) => {
      const answer = this.answer(req.method ?? '', new URL(req.url ?? '/', 'http://local'), body.toString());
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(answer.error && { 'x-amzn-errortype': answer.error }),
      });
      res.end(JSON.stringify(answer.body));
    }, host);
    this.url = this.local.url;
    this.timer = setInterval(() => void this.runDue(), TICK_MS);
    await this.runDue();
    return this.url;
  }

  async stop() {
    clearInterval(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
    await this.local?.stop();
  }

  private keyOf(schedule: { group: string; name: string }) {
    return `${schedule.group}/${schedule.name}`;
  }

  private answer(method: string, url: URL, text: string): { status: number; body: unknown; error?: string } {
    const match = /^\/schedules\/([0-9A-Za-z_.-]{1,64})$/.exec(url.pathname);
    if (!match)
      return { status: 404, body: { Message: `no such operation: ${method} ${url.pathname}` }, error: 'ResourceNotFoundException' };
    if (method === 'DELETE') {
      const key = this.keyOf({ group: url.searchParams.get('groupName') ?? 'default', name: match[1] });
      if (!this.schedules.delete(key)) return { status: 404, body: { Message: 'Schedule not found' }, error: 'ResourceNotFoundException' };
      this.save();
      return { status: 200, body: {} };
    }
    if (method !== 'POST') return { status: 405, body: { Message: 'unsupported' }, error: 'ValidationException' };
    let input: { ScheduleExpression?: string; GroupName?: string; Target?: { Arn?: string; Input?: string } };
    try {
      input = JSON.parse(text);
    } catch {
      return { status: 400, body: { Message: 'body is not JSON' }, error: 'ValidationException' };
    }
    const at = AT.exec(input.ScheduleExpression ?? '');
    const targetArn = input.Target?.Arn ?? '';
    if (!at || !this.queueUrls[targetArn])
      return { status: 400, body: { Message: 'an at() expression and an SQS target of this stack' }, error: 'ValidationException' };
    const schedule = {
      name: match[1],
      group: input.GroupName ?? 'default',
      at: Date.parse(`${at[1]}Z`),
      targetArn,
      input: input.Target?.Input ?? '',
    };
    if (this.schedules.has(this.keyOf(schedule)))
      return { status: 409, body: { Message: 'Schedule already exists' }, error: 'ConflictException' };
    this.schedules.set(this.keyOf(schedule), schedule);
    this.save();
    return { status: 200, body: { ScheduleArn: `arn:aws:scheduler:us-east-1:000000000000:schedule/${schedule.group}/${schedule.name}` } };
  }

  private save() {
    if (this.file) saveJson(this.file, this.pending());
  }

  /**
   * Runs the schedules of this name now, ahead of their time (a test's way past a wait without sleeping through it,
   * `POST /_local/schedules/{name}/run`): their messages onto their queues, then the schedules deleted. How many ran.
   */
  async runNow(name: string) {
    const due = this.pending().filter((s) => s.name === name);
    for (const schedule of due) {
      await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrls[schedule.targetArn], MessageBody: schedule.input }));
      this.schedules.delete(this.keyOf(schedule));
      this.save();
    }
    return due.length;
  }

  /** Runs every schedule that is due: its message onto its queue, then the schedule deleted. */
  private async runDue() {
    if (this.running) return;
    this.running = true;
    try {
      for (const schedule of this.pending().filter((s) => s.at <= Date.now())) {
        await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrls[schedule.targetArn], MessageBody: schedule.input }));
        this.schedules.delete(this.keyOf(schedule));
        this.save();
      }
    } catch {
      // The queue did not take it: the schedule stays and runs at the next tick.
    } finally {
      this.running = false;
    }
  }
}
