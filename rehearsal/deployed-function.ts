import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { lambdaContext } from '../local/api-server.ts';
import type { Credentials } from './moto.ts';
import { REHEARSAL_REGION } from './moto.ts';

/** What a handler answers: an HTTP response, a batch's failures, or the event (a Cognito trigger). */
export interface LambdaAnswer {
  statusCode?: number;
  body?: string;
  batchItemFailures?: { itemIdentifier: string }[];
}
type Handler = (event: unknown, context: unknown) => Promise<LambdaAnswer>;
/** Node's own loader, as Lambda's runtime loads a bundle (vitest's import() would transform each first). */
const loadBundle = createRequire(import.meta.url);

/** What of the host's environment a Lambda sandbox also has: nothing AWS, nothing of the service. */
const SANDBOX_KEEPS = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ', 'NODE_OPTIONS'];

/**
 * One deployed function as Lambda runs it: its bundle copied from cdk.out into a folder with no node_modules
 * above it and loaded there, and each invocation in an environment of its own: the template's variables
 * (resolved), Lambda's own (region, name, the role's credentials), and nothing else of this process. What the
 * function logs is kept, not printed.
 */
export class DeployedFunction {
  private handler?: Handler;
  readonly logs: string[] = [];

  constructor(
    readonly name: string,
    readonly logicalId: string,
    readonly physicalName: string,
    readonly environment: Record<string, string>,
    /** The role's, as STS gave them: Lambda's poller receives a worker's messages with them too. */
    readonly credentials: Credentials,
    private readonly awsEndpoint: string,
  ) {}

  /** Copies and loads the bundle (a second copy of one bundle is a second cold start: clients made anew). */
  load(assetDir: string, into: string) {
    const dir = join(into, this.name);
    cpSync(assetDir, dir, { recursive: true });
    // In its own environment: a module may read its settings as it loads (Powertools' logger does).
    return this.inSandbox(async () => {
      this.handler = (loadBundle(join(dir, 'index.mjs')) as { handler: Handler }).handler;
      return this;
    });
  }

  invoke(event: unknown, requestId = `rehearsal-${this.name}`): Promise<LambdaAnswer> {
    return this.inSandbox(() => this.handler!(event, lambdaContext(this.physicalName, requestId)));
  }

  private async inSandbox<T>(run: () => Promise<T>): Promise<T> {
    const saved = process.env;
    const writes = [process.stdout.write, process.stderr.write];
    const keep = (chunk: string | Uint8Array) => {
      this.logs.push(String(chunk).trimEnd());
      return true;
    };
    process.env = {
      ...Object.fromEntries(SANDBOX_KEEPS.filter((key) => saved[key] !== undefined).map((key) => [key, saved[key]])),
      ...this.environment,
      AWS_REGION: REHEARSAL_REGION,
      AWS_DEFAULT_REGION: REHEARSAL_REGION,
      AWS_LAMBDA_FUNCTION_NAME: this.physicalName,
      AWS_ACCESS_KEY_ID: this.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: this.credentials.secretAccessKey,
      ...(this.credentials.sessionToken && { AWS_SESSION_TOKEN: this.credentials.sessionToken }),
      // Where AWS is: moto, behind the rehearsal's IAM gate (the one setting AWS itself never needs).
      AWS_ENDPOINT_URL: this.awsEndpoint,
    };
    process.stdout.write = keep as typeof process.stdout.write;
    process.stderr.write = keep as typeof process.stderr.write;
    try {
      return await run();
    } finally {
      [process.stdout.write, process.stderr.write] = writes as [typeof process.stdout.write, typeof process.stderr.write];
      process.env = saved;
    }
  }
}
