import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createTemplate } from '#lib/domain/templates/create-template.ts';
import { InvalidRequest } from '#lib/domain/shared/errors.ts';
import { CreateTemplateBody } from '#lib/schemas/create-template.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';
import { CREATE_RULE_CASES, validUtilityTemplate } from '../../support/template-rule-cases.ts';

/** The same rule rows as the HTTP tests, through the request schema and then the use case, in memory. */
const utility = validUtilityTemplate;

async function problemPaths(body: Record<string, unknown>): Promise<string[]> {
  const parsed = v.safeParse(CreateTemplateBody, body, { abortPipeEarly: true });
  if (!parsed.success) return issuesToDetails(parsed.issues).map((d) => d.path);
  const world = memoryWorld();
  const error = await createTemplate(world, callerOf(9), { did: '5511990021', body: parsed.output }).catch((e: unknown) => e);
  expect(error, 'the use case accepted it').toBeInstanceOf(InvalidRequest);
  expect(
    world.emulator.calls.filter((c) => c.method === 'POST'),
    'nothing reaches the upstream',
  ).toEqual([]);
  return ((error as InvalidRequest).details ?? []).map((d) => d.path);
}

describe('create rules (schema and use case, in memory)', () => {
  it('accepts the valid template every case starts from', async () => {
    const world = memoryWorld();
    const created = await createTemplate(world, callerOf(9), { did: '5511990021', body: utility('fine_template') });
    expect(created.status).toBe('PENDING');
  });

  it.each(CREATE_RULE_CASES)('refuses, naming %s', async (path, change) => {
    expect(await problemPaths({ ...utility('bad_template'), ...change })).toContain(path);
  });
});
