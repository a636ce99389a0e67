import { describe, expect, it } from 'vitest';
import { checkQuotas, QUOTAS, REFERENCE_LENGTH, upperBound } from '../../../infra/quotas.ts';
import { resolve, UnresolvedReference } from '../../../rehearsal/intrinsics.ts';
import { allows, type PolicyStatement, policyForMoto } from '../../../rehearsal/policies.ts';

const made = {
  ref: (id: string) =>
    ({
      Table: 'tms-Table-abc',
      Secret: 'arn:aws:secretsmanager:us-east-1:1:secret:GraphApiToken1A2B-AbCdEfGhIj-XyZ123',
      'AWS::Region': 'us-east-1',
    })[id],
  attribute: (id: string, name: string) =>
    id === 'Table' && name === 'Arn' ? 'arn:aws:dynamodb:us-east-1:1:table/tms-Table-abc' : undefined,
};

describe('the template’s references, resolved against what the rehearsal made', () => {
  it('resolves Ref, GetAtt, Join, Select, Split and Sub as CloudFormation does', () => {
    // Act: the secret's name as CDK derives it from the ARN, an index ARN, a Sub
    const secretName = resolve(
      {
        'Fn::Join': [
          '-',
          [
            { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: 'Secret' }] }] }] }] },
            { 'Fn::Select': [1, { 'Fn::Split': ['-', { 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: 'Secret' }] }] }] }] },
          ],
        ],
      },
      made,
    );
    const index = resolve({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, '/index/gsi1']] }, made);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub syntax, not a template literal
    const sub = resolve({ 'Fn::Sub': 'cdk-${AWS::Region}-${Table.Arn}' }, made);
    // Assess
    expect(secretName).toBe('GraphApiToken1A2B-AbCdEfGhIj');
    expect(index).toBe('arn:aws:dynamodb:us-east-1:1:table/tms-Table-abc/index/gsi1');
    expect(sub).toBe('cdk-us-east-1-arn:aws:dynamodb:us-east-1:1:table/tms-Table-abc');
  });

  it('names a reference to something not made', () => {
    expect(() => resolve({ Key: { Ref: 'Queue' } }, made)).toThrow(new UnresolvedReference('Ref Queue: not made in the rehearsal'));
  });
});

describe('IAM statements as the rehearsal evaluates them', () => {
  const table = 'arn:aws:dynamodb:us-east-1:1:table/t';
  const statements: PolicyStatement[] = [
    { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: [table, `${table}/index/gsi1`] },
    { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: 'arn:aws:sqs:us-east-1:1:q' },
  ];

  it('allows an action only on a resource its statement names, and an explicit Deny wins', () => {
    expect(allows(statements, 'dynamodb:PutItem', table)).toBe(true);
    expect(allows(statements, 'dynamodb:GetItem', `${table}/index/gsi1`)).toBe(true);
    expect(allows(statements, 'dynamodb:UpdateItem', table)).toBe(false);
    expect(allows(statements, 'dynamodb:PutItem', 'arn:aws:dynamodb:us-east-1:1:table/other')).toBe(false);
    expect(allows(statements, 'dynamodb:Query', `${table}/index/gsi2`)).toBe(false);
    expect(allows([...statements, { Effect: 'Deny', Action: 'dynamodb:*', Resource: '*' }], 'dynamodb:PutItem', table)).toBe(false);
  });

  it('gives moto what it can check: resources of SQS as written, others on *, and the calls moto names otherwise than AWS', () => {
    // Act
    const copy = policyForMoto(statements);
    // Assess: the gate checks the table's resources; moto checks the queue's
    expect(copy.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems', 'dynamodb:TransactGetItems'],
        Resource: '*',
      },
      { Effect: 'Allow', Action: ['sqs:SendMessage', 'sqs:SendMessageBatch'], Resource: 'arn:aws:sqs:us-east-1:1:q' },
    ]);
  });
});

describe('the deployment’s quotas', () => {
  const fn = (variables: Record<string, unknown>) => ({
    Type: 'AWS::Lambda::Function',
    Properties: { Environment: { Variables: variables } },
  });

  it('counts each reference at its upper bound, keeping a join’s literal parts', () => {
    expect(upperBound({ 'Fn::Join': ['', ['https://x/', { Ref: 'Pool' }]] })).toBe(`https://x/${'x'.repeat(REFERENCE_LENGTH)}`);
  });

  it('names each limit a template passes: resources, environment, inline policy', () => {
    // Prepare: one resource over the budget, an environment of 16 references, a role with 41 statements of a reference each
    const resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> = {};
    for (let i = 0; i < QUOTAS.resources - 2; i++) resources[`Topic${i}`] = { Type: 'AWS::SNS::Topic' };
    resources.Big = fn(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`SETTING_${i}`, { Ref: `R${i}` }])));
    resources.Role = { Type: 'AWS::IAM::Role' };
    resources.Policy = {
      Type: 'AWS::IAM::Policy',
      Properties: {
        Roles: [{ Ref: 'Role' }],
        PolicyDocument: {
          Statement: Array.from({ length: 41 }, () => ({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { Ref: 'Q' } })),
        },
      },
    };
    // Act
    const report = checkQuotas({ Resources: resources });
    // Assess
    expect(report.problems).toEqual([
      `${QUOTAS.resources + 1} resources: over this stack's budget of ${QUOTAS.resources} (CloudFormation takes 500)`,
      expect.stringMatching(/^Big: environment of up to 4\d{3} bytes, over Lambda's 4096$/),
      expect.stringMatching(/^Role: inline policies of up to 1\d{4} characters, over IAM's 10240$/),
    ]);
  });

  it('passes a template within every limit', () => {
    expect(checkQuotas({ Resources: { Small: fn({ TABLE_NAME: { Ref: 'Table' } }) } }).problems).toEqual([]);
  });
});
