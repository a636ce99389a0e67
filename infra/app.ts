import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { checkQuotas } from './quotas.ts';
import { TemplateMessagingStack } from './stack.ts';

/**
 * The deployment's settings are context values (`cdk deploy -c key=value`, or cdk.json): README, "Deploy",
 * lists each one. cdk-nag's AwsSolutions checks run at every synth: an unacknowledged finding fails it; so do
 * the deployment's quotas (infra/quotas.ts: resources, template size, environments, inline policies).
 */
const app = new App();
const context = (key: string) => app.node.tryGetContext(key) as string | undefined;
const number = (key: string) => (context(key) === undefined ? undefined : Number(context(key)));
const stack = new TemplateMessagingStack(app, context('stackName') ?? 'TemplateMessagingService', {
  // A user pool of its own unless the deployer brings an issuer (README, "Deploying").
  cognito: context('cognito') === undefined ? !context('jwtIssuer') : String(context('cognito')) === 'true',
  jwtIssuer: context('jwtIssuer'),
  jwtAudience: context('jwtAudience'),
  jwksUrl: context('jwksUrl'),
  claims: { clientId: context('claimClientId'), permissions: context('claimPermissions'), campaigns: context('claimCampaigns') },
  graphApiUrl: context('graphApiUrl'),
  graphAppId: context('graphAppId'),
  graphApiVersion: context('graphApiVersion'),
  messagesPerSecond: number('messagesPerSecond'),
  dispatchConcurrency: number('dispatchConcurrency'),
  alarmEmail: context('alarmEmail'),
  statementIssuer: { name: context('statementProviderName'), address: context('statementProviderAddress') },
  onboarding: {
    ...(context('providerPaysMeta') !== undefined && { providerPaysMeta: context('providerPaysMeta') !== 'false' }),
    providerBusinessId: context('providerBusinessId'),
  },
  consoleDomainPrefix: context('consoleDomainPrefix'),
  embeddedSignupConfigId: context('embeddedSignupConfigId'),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
if (context('nag') !== 'false') Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

const assembly = app.synth();
const templateOf = (file: string) => JSON.parse(readFileSync(join(assembly.directory, file), 'utf8'));
const problems = [
  ...checkQuotas(assembly.getStackArtifact(stack.artifactId).template).problems,
  ...Object.entries(stack.nestedStacks()).flatMap(([name, nested]) =>
    checkQuotas(templateOf(nested.templateFile)).problems.map((p) => `${name}: ${p}`),
  ),
];
if (problems.length > 0) throw new Error(`The stack would not deploy: ${problems.join('; ')}`);
