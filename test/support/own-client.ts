import { readFileSync } from 'node:fs';
import { type ApiResponse, call, emulator, token } from './api.ts';
import { seedDirectory, waba } from './seed.ts';
import { until } from './until.ts';

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));

/** A demo template (fixtures/demo.json) under another id and name, as a test's own WABA holds it. */
export const demoTemplateAs = (name: string, extra: Record<string, unknown>) => ({
  ...demo.wabas[0].templates.find((t: { name: string }) => t.name === name),
  ...extra,
});

/**
 * A client of one test file's own on the running local stack: its WABA `w<id>`, one number `p<id>001` with the
 * DID `521555<id>01`, and the templates it is given, in the directory and at the emulator; and what the file
 * does as that client (send, read a send, wait for one to settle).
 */
export class OwnClient {
  readonly did: string;
  readonly numberId: string;
  readonly waba: string;

  constructor(readonly clientId: number) {
    this.did = `521555${clientId}01`;
    this.numberId = `p${clientId}001`;
    this.waba = `w${clientId}`;
  }

  /** The directory and the emulator hold the client, its WABA, number and templates (the number's display digits are the DID). */
  async seed(name: string, templates: Record<string, unknown>[]) {
    await seedDirectory({
      clients: [{ client_id: this.clientId, client_name: name }],
      wabas: [waba(this.waba, templates)],
      channels: [{ wa_id: this.did, client_id: this.clientId, waba_id: this.waba, phone_number_id: this.numberId }],
    });
    await emulator('POST', 'wabas', { id: this.waba, templates, phone_numbers: [{ id: this.numberId, display_phone_number: this.did }] });
  }

  token = () => token({ clientId: this.clientId, campaigns: [] });

  /** A send of the template to these recipients, each with `params` (a one-value body unless given). */
  async send(
    template: string,
    recipients: string[],
    options: { query?: string; params?: Record<string, unknown> } = {},
  ): Promise<ApiResponse> {
    return call('POST', `/v1/template/messages/${this.did}${options.query ?? ''}`, {
      token: await this.token(),
      body: {
        did: this.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: template, language: 'en_US' },
        recipients: recipients.map((to) => ({ to, params: options.params ?? { body: [`A-${to}`] } })),
      },
    });
  }

  status = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await this.token() })).body;

  /** The send once `done` says so of its status (every recipient settled unless told), or as it is at the deadline. */
  settled = (sendId: string, done: (status: Record<string, any>) => boolean = (s) => s.pending === 0, timeoutMs = 60_000) =>
    until(() => this.status(sendId), done, timeoutMs);

  /**
   * A send of one message of the template, delivered at `atMs` as Meta's status timestamp says (the number must
   * report only `sent` by itself); the send once its delivery is counted.
   */
  async deliveredAt(template: string, to: string, atMs: number) {
    const accepted = await this.send(template, [to]);
    if (accepted.status !== 200) throw new Error(`send refused: ${JSON.stringify(accepted.body)}`);
    const { sent } = await until(
      () => emulator('GET', `sent?phone_number_id=${this.numberId}&to=${to}`),
      (found) => found.sent.length === 1,
      30_000,
      250,
    );
    await emulator('POST', `messages/${encodeURIComponent(sent[0].id)}/status`, {
      status: 'delivered',
      timestamp: Math.floor(atMs / 1000),
    });
    return this.settled(accepted.body.send_id, (s) => s.delivered === 1);
  }
}
