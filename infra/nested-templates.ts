import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stack's template with nested stacks inlined: one template as if the nested stacks' resources were the
 * parent's, for what reads a whole deployment at once (the rehearsal in moto, the deployed bundles, `sam local`,
 * the tests of every function's grants). CloudFormation deploys the nested stacks as they are; this is a reading.
 */
interface InlinedResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, string>;
  DependsOn?: string | string[];
}
export interface InlinedTemplate {
  Resources: Record<string, InlinedResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, unknown>;
}
/** Any template read from cdk.out: what inlining needs of it. */
type AnyTemplate = { Resources: Record<string, { Type: string }> };

const NESTED_STACK = 'AWS::CloudFormation::Stack';

/** Every value in `value`, each one `replace` rewrites replaced (recursively), the rest copied. */
function rewrite(value: unknown, replace: (item: object) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, replace)]));
}

/**
 * The nested stack's resources, its parameters replaced by what the parent gives them; its own CDK metadata
 * resource dropped (the parent has one, of the same logical id).
 */
function nestedResources(nested: InlinedTemplate, given: Record<string, unknown>) {
  const parameters = new Set(Object.keys(nested.Parameters ?? {}));
  const resolveParameters = (value: unknown) =>
    rewrite(value, (item) => {
      const ref = (item as { Ref?: unknown }).Ref;
      return typeof ref === 'string' && parameters.has(ref) ? given[ref] : undefined;
    });
  const resources = Object.entries(nested.Resources).filter(([, r]) => r.Type !== 'AWS::CDK::Metadata');
  const outputs = Object.entries(nested.Outputs ?? {}).map(
    ([name, o]) => [name, resolveParameters((o as { Value: unknown }).Value)] as const,
  );
  return { resources: resources.map(([id, r]) => [id, resolveParameters(r) as InlinedResource] as const), outputs: new Map(outputs) };
}

/**
 * `template` with each nested stack that `templateOf` gives a template for (by its file, the resource's
 * `aws:asset:path` metadata, which `cdk synth` writes) inlined: its resources in place of the stack resource,
 * and the parent's `Fn::GetAtt` of its outputs replaced by their values. Those it gives none for stay nested.
 */
export function inlineNestedStacks<T extends AnyTemplate>(synthesized: T, templateOf: (file: string) => AnyTemplate | undefined): T {
  const template = synthesized as unknown as InlinedTemplate;
  const resources = { ...template.Resources };
  const outputsOf = new Map<string, Map<string, unknown>>();
  const inlinedIds = new Map<string, string[]>();
  for (const [stackId, stack] of Object.entries(template.Resources).filter(([, r]) => r.Type === NESTED_STACK)) {
    const file = stack.Metadata?.['aws:asset:path'];
    const nested = (file === undefined ? undefined : templateOf(file)) as InlinedTemplate | undefined;
    if (!nested) continue;
    const inlined = nestedResources(nested, (stack.Properties?.Parameters ?? {}) as Record<string, unknown>);
    delete resources[stackId];
    for (const [id, resource] of inlined.resources) {
      if (id in resources) throw new Error(`${id} of nested stack ${stackId} is also a logical id of its parent`);
      resources[id] = resource;
    }
    outputsOf.set(stackId, inlined.outputs);
    inlinedIds.set(
      stackId,
      inlined.resources.map(([id]) => id),
    );
  }
  const resolveOutputs = (value: unknown): unknown =>
    rewrite(value, (item) => {
      const [stackId, attribute] = ((item as { 'Fn::GetAtt'?: unknown })['Fn::GetAtt'] ?? []) as [string?, string?];
      const output = outputsOf.get(stackId ?? '')?.get(String(attribute).replace(/^Outputs\./, ''));
      return output === undefined ? undefined : resolveOutputs(output);
    });
  const dependsOn = (on: string | string[]) => [on].flat().flatMap((id) => inlinedIds.get(id) ?? [id]);
  return {
    ...synthesized,
    Resources: Object.fromEntries(
      Object.entries(resources).map(([id, r]) => {
        const resolved = resolveOutputs(r) as InlinedResource;
        return [id, r.DependsOn === undefined ? resolved : { ...resolved, DependsOn: dependsOn(r.DependsOn) }];
      }),
    ),
  } as T;
}

/**
 * `template`, synthesized into `outdir`, with every nested stack that holds functions inlined (the workers'):
 * each function, its role and its triggers in one template. The alarms' stack stays nested.
 */
export function withNestedFunctions<T extends AnyTemplate>(template: T, outdir: string): T {
  return inlineNestedStacks(template, (file) => {
    const nested = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as AnyTemplate;
    return Object.values(nested.Resources).some((r) => r.Type === 'AWS::Lambda::Function') ? nested : undefined;
  });
}
