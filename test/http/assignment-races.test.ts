import { beforeAll, describe, expect, it } from 'vitest';
import { call, token } from '../support/api.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { isPlaceholder } from '#lib/domain/templates/template-record.ts';
import { hexId, seedDirectory, template, useStackTable, waba } from '../support/seed.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * The assignment invariant under concurrent requests (decisions §11): for every (client, template), the client
 * holds its assignment records or exactly one placeholder, never both and never neither. Three races, 25 tries
 * each, against the local stack; each try has a template of its own holding pairs A and B.
 */
const CLIENT = 330;
const TRIES = 25;
const A = { channel_id: 3301, campaign_id: 3311 };
const B = { channel_id: 3302, campaign_id: 3312 };
const C = { channel_id: 3301, campaign_id: 3312 };
const races = ['delete-delete', 'put-put', 'post-delete'] as const;
const recordId = (race: number, attempt: number, pair: number) => hexId(CLIENT, race * 1000 + attempt * 2 + pair);

beforeAll(async () => {
  const templateId = (race: number, attempt: number) => `r${race}_${attempt}`;
  const tries = races.flatMap((_, race) => Array.from({ length: TRIES }, (_, attempt) => ({ race, attempt })));
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Races' }],
    wabas: [
      waba(
        'w330',
        tries.map(({ race, attempt }) => template(templateId(race, attempt), `race_${race}_${attempt}`)),
      ),
    ],
    channels: [{ wa_id: '330001', client_id: CLIENT, waba_id: 'w330' }],
    campaigns: [
      { campaign_id: 3311, campaign_name: 'one', client_id: CLIENT },
      { campaign_id: 3312, campaign_name: 'two', client_id: CLIENT },
    ],
    contact_channels: [
      { channel_id: 3301, name: 'line 1', did: '330001', waba_id: 'w330', client_id: CLIENT },
      { channel_id: 3302, name: 'line 2', did: '330001', waba_id: 'w330', client_id: CLIENT },
    ],
    template_records: tries.flatMap(({ race, attempt }) => [
      { id: recordId(race, attempt, 0), client_id: CLIENT, waba_id: 'w330', template_id: templateId(race, attempt), ...A },
      { id: recordId(race, attempt, 1), client_id: CLIENT, waba_id: 'w330', template_id: templateId(race, attempt), ...B },
    ]),
  });
}, 60_000);

/** What the client holds of the template, read from the table itself (strongly consistent). */
async function holdings(race: number, attempt: number) {
  useStackTable();
  const { records } = await new DynamoTemplateAssignments(table).readAssignments('w330', `r${race}_${attempt}`, CLIENT);
  return { pairs: records.filter((r) => !isPlaceholder(r)).length, placeholders: records.filter(isPlaceholder).length };
}

describe('the assignment invariant under concurrent requests', () => {
  it.each(races.map((name, index) => [name, index] as const))('%s: 25 tries keep it, and each loser gets 409', async (name, race) => {
    const t = await token({ clientId: CLIENT, campaigns: [3311, 3312] });
    const path = (attempt: number) => `/v1/templates/${recordId(race, attempt, 0)}/channel-campaigns`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < TRIES; attempt++) {
      // Act: two requests at once on the same (client, template)
      const [first, second] = await Promise.all(
        name === 'delete-delete'
          ? [
              call('DELETE', `${path(attempt)}?channel_id=${A.channel_id}&campaign_id=${A.campaign_id}`, { token: t }),
              call('DELETE', `${path(attempt)}?channel_id=${B.channel_id}&campaign_id=${B.campaign_id}`, { token: t }),
            ]
          : name === 'put-put'
            ? [
                call('PUT', path(attempt), { token: t, body: { channel_campaigns: [A] } }),
                call('PUT', path(attempt), { token: t, body: { channel_campaigns: [B] } }),
              ]
            : [call('POST', path(attempt), { token: t, body: { channel_campaigns: [C] } }), call('DELETE', path(attempt), { token: t })],
      );
      statuses.push(first.status, second.status);
      // Assess: the client holds assignments or one placeholder, never both, never neither
      const { pairs, placeholders } = await holdings(race, attempt);
      expect(pairs > 0 !== placeholders > 0, `try ${attempt}: pairs ${pairs}, placeholders ${placeholders}`).toBe(true);
      expect(placeholders).toBeLessThanOrEqual(1);
    }
    // A loser that read after the winner removed the record its path names finds it gone: 404, also writing nothing.
    expect(statuses.filter((s) => ![200, 201, 404, 409].includes(s))).toEqual([]);
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
  });
});
