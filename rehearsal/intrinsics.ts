/**
 * CloudFormation's intrinsic functions, as far as the synthesized template uses them in what the rehearsal
 * creates (Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split, Fn::Sub and the pseudo parameters): a value of
 * the template resolved against resources made in moto. A reference to something not made fails, naming it.
 */
export interface Made {
  /** A resource's `Ref` value, or a pseudo parameter's. */
  ref(logicalId: string): string | undefined;
  /** A resource's attribute (`Fn::GetAtt`). */
  attribute(logicalId: string, name: string): string | undefined;
}

export class UnresolvedReference extends Error {}

export function resolve(value: unknown, made: Made): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(item, made));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [name, argument] = entries[0];
    switch (name) {
      case 'Ref':
        return known(made.ref(argument as string), `Ref ${argument}`);
      case 'Fn::GetAtt': {
        const [logicalId, attribute] = Array.isArray(argument) ? argument : String(argument).split('.');
        return known(made.attribute(logicalId, attribute), `Fn::GetAtt ${logicalId}.${attribute}`);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolve(parts, made) as unknown[]).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        return (resolve(list, made) as unknown[])[Number(resolve(index, made))];
      }
      case 'Fn::Split': {
        const [separator, text] = argument as [string, unknown];
        return String(resolve(text, made)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = Array.isArray(argument) ? argument : [argument, {}];
        const given = resolve(variables, made) as Record<string, string>;
        return String(text).replace(/\$\{([^}]+)\}/g, (_, key: string) =>
          key in given
            ? given[key]
            : key.includes('.')
              ? String(resolve({ 'Fn::GetAtt': key.split('.') }, made))
              : String(resolve({ Ref: key }, made)),
        );
      }
    }
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, resolve(item, made)]));
}

function known(value: string | undefined, what: string): string {
  if (value === undefined) throw new UnresolvedReference(`${what}: not made in the rehearsal`);
  return value;
}

/** The pseudo parameters of a stack in moto's account. */
export const pseudoParameters = (region: string, account: string, stackName: string): Record<string, string> => ({
  'AWS::AccountId': account,
  'AWS::Region': region,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': stackName,
  'AWS::NoValue': '',
});
