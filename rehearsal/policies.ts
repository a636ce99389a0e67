/** An identity policy's statement, as the template writes it (references resolved). */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource?: string | string[];
}

const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());
const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
const matches = (globs: string[], value: string) => globs.some((glob) => pattern(glob).test(value));

/** IAM's verdict for one action on one resource: an explicit Deny wins, else some Allow must match both. */
export function allows(statements: PolicyStatement[], action: string, resource: string): boolean {
  const applying = statements.filter((s) => matches(list(s.Action), action) && matches(list(s.Resource), resource));
  return applying.some((s) => s.Effect === 'Allow') && !applying.some((s) => s.Effect === 'Deny');
}

/**
 * moto names the resource of a request only for SQS, IAM and STS; for the other services it checks each action
 * against `*`, so a statement naming a table, a secret or a bus would never match there. moto's copy of a policy
 * therefore allows those actions on `*`; the rehearsal's gate (gate.ts) checks their resources against the
 * template's own statements. moto also authorises a DynamoDB transaction as `dynamodb:TransactWriteItems`,
 * which AWS does not: AWS authorises each item's own action (PutItem, UpdateItem, ...), which the gate checks;
 * and an SQS batch call by its own name, where AWS authorises its single action.
 */
const RESOURCES_MOTO_CHECKS = ['sqs', 'iam', 'sts'];
const TRANSACTION_CALLS = ['dynamodb:TransactWriteItems', 'dynamodb:TransactGetItems'];
/** AWS authorises an SQS batch call as its single action; moto checks the call's own name. */
const SQS_BATCH_CALLS: Record<string, string> = {
  'sqs:SendMessage': 'sqs:SendMessageBatch',
  'sqs:DeleteMessage': 'sqs:DeleteMessageBatch',
  'sqs:ChangeMessageVisibility': 'sqs:ChangeMessageVisibilityBatch',
};
const motoCalls = (service: string, actions: string[]) => {
  if (service === 'dynamodb' && actions.includes('dynamodb:GetItem')) return [...actions, ...TRANSACTION_CALLS];
  if (service === 'sqs') return [...actions, ...actions.flatMap((action) => SQS_BATCH_CALLS[action] ?? [])];
  return actions;
};

export function policyForMoto(statements: PolicyStatement[]) {
  const copied = statements.flatMap((statement) => {
    const byService = new Map<string, string[]>();
    for (const action of list(statement.Action)) {
      const service = action.split(':')[0].toLowerCase();
      byService.set(service, [...(byService.get(service) ?? []), action]);
    }
    return [...byService].map(([service, actions]) => ({
      Effect: statement.Effect,
      Action: motoCalls(service, actions),
      Resource: RESOURCES_MOTO_CHECKS.includes(service) ? statement.Resource : '*',
    }));
  });
  return { Version: '2012-10-17', Statement: copied };
}
