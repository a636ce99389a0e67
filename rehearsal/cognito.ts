import { execFileSync } from 'node:child_process';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolDomainCommand,
  GetUserPoolMfaConfigCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt, decodeProtectedHeader, importPKCS8, SignJWT } from 'jose';
import { GetConsole } from '#lib/manifest/routes/console.ts';
import { REHEARSAL_REGION } from './moto.ts';

/** A user of the pool, as an administrator makes one (README, "A user, a token, a 200"). */
export interface PoolUser {
  username: string;
  attributes: Record<string, string>;
}

export interface Tokens {
  id: string;
  access: string;
}

/** A password the template's password policy accepts (12 characters, digits, both cases, symbols). */
const PASSWORD = 'Rehearsal-Passw0rd-7!';

/** Makes the user with its attributes, sets its password, and signs it in with USER_PASSWORD_AUTH. */
export async function signIn(cognito: CognitoIdentityProviderClient, poolId: string, clientId: string, user: PoolUser): Promise<Tokens> {
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: poolId,
      Username: user.username,
      MessageAction: 'SUPPRESS',
      UserAttributes: Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value })),
    }),
  );
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: user.username, Password: PASSWORD, Permanent: true }));
  const signedIn = await cognito.send(
    new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.username, PASSWORD } }),
  );
  return { id: signedIn.AuthenticationResult!.IdToken!, access: signedIn.AuthenticationResult!.AccessToken! };
}

/** The event Cognito hands a V2 pre-token-generation trigger at sign-in, for a user as moto keeps it. */
export async function preTokenGenerationEvent(cognito: CognitoIdentityProviderClient, poolId: string, clientId: string, username: string) {
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: username }));
  return {
    version: '2',
    triggerSource: 'TokenGeneration_Authentication',
    region: REHEARSAL_REGION,
    userPoolId: poolId,
    userName: username,
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId },
    request: {
      userAttributes: Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name!, a.Value!])),
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [], preferredRole: null },
      scopes: ['aws.cognito.signin.user.admin'],
    },
    response: { claimsAndScopeOverrideDetails: null },
  };
}

/** What a V2 trigger answers: the claims to add to each token. */
export interface TriggerResponse {
  response: {
    claimsAndScopeOverrideDetails: {
      accessTokenGeneration?: { claimsToAddOrOverride?: Record<string, unknown> };
      idTokenGeneration?: { claimsToAddOrOverride?: Record<string, unknown> };
    };
  };
}

/**
 * moto runs no trigger: it issues its tokens without the claims the stack's trigger adds. The rehearsal does
 * that part of Cognito's work: it adds the claims the trigger bundle answered to moto's own tokens and signs
 * them with the key moto's pools sign with (moto ships one fixed key, whose public half its JWKS serves).
 * Everything else is moto's: issuer, subject, audience or client_id, token_use, times, key id.
 */
export async function withTriggerClaims(tokens: Tokens, answer: TriggerResponse): Promise<Tokens> {
  const details = answer.response.claimsAndScopeOverrideDetails;
  return {
    id: await resign(tokens.id, details.idTokenGeneration?.claimsToAddOrOverride ?? {}),
    access: await resign(tokens.access, details.accessTokenGeneration?.claimsToAddOrOverride ?? {}),
  };
}

let motoKey: Awaited<ReturnType<typeof importPKCS8>> | undefined;
async function resign(token: string, claims: Record<string, unknown>): Promise<string> {
  motoKey ??= await importPKCS8(motoSigningKey(), 'RS256');
  const header = decodeProtectedHeader(token);
  return new SignJWT({ ...decodeJwt(token), ...claims }).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(motoKey);
}

/**
 * The key moto's pools sign with, read through moto's own Python (on this image): moto keeps a JWK of only its modulus
 * and exponents, which Node's crypto refuses; Python's `cryptography` writes it whole as PKCS #8.
 */
const MOTO_KEY_SCRIPT = `
from cryptography.hazmat.primitives import serialization as s
from joserfc import jwk
from moto.utilities.utils import load_resource
key = jwk.RSAKey.import_key(load_resource("moto.cognitoidp.models", "resources/jwks-private.json"))
print(key.raw_value.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()).decode())
`;
const motoSigningKey = () => execFileSync('python3', ['-c', MOTO_KEY_SCRIPT], { encoding: 'utf8' });

/** The pool of another deployment: its tokens must be refused (only the issuer tells them apart in moto). */
export async function anotherPoolTokens(cognito: CognitoIdentityProviderClient, user: PoolUser): Promise<Tokens> {
  const pool = await cognito.send(
    new CreateUserPoolCommand({
      PoolName: 'another-deployment',
      Schema: ['client_id', 'permissions', 'campaigns'].map((Name) => ({ Name, AttributeDataType: 'String', Mutable: true })),
    }),
  );
  const client = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: pool.UserPool!.Id!,
      ClientName: 'another',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'],
    }),
  );
  return signIn(cognito, pool.UserPool!.Id!, client.UserPoolClient!.ClientId!, user);
}

/** What the stack says of the console's sign-in (its outputs), and what moto made of its app client and domain. */
export interface ConsoleSignInFacts {
  apiUrl: string;
  consoleUrl: string;
  clientId: string;
  signInDomain: string;
  poolId: string;
  /** The deployed console page's HTML (GetConsole's bundle with its role), when the rehearsal runs that bundle. */
  consolePage?: string;
}

/**
 * The console's app client as Cognito holds it (issue 45): the hosted UI sends a user back only to the console's
 * own HTTPS address on the API, by the authorization-code grant, to a public client (no secret: the browser
 * proves itself with PKCE); and its domain is the pool's.
 */
export async function consoleSignInChecks(
  cognito: CognitoIdentityProviderClient,
  facts: ConsoleSignInFacts,
): Promise<{ name: string; expected: string; got: string }[]> {
  const { UserPoolClient: client } = await cognito.send(
    new DescribeUserPoolClientCommand({ UserPoolId: facts.poolId, ClientId: facts.clientId }),
  );
  const prefix = new URL(facts.signInDomain).hostname.split('.')[0];
  const { DomainDescription: domain } = await cognito.send(new DescribeUserPoolDomainCommand({ Domain: prefix }));
  const expectedUrl = `${facts.apiUrl}${GetConsole.path}`;
  return [
    { name: 'console URL: the API’s /console over HTTPS', expected: expectedUrl, got: facts.consoleUrl },
    { name: 'console client’s callback URLs', expected: JSON.stringify([expectedUrl]), got: JSON.stringify(client?.CallbackURLs ?? []) },
    { name: 'console client’s sign-out URLs', expected: JSON.stringify([expectedUrl]), got: JSON.stringify(client?.LogoutURLs ?? []) },
    { name: 'console client’s grants', expected: '["code"]', got: JSON.stringify(client?.AllowedOAuthFlows ?? []) },
    { name: 'console client has no secret (PKCE)', expected: 'no secret', got: client?.ClientSecret ? 'a secret' : 'no secret' },
    { name: 'console sign-in domain of the pool', expected: facts.poolId, got: String(domain?.UserPoolId) },
    ...(facts.consolePage === undefined
      ? []
      : [
          {
            name: 'console page signs in through them',
            expected: JSON.stringify({ signIn: 'cognito', domain: facts.signInDomain, clientId: facts.clientId }),
            got:
              /<script type="application\/json" id="console-config">(.*?)<\/script>/.exec(facts.consolePage)?.[1] ??
              'no settings in the page',
          },
        ]),
  ];
}

/**
 * The pool's second factor as Cognito (moto) holds it once deployed (decisions §32): MFA required of every user,
 * BSP_CN operators among them, by an authenticator app (TOTP) and never by SMS.
 */
export async function poolMfaChecks(
  cognito: CognitoIdentityProviderClient,
  poolId: string,
): Promise<{ name: string; expected: string; got: string }[]> {
  const mfa = await cognito.send(new GetUserPoolMfaConfigCommand({ UserPoolId: poolId }));
  return [
    { name: 'pool’s MFA required of every user (BSP_CN operators too)', expected: 'ON', got: String(mfa.MfaConfiguration) },
    {
      name: 'pool’s second factor: an authenticator app (TOTP)',
      expected: 'enabled',
      got: mfa.SoftwareTokenMfaConfiguration?.Enabled ? 'enabled' : 'not enabled',
    },
    { name: 'pool’s second factor: never SMS', expected: 'no SMS', got: mfa.SmsMfaConfiguration ? 'SMS' : 'no SMS' },
  ];
}
