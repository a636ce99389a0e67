import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  LambdaVersion,
  Mfa,
  OAuthScope,
  StringAttribute,
  UserPool,
  UserPoolClientIdentityProvider,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { CLAIM_DEFAULTS, CLAIM_SETTINGS, COGNITO_CLAIMS, type ClaimNames } from '#lib/auth/claim-names.ts';
import { ServiceFunction } from './service-function.ts';

export const PRE_TOKEN_GENERATION_ENTRY = 'functions/sign-in/pre-token-generation.ts';

export interface IdentityProps {
  jwtIssuer?: string;
  jwtAudience?: string;
  jwksUrl?: string;
  cognito?: boolean;
  claims?: Partial<ClaimNames>;
  /**
   * The hosted UI's domain prefix (`<prefix>.auth.<region>.amazoncognito.com`), unique in the region across
   * accounts: the stack's name and account by default.
   */
  consoleDomainPrefix?: string;
}

/** How the console signs its users in through the pool: the hosted UI's base URL and its app client's id. */
export interface ConsoleSignIn {
  cognitoDomain: string;
  clientId: string;
}

/**
 * Who issues the tokens API Gateway accepts (decisions §17): an issuer of the deployer's (context jwtIssuer,
 * jwtAudience), or with `cognito` a user pool made here whose pre-token-generation trigger puts each user's
 * client id, permissions and campaigns into the access token. Either way the functions get the issuer, the
 * audience, the keys' URL and the claim names as settings.
 */
export class Identity extends Construct {
  readonly issuer: string;
  readonly audience: string;
  readonly environment: Record<string, string>;
  /** The user pool's pre-token-generation trigger, when there is a pool. */
  readonly trigger?: ServiceFunction;
  /** The app clients whose tokens the API accepts: the API's own, and the console's once added. */
  readonly audiences: string[];
  private readonly pool?: UserPool;
  private readonly consoleDomainPrefix?: string;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    const given = Object.fromEntries(Object.entries(props.claims ?? {}).filter(([, name]) => name));
    const claims: ClaimNames = { ...(props.cognito ? COGNITO_CLAIMS : CLAIM_DEFAULTS), ...given };
    if (props.cognito) {
      const trigger = new ServiceFunction(this, 'PreTokenGeneration', {
        entry: PRE_TOKEN_GENERATION_ENTRY,
        environment: claimEnvironment(claims),
        memorySize: 256,
        timeout: Duration.seconds(5),
      });
      const pool = new UserPool(this, 'Users', {
        selfSignUpEnabled: false,
        signInAliases: { username: true, email: true },
        // Essentials: the plan under which a V2 trigger may change access tokens.
        featurePlan: FeaturePlan.ESSENTIALS,
        passwordPolicy: { minLength: 12, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: true },
        accountRecovery: AccountRecovery.EMAIL_ONLY,
        // Decisions §32: BSP_CN operators control every tenant, so a password alone never signs them in. One pool,
        // since the API's JWT authorizer trusts one issuer, and Cognito cannot require MFA for some users of a
        // pool only: so every user has an authenticator app (TOTP); no SMS (no SNS role, no SIM swapping).
        mfa: Mfa.REQUIRED,
        mfaSecondFactor: { otp: true, sms: false },
        customAttributes: {
          client_id: new StringAttribute({ minLen: 1, maxLen: 20, mutable: true }),
          permissions: new StringAttribute({ maxLen: 2048, mutable: true }),
          campaigns: new StringAttribute({ maxLen: 2048, mutable: true }),
        },
        removalPolicy: RemovalPolicy.DESTROY,
      });
      pool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, trigger, LambdaVersion.V2_0);
      this.trigger = trigger;
      Validations.of(pool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'Essentials is the plan that lets the V2 trigger write access tokens; Plus adds threat protection at a cost (the operator decides).',
      });
      Validations.of(pool).acknowledge({
        id: 'AwsSolutions-COG3',
        reason: 'Threat protection (AdvancedSecurityMode) is a paid plan beyond Essentials; not enabled for a sandbox pool.',
      });
      // Only an administrator sets these three attributes (README: admin-create-user / admin-update-user-attributes).
      const client = pool.addClient('ApiClient', {
        authFlows: { userPassword: true, userSrp: true },
        generateSecret: false,
        accessTokenValidity: Duration.hours(1),
        preventUserExistenceErrors: true,
        // Users must never change their own client id, permissions or campaigns (UpdateUserAttributes).
        writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
      });
      this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${pool.userPoolId}`;
      this.audience = client.userPoolClientId;
      this.pool = pool;
      this.consoleDomainPrefix = props.consoleDomainPrefix;
      new CfnOutput(Stack.of(this), 'UserPoolId', { value: pool.userPoolId });
      new CfnOutput(Stack.of(this), 'UserPoolClientId', { value: client.userPoolClientId });
    } else {
      if (!props.jwtIssuer)
        throw new Error('Without the Cognito user pool (-c cognito=false) the stack needs -c jwtIssuer=… (README, "Deploying")');
      this.issuer = props.jwtIssuer;
      this.audience = props.jwtAudience ?? 'template-messaging-service';
    }
    const jwksUrl =
      props.jwksUrl ??
      (props.cognito
        ? `${this.issuer}/.well-known/jwks.json`
        : new URL('.well-known/jwks.json', this.issuer.endsWith('/') ? this.issuer : `${this.issuer}/`).href);
    this.audiences = [this.audience];
    this.environment = { JWT_ISSUER: this.issuer, JWT_AUDIENCE: this.audience, JWKS_URL: jwksUrl, ...claimEnvironment(claims) };
    new CfnOutput(Stack.of(this), 'JwtIssuer', { value: this.issuer });
  }

  /**
   * The console's sign-in through the pool (issue 45), when there is a pool: the hosted UI on a Cognito domain and
   * an app client for the browser, a public client (no secret) with the authorization-code grant (the console
   * sends a PKCE challenge), whose only callback and sign-out URL is the console's own address. Its access
   * tokens carry the trigger's claims like the API client's, so the API accepts them as its second audience.
   */
  addConsoleClient(consoleUrl: string): ConsoleSignIn | undefined {
    if (!this.pool) return undefined;
    const stack = Stack.of(this);
    const domain = this.pool.addDomain('ConsoleDomain', {
      cognitoDomain: { domainPrefix: this.consoleDomainPrefix ?? `${stack.stackName.toLowerCase()}-${stack.account}` },
    });
    const client = this.pool.addClient('ConsoleClient', {
      authFlows: { userSrp: true },
      generateSecret: false,
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [consoleUrl],
        logoutUrls: [consoleUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      preventUserExistenceErrors: true,
      // As the API client: users never change their own client id, permissions or campaigns.
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
    });
    this.audiences.push(client.userPoolClientId);
    new CfnOutput(stack, 'ConsoleUrl', { value: consoleUrl });
    new CfnOutput(stack, 'ConsoleClientId', { value: client.userPoolClientId });
    new CfnOutput(stack, 'ConsoleSignInDomain', { value: domain.baseUrl() });
    return { cognitoDomain: domain.baseUrl(), clientId: client.userPoolClientId };
  }
}

const claimEnvironment = (claims: ClaimNames) => ({
  [CLAIM_SETTINGS.clientId]: claims.clientId,
  [CLAIM_SETTINGS.permissions]: claims.permissions,
  [CLAIM_SETTINGS.campaigns]: claims.campaigns,
});
