import { spawn } from 'node:child_process';
import { CreateAccessKeyCommand, CreateUserCommand, IAMClient, PutUserPolicyCommand } from '@aws-sdk/client-iam';
import { freePort, type Stop, waitFor } from '../local/parts/network.ts';

export const REHEARSAL_REGION = 'us-east-1';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface Moto {
  endpoint: string;
  /** The deployer: an IAM user allowed everything, as `cdk deploy` runs with an administrator's role. */
  admin: Credentials & { arn: string };
  /** What moto printed last (a failed start says why). */
  output: () => string;
  stop: Stop;
}

/**
 * The requests moto answers before it enforces IAM (INITIAL_NO_AUTH_ACTION_COUNT): the three that make the
 * deployer (CreateUser, PutUserPolicy, CreateAccessKey). Every request after them is checked: its signature
 * against a key moto issued, its action against the caller's policies.
 */
const UNCHECKED_REQUESTS = 3;

/** moto_server (Python, on this image's PATH) on a free port of 127.0.0.1, IAM enforced. */
export async function startMoto(host = '127.0.0.1'): Promise<Moto> {
  const port = await freePort(host);
  const child = spawn('moto_server', ['-H', host, '-p', String(port)], {
    env: { ...process.env, INITIAL_NO_AUTH_ACTION_COUNT: String(UNCHECKED_REQUESTS), MOTO_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const endpoint = `http://${host}:${port}`;
  try {
    // moto's own status route is no AWS action: it does not count among the unchecked requests.
    await waitFor(
      'moto_server',
      async () => {
        if (child.exitCode !== null) throw new Error(`moto_server exited: ${output}`);
        const response = await fetch(`${endpoint}/moto-api/data.json`);
        if (!response.ok) throw new Error(`moto answered ${response.status}`);
      },
      60_000,
    );
    const iam = new IAMClient({
      endpoint,
      region: REHEARSAL_REGION,
      credentials: { accessKeyId: 'bootstrap', secretAccessKey: 'bootstrap' },
    });
    const user = await iam.send(new CreateUserCommand({ UserName: 'rehearsal-deployer' }));
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'rehearsal-deployer',
        PolicyName: 'administrator',
        PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }),
      }),
    );
    const key = await iam.send(new CreateAccessKeyCommand({ UserName: 'rehearsal-deployer' }));
    iam.destroy();
    return {
      endpoint,
      admin: { accessKeyId: key.AccessKey!.AccessKeyId!, secretAccessKey: key.AccessKey!.SecretAccessKey!, arn: user.User!.Arn! },
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
