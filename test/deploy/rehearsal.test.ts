import { beforeAll, describe, expect, it } from 'vitest';
import { functionName } from '../../local/sam-environment.ts';
import { type RehearsalReport, rehearse } from '../../rehearsal/rehearse.ts';
import type { Template } from '../../rehearsal/resources.ts';
import { HTTP_SAMPLES, OTHER_SAMPLES } from '../../local/sample-events.ts';
import { synthesizedOnce } from '../support/synthesized.ts';

/**
 * The deployment rehearsed in moto (issue 24): the synthesized stack's resources made from the template, every
 * bundle run with its own role's credentials under IAM enforcement, Cognito's tokens at the listing bundle.
 */
let outdir: string;
let template: Template;
let report: RehearsalReport;

beforeAll(async () => {
  // Prepare: the stack as `cdk deploy` synthesizes it (once for this file and the deployed bundles'); Act: the whole rehearsal
  ({ outdir, template } = await synthesizedOnce());
  report = await rehearse({ template, outdir });
}, 240_000);

/** The template with one action taken out of the statements of one function's role. */
function withoutAction(name: string, action: string): Template {
  const changed = structuredClone(template);
  const [, fn] = Object.entries(changed.Resources).find(([id, r]) => r.Type === 'AWS::Lambda::Function' && functionName(id) === name)!;
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0];
  const policy = Object.values(changed.Resources).find((r) => r.Type === 'AWS::IAM::Policy' && r.Properties!.Roles[0].Ref === roleId)!;
  let removed = 0;
  for (const statement of policy.Properties!.PolicyDocument.Statement) {
    const actions = [statement.Action].flat();
    removed += actions.includes(action) ? 1 : 0;
    statement.Action = actions.filter((a: string) => a !== action);
  }
  expect(removed, `${name}'s role grants ${action}`).toBe(1);
  return changed;
}

const typesIn = (types: string[]) =>
  Object.fromEntries(types.map((type) => [type, Object.values(template.Resources).filter((r) => r.Type === type).length]));

describe('the deployment rehearsed in moto (issue 24)', () => {
  it('makes every resource the functions use from the template: table, queues, bus, rules, secrets, topic, pool, clients, domain, roles, policies', () => {
    const made = [
      'AWS::DynamoDB::GlobalTable',
      'AWS::SQS::Queue',
      'AWS::Events::EventBus',
      'AWS::Events::Rule',
      'AWS::SecretsManager::Secret',
      'AWS::SNS::Topic',
      'AWS::Cognito::UserPool',
      'AWS::Cognito::UserPoolClient',
      'AWS::Cognito::UserPoolDomain',
      'AWS::IAM::Role',
      'AWS::IAM::Policy',
    ];
    expect(report.made).toMatchObject(typesIn(made));
    // One role a function, and EventBridge Scheduler's for scheduled sends
    expect(report.made['AWS::IAM::Role']).toBe(report.made['AWS::Lambda::Function'] + 1);
  });

  it('runs every deployed bundle with its own role: each answers its sample as on the local stack, nothing denied', () => {
    const failed = report.functions.filter((f) => !f.passed);
    expect(failed).toEqual([]);
    expect(report.denials).toEqual([]);
    // ApplyMetaStatuses's sample records given up on and redriven: ApplyMetaNotifications reads them again (issue 54)
    const redriven = 'ApplyMetaNotifications (a batch of ApplyMetaStatuses redriven)';
    expect(report.functions.map((f) => f.name).sort()).toEqual(
      [...Object.keys(HTTP_SAMPLES), ...Object.keys(OTHER_SAMPLES), redriven].sort(),
    );
    // The roles were used, through the gate: DynamoDB, Secrets Manager and the workers' own queue calls
    expect(report.calls.PutWebhookConfig).toContain('dynamodb:UpdateItem');
    expect(report.calls.ListCatalogs).toContain('secretsmanager:GetSecretValue');
    expect(report.calls.DispatchMessages).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(report.calls.ApplyMetaNotifications).toEqual(expect.arrayContaining(['kinesis:GetShardIterator', 'kinesis:GetRecords']));
  });

  it('takes a send to the Graph API and an event to the webhook queue through the queues, the bus and its rule', () => {
    expect(report.journeys.map((step) => [step.name, step.passed])).toEqual([
      ['a send: SendTemplate queues its job', true],
      ['a send: DispatchMessages takes the job', true],
      ['a send: the Graph API accepted its message', true],
      ['an event: Meta pauses a template (ReceiveMetaWebhook)', true],
      ['an event: ApplyMetaNotifications applies it', true],
      ['an event: the rule queued it, DeliverWebhooks takes it', true],
    ]);
    expect(report.calls.SendTemplate).toContain('sqs:SendMessageBatch');
    expect(report.calls.ApplyMetaNotifications).toContain('events:PutEvents');
  });

  it('gives every function a role that trusts Lambda alone', () => {
    expect(report.trust).toEqual([]);
  });

  it('Cognito: a pool user’s id and access tokens get 200 from the listing bundle; moto’s bare token and another pool’s get 401', () => {
    expect(report.cognito.map((c) => [c.name, c.got])).toEqual([
      ['id token of the pool, with the trigger’s claims', '200'],
      ['access token of the pool, with the trigger’s claims', '200'],
      ['access token of the pool as moto issues it (no trigger ran: no caller)', '401'],
      ['access token of another pool, with the same claims', '401'],
      ['id token of another pool, with the same claims', '401'],
    ]);
    // The trigger bundle turned moto's event shape into the claims the service reads
    expect(report.functions.find((f) => f.name === 'PreTokenGeneration')).toMatchObject({ passed: true });
    expect(report.passed).toBe(true);
  });

  it('Cognito: the console’s app client sends users back only to the API’s /console over HTTPS, by code grant, without a secret (issue 45)', () => {
    // Assess: every check of the console's client and domain, by name
    expect(report.consoleSignIn.map((c) => [c.name, c.passed])).toEqual([
      ['console URL: the API’s /console over HTTPS', true],
      ['console client’s callback URLs', true],
      ['console client’s sign-out URLs', true],
      ['console client’s grants', true],
      ['console client has no secret (PKCE)', true],
      ['console sign-in domain of the pool', true],
      ['console page signs in through them', true],
    ]);
    expect(report.consoleSignIn[1].got).toMatch(/^\["https:\/\/[a-z0-9]+\.execute-api\.[a-z0-9-]+\.amazonaws\.com\/console"\]$/);
  });

  it('Cognito: the deployed pool requires a second factor of every user, BSP_CN operators too, by TOTP only (decisions §32)', () => {
    // Assess: the pool's MFA configuration read back from Cognito (moto)
    expect(report.mfa.map((c) => [c.name, c.got])).toEqual([
      ['pool’s MFA required of every user (BSP_CN operators too)', 'ON'],
      ['pool’s second factor: an authenticator app (TOTP)', 'enabled'],
      ['pool’s second factor: never SMS', 'no SMS'],
    ]);
  });

  it('fails naming the function and the action when a role lacks an action moto enforces (a worker’s queue)', async () => {
    // Act
    const lacking = await rehearse({
      template: withoutAction('DispatchMessages', 'sqs:ReceiveMessage'),
      outdir,
      only: ['DispatchMessages'],
    });
    // Assess
    expect(lacking.passed).toBe(false);
    expect(lacking.denials).toContainEqual({ function: 'DispatchMessages', action: 'sqs:ReceiveMessage', resource: '*', by: 'moto' });
  }, 60_000);

  it('fails naming the function and the action when a role lacks one on the table (the gate checks what moto does not)', async () => {
    // Act
    const lacking = await rehearse({
      template: withoutAction('PutWebhookConfig', 'dynamodb:UpdateItem'),
      outdir,
      only: ['PutWebhookConfig'],
    });
    // Assess
    expect(lacking.passed).toBe(false);
    expect(lacking.denials).toContainEqual(
      expect.objectContaining({ function: 'PutWebhookConfig', action: 'dynamodb:UpdateItem', by: 'gate' }),
    );
    expect(lacking.functions).toContainEqual(expect.objectContaining({ name: 'PutWebhookConfig', passed: false }));
  }, 60_000);

  it('fails naming the function and the action even where the function answers as if nothing happened (a publish left to the relay)', async () => {
    // Prepare: the event's publish failing is logged and left in the outbox, so no status would show it
    const journey = ['ReceiveMetaWebhook', 'ApplyMetaNotifications', 'DeliverWebhooks'];
    // Act
    const lacking = await rehearse({ template: withoutAction('ApplyMetaNotifications', 'events:PutEvents'), outdir, only: journey });
    // Assess
    expect(lacking.passed).toBe(false);
    expect(lacking.denials).toContainEqual(
      expect.objectContaining({ function: 'ApplyMetaNotifications', action: 'events:PutEvents', by: 'gate' }),
    );
    expect(lacking.functions.find((f) => f.name === 'ApplyMetaNotifications')).toMatchObject({ passed: true });
  }, 60_000);
});
