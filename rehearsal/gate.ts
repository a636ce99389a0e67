import type { ServerResponse } from 'node:http';
import { answerWhole, forwardWhole } from '../local/standins/whole-proxy.ts';
import { type LocalServer, serveWhole } from '../local/standins/local-server.ts';
import { allows, type PolicyStatement } from './policies.ts';

/** A request a role was not allowed to make: which function, which action, on what. */
export interface Denial {
  function: string;
  action: string;
  resource: string;
  /** moto's IAM enforcement, or the gate's check of the resource (which moto does not make for this service). */
  by: 'moto' | 'gate';
}

/** The role a function runs with: its credentials' key, and what the template grants it. */
export interface Grant {
  function: string;
  roleArn: string;
  statements: PolicyStatement[];
}

interface Account {
  region: string;
  id: string;
  /** A secret's ARN by its name (a function names its secret; IAM checks the ARN). */
  secretArn: (name: string) => string | undefined;
}

/** What a DynamoDB transaction's items are authorised as (AWS checks each item's own action). */
const TRANSACTION_ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/**
 * A proxy in front of moto that every function's AWS client talks to. Each request signed with a function's
 * credentials is checked where moto does not check: the resources of DynamoDB, Secrets Manager and EventBridge
 * calls (and each item of a transaction), against the template's statements of the function's role. Every
 * refusal, the gate's or moto's, is recorded with the function and the action, and answered as AWS does
 * (AccessDeniedException). The deployer's requests pass untouched.
 */
export class IamGate {
  private local?: LocalServer;
  private readonly grants = new Map<string, Grant>();
  readonly denials: Denial[] = [];
  /** The actions each function called, allowed or not. */
  readonly calls = new Map<string, Set<string>>();
  url = '';

  constructor(
    private readonly target: string,
    private readonly account: Account,
  ) {}

  /** The credentials with this access key are the function's role's. */
  grant(accessKeyId: string, grant: Grant) {
    this.grants.set(accessKeyId, grant);
  }

  async start(host: string) {
    this.local = await serveWhole(async (req, res, body) => {
      const authorization = String(req.headers.authorization ?? '');
      const [accessKeyId, , , service] = (authorization.match(/Credential=([^,]+)/)?.[1] ?? '').split('/');
      const grant = this.grants.get(accessKeyId);
      const target = String(req.headers['x-amz-target'] ?? '');
      const action = `${service}:${target ? target.split('.').pop() : (new URLSearchParams(body.toString()).get('Action') ?? '')}`;
      if (grant) {
        this.calls.set(grant.function, (this.calls.get(grant.function) ?? new Set()).add(action));
        const refused = this.needs(service, action, target ? parseJson(body) : {}).find(
          (need) => !allows(grant.statements, need.action, need.resource),
        );
        if (refused) {
          this.denials.push({ function: grant.function, ...refused, by: 'gate' });
          return answerDenied(res, grant, refused.action, refused.resource);
        }
      }
      const answer = await forwardWhole(this.target, req, body);
      if (grant && answer && answer.status >= 400 && /AccessDenied/.test(answer.text)) {
        const denied = answer.text.match(/not authorized to perform:? ([\w-]+:\w+)/)?.[1] ?? action;
        this.denials.push({ function: grant.function, action: denied, resource: '*', by: 'moto' });
        // moto answers a JSON service's refusal in IAM's XML: the function's SDK gets AWS's JSON error.
        if (target) return answerDenied(res, grant, denied, '*');
      }
      answerWhole(res, answer);
    }, host);
    this.url = this.local.url;
    return this.url;
  }

  async stop() {
    await this.local?.stop();
  }

  private arn(service: string, rest: string) {
    return rest.startsWith('arn:') ? rest : `arn:aws:${service}:${this.account.region}:${this.account.id}:${rest}`;
  }

  /** The (action, resource) pairs IAM authorises for a request whose resource moto does not check. */
  private needs(service: string, action: string, body: RequestBody): { action: string; resource: string }[] {
    const table = (name: string, index?: string) =>
      name.startsWith('arn:') ? name : this.arn('dynamodb', `table/${name}${index ? `/index/${index}` : ''}`);
    switch (service) {
      case 'dynamodb': {
        const call = action.slice('dynamodb:'.length);
        if (call === 'TransactWriteItems' || call === 'TransactGetItems')
          return (body.TransactItems ?? []).flatMap((item) =>
            Object.entries(item).map(([kind, op]) => ({
              action: `dynamodb:${TRANSACTION_ITEM_ACTIONS[kind]}`,
              resource: table(op.TableName),
            })),
          );
        if (call === 'BatchGetItem' || call === 'BatchWriteItem')
          return Object.keys(body.RequestItems ?? {}).map((name) => ({ action, resource: table(name) }));
        return body.TableName ? [{ action, resource: table(body.TableName, body.IndexName) }] : [];
      }
      case 'secretsmanager': {
        const id = String(body.SecretId ?? '');
        return id
          ? [{ action, resource: id.startsWith('arn:') ? id : (this.account.secretArn(id) ?? this.arn('secretsmanager', `secret:${id}`)) }]
          : [];
      }
      case 'events':
        return (body.Entries ?? []).map((entry) => ({
          action,
          resource: this.arn(
            'events',
            (entry.EventBusName ?? 'default').startsWith('arn:') ? entry.EventBusName! : `event-bus/${entry.EventBusName ?? 'default'}`,
          ),
        }));
      default:
        return [];
    }
  }
}

/** What of a JSON request the gate reads to name its resources. */
interface RequestBody {
  TableName?: string;
  IndexName?: string;
  RequestItems?: Record<string, unknown>;
  TransactItems?: Record<string, { TableName: string }>[];
  SecretId?: string;
  Entries?: { EventBusName?: string }[];
}

function parseJson(body: Buffer): RequestBody {
  try {
    return JSON.parse(body.toString() || '{}');
  } catch {
    return {};
  }
}

function answerDenied(res: ServerResponse, grant: Grant, action: string, resource: string) {
  const message = `User: ${grant.roleArn.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/')}/${grant.function} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;
  const text = JSON.stringify({ __type: 'AccessDeniedException', message, Message: message });
  res.writeHead(400, {
    'content-type': 'application/x-amz-json-1.0',
    'x-amzn-errortype': 'AccessDeniedException',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
