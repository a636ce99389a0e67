/**
 * The limits a synthesized template must keep to deploy (issue 24), checked at every synth (infra/app.ts) and
 * by the tests, for the stack and each nested stack alike: CloudFormation's resources (500, of which each keeps 80
 * spare for what comes next: 100 until issue 51's reservation job; the workers have their own nested stack since,
 * docs/operations.md "Quotas") and
 * outputs, the size of the template body, Lambda's 4 KB of environment per function and IAM's 10,240
 * characters of inline policy per role. References are resolved only at deploy, so each counts as
 * `REFERENCE_LENGTH` characters: more than any name, URL or ARN they become here (a table name CloudFormation
 * makes is under 100; a queue URL under 130).
 */
export const QUOTAS = {
  resources: 420,
  outputs: 200,
  /** A template body larger than this must be uploaded to S3 (`cdk deploy` does, through its bootstrap bucket). */
  inlineTemplateBytes: 51_200,
  templateBytes: 1_000_000,
  environmentBytes: 4_096,
  inlinePolicyCharacters: 10_240,
} as const;
export const REFERENCE_LENGTH = 256;

interface Resource {
  Type: string;
  /** What the checks read: a function's environment, a policy's document and roles. */
  Properties?: { Environment?: { Variables?: Record<string, unknown> }; PolicyDocument?: unknown; Roles?: unknown[] } & Record<
    string,
    unknown
  >;
}
export interface QuotaTemplate {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, unknown>;
}

export interface QuotaReport {
  resources: number;
  templateBytes: number;
  /** The largest function environment and role policy, by their upper bound. */
  largestEnvironment: { name: string; bytes: number };
  largestPolicy: { name: string; characters: number };
  figures: string[];
  problems: string[];
}

const isReference = (value: object) => {
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'));
};

/** A value with each reference replaced by its upper bound (a join keeps its literal parts). */
export function upperBound(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upperBound);
  if (value === null || typeof value !== 'object') return value;
  if (isReference(value)) {
    const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    return join ? join[1].map((part) => String(upperBound(part))).join(join[0]) : 'x'.repeat(REFERENCE_LENGTH);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, upperBound(item)]));
}

export function checkQuotas(template: QuotaTemplate): QuotaReport {
  const resources = Object.entries(template.Resources);
  const templateBytes = Buffer.byteLength(JSON.stringify(template, undefined, 1));
  const problems: string[] = [];

  const environments = resources
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([name, r]) => {
      const variables = upperBound(r.Properties?.Environment?.Variables ?? {}) as Record<string, string>;
      return {
        name,
        bytes: Object.entries(variables).reduce((sum, [key, v]) => sum + Buffer.byteLength(key) + Buffer.byteLength(String(v)), 0),
      };
    });
  const policies = new Map<string, number>();
  for (const [name, r] of resources.filter(([, r]) => r.Type === 'AWS::IAM::Policy')) {
    // IAM counts a role's inline policies together, whitespace aside.
    const characters = JSON.stringify(upperBound(r.Properties?.PolicyDocument)).length;
    for (const role of (r.Properties?.Roles ?? []) as unknown[]) {
      const roleId = (role as { Ref?: string }).Ref ?? name;
      policies.set(roleId, (policies.get(roleId) ?? 0) + characters);
    }
  }
  const largestEnvironment = environments.reduce((a, b) => (b.bytes > a.bytes ? b : a), { name: '-', bytes: 0 });
  const [policyRole, policyCharacters] = [...policies].reduce((a, b) => (b[1] > a[1] ? b : a), ['-', 0]);
  const largestPolicy = { name: policyRole, characters: policyCharacters };

  if (resources.length > QUOTAS.resources)
    problems.push(`${resources.length} resources: over this stack's budget of ${QUOTAS.resources} (CloudFormation takes 500)`);
  const outputs = Object.keys(template.Outputs ?? {}).length;
  if (outputs > QUOTAS.outputs) problems.push(`${outputs} outputs: over CloudFormation's ${QUOTAS.outputs}`);
  if (templateBytes > QUOTAS.templateBytes)
    problems.push(`template of ${templateBytes} bytes: over CloudFormation's ${QUOTAS.templateBytes} (from S3)`);
  for (const e of environments.filter((e) => e.bytes > QUOTAS.environmentBytes))
    problems.push(`${e.name}: environment of up to ${e.bytes} bytes, over Lambda's ${QUOTAS.environmentBytes}`);
  for (const [role, characters] of [...policies].filter(([, c]) => c > QUOTAS.inlinePolicyCharacters))
    problems.push(`${role}: inline policies of up to ${characters} characters, over IAM's ${QUOTAS.inlinePolicyCharacters}`);

  return {
    resources: resources.length,
    templateBytes,
    largestEnvironment,
    largestPolicy,
    problems,
    figures: [
      `resources ${resources.length} of ${QUOTAS.resources} (CloudFormation's limit 500)`,
      `template ${templateBytes} bytes: ${templateBytes > QUOTAS.inlineTemplateBytes ? 'deployed through S3 (cdk deploy uploads it)' : 'inline'}, limit ${QUOTAS.templateBytes}`,
      `largest environment ${largestEnvironment.bytes} of ${QUOTAS.environmentBytes} bytes (${largestEnvironment.name}, references at ${REFERENCE_LENGTH})`,
      `largest inline policy ${largestPolicy.characters} of ${QUOTAS.inlinePolicyCharacters} characters (${largestPolicy.name}, references at ${REFERENCE_LENGTH})`,
    ],
  };
}
