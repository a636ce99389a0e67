import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DirectoryFile } from '#lib/adapters/directory-file.ts';
import { documentClient } from '#lib/adapters/dynamo/client.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { EMULATOR_TOKEN } from '../local/standins/graph/emulator.ts';
import { resolve } from './intrinsics.ts';
import { type Credentials, REHEARSAL_REGION } from './moto.ts';
import type { MadeStack, Template } from './resources.ts';

/** A stack output, as `aws cloudformation describe-stacks` would give it (README's `out`). */
export function output(template: Template, stack: MadeStack, name: string): string {
  const declared = (template.Outputs as Record<string, { Value: unknown }> | undefined)?.[name];
  if (!declared) throw new Error(`the template has no output ${name}`);
  return String(resolve(declared.Value, stack));
}

/**
 * README's "Set the secrets" step: the Graph API token (the emulator's), and the Meta app secret beside the
 * verify token the stack generated. Answers what the samples are signed and verified with.
 */
export async function setSecrets(template: Template, stack: MadeStack, secrets: SecretsManagerClient) {
  await secrets.send(
    new PutSecretValueCommand({ SecretId: output(template, stack, 'GraphApiTokenSecretName'), SecretString: EMULATOR_TOKEN }),
  );
  const metaSecret = output(template, stack, 'MetaWebhookSecretName');
  const generated = await secrets.send(new GetSecretValueCommand({ SecretId: metaSecret }));
  const { verify_token: verifyToken } = JSON.parse(generated.SecretString!) as { verify_token: string };
  const appSecret = `rehearsal-app-secret-${Date.now()}`;
  await secrets.send(
    new PutSecretValueCommand({ SecretId: metaSecret, SecretString: JSON.stringify({ app_secret: appSecret, verify_token: verifyToken }) }),
  );
  return { META_APP_SECRET: appSecret, META_VERIFY_TOKEN: verifyToken };
}

/** README's "Load the directory" step, into the table the template made. */
export async function loadDirectory(
  template: Template,
  stack: MadeStack,
  endpoint: string,
  credentials: Credentials,
  fixture: DirectoryFile,
) {
  const client = new DynamoDBClient({ endpoint, region: REHEARSAL_REGION, credentials });
  try {
    return await importDirectory({ client: documentClient(undefined, client), name: output(template, stack, 'TableName') }, fixture);
  } finally {
    client.destroy();
  }
}

/**
 * A function's environment as Lambda gives it, resolved to moto: the template's variables, but for where the
 * Graph API is (the emulator) and the host of Cognito's keys (moto serves each pool's JWKS under its own address).
 */
export function deployedEnvironment(variables: Record<string, string>, at: { moto: string; graph: string }): Record<string, string> {
  const environment = { ...variables };
  if (environment.GRAPH_API_URL) environment.GRAPH_API_URL = at.graph;
  if (environment.JWKS_URL)
    environment.JWKS_URL = environment.JWKS_URL.replace(`https://cognito-idp.${REHEARSAL_REGION}.amazonaws.com`, at.moto);
  return environment;
}
