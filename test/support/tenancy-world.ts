import { call, emulator, token } from './api.ts';
import { eventReceiver } from './event-receiver.ts';
import { hexId, seedDirectory, template, waba } from './seed.ts';
import { until } from './until.ts';

/**
 * A client with something of everything for the tenancy matrix (issue 52 item 7): a WABA, a number, a
 * MARKETING template with its record, channel and campaign, a price list, a budget, a webhook, a suppression
 * and a delivered send to a phone number and a BSUID. Its `secrets` are what another client must never see.
 */
export interface Tenant {
  clientId: number;
  did: string;
  numberId: string;
  waba: string;
  templateName: string;
  templateMetaId: string;
  /** A template the client created through the API (its webhook is told). */
  createdName: string;
  record: string;
  campaignId: number;
  spareCampaignId: number;
  channelId: number;
  phone: string;
  bsuid: string;
  suppressedPhone: string;
  suppressedBsuid: string;
  /** A person on no list: removing or reading them is answered 404. */
  unlistedPhone: string;
  webhookUrl: string;
  budget: number;
  fixedPrice: number;
  sendId: string;
  deliveryId: string;
  secrets: Secrets;
}

/** What identifies a client or its money, to be looked for in every answer to someone else. */
export interface Secrets {
  /** Ids, numbers, BSUIDs, names, the signing secret: never in another client's answer, as text. */
  texts: string[];
  /** Whole-number ids (the client, its campaign and channel) under keys that name one. */
  ids: number[];
  /** Money figures only this client has (its budget, prices, what it spent). */
  money: number[];
}

const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const today = () => new Date().toISOString().slice(0, 10);
const bsp = (clientId: number) => token({ clientId, bsp: true });
export const agentOf = (t: { clientId: number; campaignId: number }) => token({ clientId: t.clientId, campaigns: [t.campaignId] });

function blank(clientId: number, budget: number, fixedPrice: number): Tenant {
  const did = `521555${clientId}01`;
  const digits = (n: string) => `52${clientId}${run}${n}`;
  return {
    clientId,
    did,
    numberId: `p${clientId}001`,
    waba: `w${clientId}`,
    templateName: `tenancy_offer_${clientId}_${run}`,
    templateMetaId: `tm${clientId}${run}`,
    createdName: `tenancy_new_${clientId}_${run}`,
    record: hexId(clientId, 1),
    campaignId: clientId * 10 + 1,
    spareCampaignId: clientId * 10 + 2,
    channelId: clientId * 10 + 1,
    phone: digits('0001'),
    bsuid: `MX.${clientId}${run}B01`,
    suppressedPhone: digits('0999'),
    suppressedBsuid: `MX.${clientId}${run}S01`,
    unlistedPhone: digits('0777'),
    webhookUrl: '',
    budget,
    fixedPrice,
    sendId: '',
    deliveryId: '',
    secrets: { texts: [], ids: [], money: [] },
  };
}

async function seedDirectoryOf(t: Tenant) {
  const offer = template(t.templateMetaId, t.templateName, { category: 'MARKETING' });
  await seedDirectory({
    clients: [{ client_id: t.clientId, client_name: `Tenancy client ${t.clientId}` }],
    wabas: [waba(t.waba, [offer])],
    channels: [{ wa_id: t.did, client_id: t.clientId, waba_id: t.waba, phone_number_id: t.numberId }],
    campaigns: [
      { campaign_id: t.campaignId, campaign_name: `Campaign ${t.clientId} one`, client_id: t.clientId },
      { campaign_id: t.spareCampaignId, campaign_name: `Campaign ${t.clientId} two`, client_id: t.clientId },
    ],
    contact_channels: [{ channel_id: t.channelId, name: `Line ${t.clientId}`, did: t.did, waba_id: t.waba, client_id: t.clientId }],
    template_records: [
      {
        id: t.record,
        client_id: t.clientId,
        waba_id: t.waba,
        template_id: t.templateMetaId,
        channel_id: t.channelId,
        campaign_id: t.campaignId,
        active: true,
      },
    ],
  });
  await emulator('POST', 'wabas', { id: t.waba, templates: [offer], phone_numbers: [{ id: t.numberId, display_phone_number: t.did }] });
  await emulator('POST', `numbers/${t.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
}

/** Its money and people: a price list and a budget (set by BSP_CN), a webhook and a suppression (by its agent). */
async function seedAccounts(t: Tenant, receiverUrl: string) {
  const [operator, agent] = [await bsp(t.clientId), await agentOf(t)];
  const answers = await Promise.all([
    call('PUT', `/v1/clients/${t.clientId}/price-list`, {
      token: operator,
      body: { effective_from: today(), currency: 'USD', markup_percent: 20, prices: { Mexico: { marketing: t.fixedPrice } } },
    }),
    call('PUT', `/v1/clients/${t.clientId}/budget`, { token: operator, body: { monthly_amount: t.budget } }),
    call('PUT', '/v1/webhook/config', { token: agent, body: { url: receiverUrl, active: true } }),
    call('POST', '/v1/suppressions', { token: agent, body: { phone: t.suppressedPhone, user_id: t.suppressedBsuid, reason: 'matrix' } }),
  ]);
  for (const answer of answers) if (answer.status !== 200) throw new Error(`seeding ${t.clientId}: ${JSON.stringify(answer.body)}`);
  t.webhookUrl = receiverUrl;
  // A created template is an event (template.created): its delivery is one the matrix replays.
  const created = await call('POST', `/v1/templates/${t.did}`, {
    token: agent,
    body: { name: t.createdName, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your order is ready' }] },
  });
  if (created.status !== 200) throw new Error(`template of ${t.clientId}: ${JSON.stringify(created.body)}`);
}

/** A delivered send to its phone number and BSUID, and a webhook delivery of one of its events. */
async function seedSend(t: Tenant) {
  const agent = await agentOf(t);
  const accepted = await call('POST', `/v1/template/messages/${t.did}`, {
    token: agent,
    body: {
      did: t.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: t.templateName, language: 'en_US' },
      recipients: [
        { to: t.phone, params: { body: ['A'] } },
        { user_id: t.bsuid, params: { body: ['B'] } },
      ],
    },
  });
  if (accepted.status !== 200) throw new Error(`send of ${t.clientId}: ${JSON.stringify(accepted.body)}`);
  t.sendId = accepted.body.send_id;
  const status = () => call('GET', `/v1/sends/${t.sendId}`, { token: agent }).then((r) => r.body);
  await until(status, (s) => s.delivered === 2, 60_000);
  const deliveries = () => call('GET', '/v1/webhook/deliveries?size=50', { token: agent }).then((r) => r.body.data as { id: string }[]);
  t.deliveryId = (await until(deliveries, (d) => d.length > 0, 60_000))[0]?.id ?? '';
}

/** What this client's agent and BSP_CN are shown of it: the figures and the secret only it has. */
async function collectSecrets(t: Tenant) {
  const agent = await agentOf(t);
  const [config, budget, send] = await Promise.all([
    call('GET', '/v1/webhook/config', { token: agent }),
    call('GET', `/v1/clients/${t.clientId}/budget`, { token: agent }),
    call('GET', `/v1/sends/${t.sendId}`, { token: agent }),
  ]);
  t.secrets = {
    texts: [
      t.did,
      t.numberId,
      t.waba,
      t.templateName,
      t.templateMetaId,
      t.createdName,
      t.record,
      t.phone,
      t.bsuid,
      t.suppressedPhone,
      t.suppressedBsuid,
      t.sendId,
      t.deliveryId,
      t.webhookUrl,
      config.body.signing_secret,
      `Tenancy client ${t.clientId}`,
      `Campaign ${t.clientId}`,
      `Line ${t.clientId}`,
    ].filter((text): text is string => typeof text === 'string' && text.length > 0),
    ids: [t.clientId, t.campaignId, t.spareCampaignId, t.channelId],
    money: [t.budget, t.fixedPrice, 2 * t.fixedPrice, budget.body.spent, budget.body.remaining, send.body.price?.amount].filter(
      (figure): figure is number => typeof figure === 'number' && figure > 0,
    ),
  };
}

/** Two clients of their own on the running stack, each with something of everything (see `Tenant`). */
export async function seedTenants(a: [number, number, number], b: [number, number, number]) {
  const receiver = await eventReceiver();
  const tenants = [blank(...a), blank(...b)] as const;
  for (const t of tenants) await seedDirectoryOf(t);
  await Promise.all(tenants.map((t) => seedAccounts(t, `${receiver.url}/${t.clientId}`)));
  await Promise.all(tenants.map(seedSend));
  await Promise.all(tenants.map(collectSecrets));
  return { tenants, close: receiver.close };
}
