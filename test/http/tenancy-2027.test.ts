import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, emulator, token, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Who sees what of issue 55's answers (decisions §1, §32), walked with real things: client 693 has an onboarding, a
 * delivered max-price send (its price list resells max-price charges at +10 %; Meta charges 43 % of the max), a
 * template from Meta's library and a Direct Send; client 694 has a WABA of its own. As in the tenancy matrix
 * (test/http/tenancy-matrix.test.ts), another client's id in a path of /v1/clients/{client_id}/… is 403 (the caller
 * named it), and a thing named by its own id that another client holds is 404, never 403. Every answer to 694's
 * admin and agent is searched for 693's ids, names and figures, and every answer to 693's agent for Meta's charged
 * cost (§32: its client has a price list); no onboarding answer carries the code, the business token or the PIN.
 */
const A = new OwnClient(693);
const B = new OwnClient(694);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const PIN = '604913';
const adminOf = (c: OwnClient) => token({ clientId: c.clientId, campaigns: [], role: 'admin', sub: `admin-${c.clientId}` });
const bsp = () => tokens.bsp();
const today = () => new Date().toISOString().slice(0, 10);
/** Meta's charge of a max-price message at 43 % of 30 per 1,000, and the three messages', as figures of an answer. */
const CHARGED = [0.0129, 0.0387];

/** What 693 has: its things' ids, to be looked for in 694's answers. */
const own = {
  onboardingId: '',
  popupWaba: '',
  popupNumber: '',
  code: '',
  maxSend: '',
  directSend: '',
  libraryName: `tenancy_lib_693_${run}`,
};

type Caller = () => Promise<string>;
type Answer = ApiResponse & { asked: string };
/** A request and its answer, with what the request itself named (an answer may repeat what its caller sent). */
const ask = async (caller: Caller, method: string, path: string, body?: unknown): Promise<Answer> => ({
  ...(await call(method, path, { token: await caller(), body })),
  asked: `${path} ${JSON.stringify(body ?? '')}`,
});

/** 693's ids and names in an answer that its request did not name: none may appear in one to another client. */
function leaksOfA(answer: Answer): string[] {
  const text = JSON.stringify(answer.body);
  const secrets = [
    A.did,
    A.waba,
    A.numberId,
    own.onboardingId,
    own.popupWaba,
    own.popupNumber,
    own.maxSend,
    own.directSend,
    own.libraryName,
  ];
  const shown = secrets.filter((s) => s && text.includes(s) && !answer.asked.includes(s));
  return [...shown, ...(/"client_id":693\b/.test(text) ? ['client_id 693'] : [])];
}

/** Every number of an answer with its key. */
function* figures(value: unknown, key = ''): Generator<[string, number]> {
  if (Array.isArray(value)) for (const item of value) yield* figures(item, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* figures(v, k);
  else if (typeof value === 'number') yield [key, value];
}
const metaCostIn = (answer: ApiResponse) => [...figures(answer.body)].filter(([, n]) => CHARGED.some((c) => Math.abs(n - c) < 1e-9));

beforeAll(async () => {
  await A.seed('Tenancy 2027 A', [demoTemplateAs('summer_promo', { id: `t693m${run}`, status: 'APPROVED' })]);
  await B.seed('Tenancy 2027 B', [demoTemplateAs('order_update', { id: `t694u${run}` })]);
  await emulator('POST', `numbers/${A.numberId}/statuses`, { statuses: ['sent'] });
  await emulator('POST', `wabas/${A.waba}/marketing-messages`, { onboarded: true });
  await emulator('POST', `wabas/${A.waba}/max-price-clearing`, { ratio: 0.43 });
  await emulator('POST', `wabas/${A.waba}/direct-send`, { enabled: true });
  const list = await ask(bsp, 'PUT', `/v1/clients/693/price-list`, {
    effective_from: today(),
    currency: 'USD',
    markup_percent: 20,
    max_price_markup_percent: 10,
  });
  expect(list.status).toBe(200);
  // An onboarding of 693's, by its admin
  const popup = await emulator('POST', 'embedded-signup', { display_phone_number: `+52 1 555 693 ${run}`, currency: 'USD', pin: PIN });
  Object.assign(own, { popupWaba: popup.waba_id, popupNumber: popup.phone_number_id, code: popup.code });
  const onboarded = await ask(() => adminOf(A), 'POST', '/v1/clients/693/onboardings', { ...popup, pin: PIN });
  expect(onboarded.body.status).toBe('completed');
  own.onboardingId = onboarded.body.onboarding_id;
  // A delivered max-price send of 693's, charged
  const recipients = [1, 2, 3].map((i) => ({ to: `52155${run}693${i}`, params: { header: ['Ana'], body: ['20%'] } }));
  const max = await ask(A.token, 'POST', `/v1/template/messages/${A.did}`, {
    did: A.did,
    type: 'template',
    channel: 'MSGCHAN',
    template: { name: 'summer_promo', language: 'en_US' },
    recipients,
    max_price: { amount_per_1000: 30, currency: 'USD' },
  });
  expect(max.status, JSON.stringify(max.body)).toBe(200);
  own.maxSend = max.body.send_id;
  const { sent } = await until(
    () => emulator('GET', `sent?phone_number_id=${A.numberId}&template=summer_promo`),
    (found) => found.sent.length === 3,
    60_000,
  );
  for (const message of sent) await emulator('POST', `messages/${encodeURIComponent(message.id)}/status`, { status: 'delivered' });
  await until(
    async () => (await ask(bsp, 'GET', `/v1/sends/${own.maxSend}`)).body,
    (s) => s.cost?.billable === 3,
    30_000,
  );
  // A template from Meta's library, and a Direct Send, of 693's
  const library = await ask(A.token, 'POST', `/v1/templates/${A.did}`, {
    name: own.libraryName,
    language: 'en_US',
    category: 'UTILITY',
    library_template_name: 'delivery_update_1',
    library_template_button_inputs: [
      { type: 'URL', url: { base_url: 'https://shop.example.com/track/{{1}}', url_suffix_example: 'https://shop.example.com/track/A1' } },
    ],
  });
  expect(library.status, JSON.stringify(library.body)).toBe(200);
  const direct = await ask(A.token, 'POST', `/v1/template/messages/${A.did}`, {
    did: A.did,
    type: 'template',
    channel: 'MSGCHAN',
    category: 'UTILITY',
    message: { type: 'text', text: { body: `Parcel ${run} is ready.` } },
    recipients: [{ to: `52155${run}6939` }],
  });
  expect(direct.status, JSON.stringify(direct.body)).toBe(200);
  own.directSend = direct.body.send_id;
}, 150_000);

describe('issue 55’s answers walked by another client and by an agent (decisions §1, §32)', () => {
  it('answers another client’s admin 403 for 693’s client path and 404 for 693’s onboarding under its own, naming nothing of 693', async () => {
    // Prepare
    const strangerAdmin = () => adminOf(B);
    const id = () => own.onboardingId;
    // Act
    const answers = {
      getInA: await ask(strangerAdmin, 'GET', `/v1/clients/693/onboardings/${id()}`),
      resumeInA: await ask(strangerAdmin, 'POST', `/v1/clients/693/onboardings/${id()}/resume`, {}),
      startInA: await ask(strangerAdmin, 'POST', '/v1/clients/693/onboardings', {
        code: 'x',
        waba_id: '1',
        phone_number_id: '2',
        pin: PIN,
      }),
      getInB: await ask(strangerAdmin, 'GET', `/v1/clients/694/onboardings/${id()}`),
      resumeInB: await ask(strangerAdmin, 'POST', `/v1/clients/694/onboardings/${id()}/resume`, { pin: '000000' }),
      codeAgainInB: await ask(strangerAdmin, 'POST', '/v1/clients/694/onboardings', {
        code: own.code,
        waba_id: own.popupWaba,
        phone_number_id: own.popupNumber,
        pin: PIN,
      }),
    };
    // Assess
    expect(Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.status]))).toEqual({
      getInA: 403,
      resumeInA: 403,
      startInA: 403,
      getInB: 404,
      resumeInB: 404,
      // The code is the caller's own to have sent: it learns it was used, nothing of whose
      codeAgainInB: 409,
    });
    for (const answer of Object.values(answers)) expect(leaksOfA(answer)).toEqual([]);
  });

  it('answers another client’s agent and admin 404 for 693’s max-price and Direct Send sends, and no 693 figure or id in their own reads', async () => {
    // Prepare
    const callers: Caller[] = [B.token, () => adminOf(B)];
    const answers: Answer[] = [];
    // Act
    for (const caller of callers) {
      for (const sendId of [own.maxSend, own.directSend]) {
        answers.push(await ask(caller, 'GET', `/v1/sends/${sendId}`));
        answers.push(await ask(caller, 'GET', `/v1/sends/${sendId}/recipients`));
        answers.push(await ask(caller, 'POST', `/v1/sends/${sendId}/resend`, { which: 'failed' }));
      }
    }
    const ownReads = [
      await ask(B.token, 'GET', '/v1/sends'),
      await ask(() => token({ clientId: 694, campaigns: [1] }), 'GET', '/v1/templates?size=100'),
      await ask(B.token, 'GET', `/v1/usage?from=${today()}&to=${today()}&group_by=market,category,did`),
      await ask(B.token, 'GET', `/v1/clients/694/statements/${today().slice(0, 7)}`),
      await ask(B.token, 'GET', `/v1/clients/693/statements/${today().slice(0, 7)}`),
      await ask(B.token, 'GET', `/v1/clients/693/price-list`),
    ];
    // Assess
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(404));
    // 694 sent nothing this month: it has no statement of its own (404); 693's month and price list are 403 to it
    expect(ownReads.map((a) => a.status)).toEqual([200, 200, 200, 404, 403, 403]);
    for (const answer of [...answers, ...ownReads]) expect(leaksOfA(answer)).toEqual([]);
    for (const answer of ownReads) expect(metaCostIn(answer)).toEqual([]);
  });

  it('answers another client 403 for a library template on 693’s number, and lists none of 693’s templates', async () => {
    // Act
    const created = await ask(B.token, 'POST', `/v1/templates/${A.did}`, {
      name: `tenancy_lib_694_${run}`,
      language: 'en_US',
      category: 'UTILITY',
      library_template_name: 'order_confirmation_1',
    });
    const listed = await ask(() => adminOf(B), 'GET', '/v1/templates?size=100');
    // Assess
    expect(created.status).toBe(403);
    expect(leaksOfA(created)).toEqual([]);
    expect(leaksOfA(listed)).toEqual([]);
  });

  it('shows 693’s own agent its max-price send, statement and usage at its price, never Meta’s charged cost', async () => {
    // Act
    const month = today().slice(0, 7);
    const reads = [
      await ask(A.token, 'GET', `/v1/sends/${own.maxSend}`),
      await ask(A.token, 'GET', `/v1/sends/${own.maxSend}/recipients`),
      await ask(A.token, 'GET', `/v1/clients/693/statements/${month}`),
      await ask(A.token, 'GET', `/v1/usage?from=${today()}&to=${today()}&group_by=market,category,did`),
      await ask(A.token, 'GET', '/v1/clients/693/budget'),
      await ask(A.token, 'GET', '/v1/clients/693/price-list'),
    ];
    // Assess
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const read of reads) expect(metaCostIn(read)).toEqual([]);
    const line = reads[2].body.statements[0].lines.find((l: { category: string }) => l.category === 'marketing_max_price');
    expect(line).toMatchObject({ messages: 3 });
    expect(line).not.toHaveProperty('cost');
  });

  it('never answers the code, the business token or the PIN in an onboarding, to its admin or BSP_CN', async () => {
    // Act
    const reads = [
      await ask(() => adminOf(A), 'GET', `/v1/clients/693/onboardings/${own.onboardingId}`),
      await ask(bsp, 'GET', `/v1/clients/693/onboardings/${own.onboardingId}`),
      await ask(() => adminOf(A), 'POST', `/v1/clients/693/onboardings/${own.onboardingId}/resume`, { pin: PIN }),
    ];
    // Assess
    for (const read of reads) {
      expect(read.status).toBe(200);
      const text = JSON.stringify(read.body);
      expect(text).not.toContain(own.code);
      expect(text).not.toContain(PIN);
      expect(text).not.toMatch(/EAAB[\w-]{20,}/);
      expect(text).not.toContain('credentials_ref');
    }
  });
});
