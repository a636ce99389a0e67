import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { TemplateMessagingStack } from './stack.ts';

const app = new App();
const context = (key: string) => app.node.tryGetContext(key) as string | undefined;
new TemplateMessagingStack(app, context('stackName') ?? 'TemplateMessagingService', {
  jwtIssuer: context('jwtIssuer') ?? 'https://auth.example.com/',
  jwtAudience: context('jwtAudience') ?? 'template-messaging-service',
  jwksUrl: context('jwksUrl'),
  graphApiUrl: context('graphApiUrl'),
  graphAppId: context('graphAppId'),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
if (context('nag') === 'true') Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
