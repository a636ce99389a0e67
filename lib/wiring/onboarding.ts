import { createHash } from 'node:crypto';
import { ProcessVault, SecretsManagerVault, UnconfiguredVault } from '#lib/adapters/aws/secret-vault.ts';
import { LocalFileVault } from '#lib/adapters/local-file-vault.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoDirectoryWriter, DynamoOnboardingStore } from '#lib/adapters/dynamo/shared/onboarding-store.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphOnboarding } from '#lib/adapters/graph/graph-onboarding.ts';
import { graphApiToken } from '#lib/adapters/graph/token.ts';
import { metaWebhookSecrets } from '#lib/adapters/meta/webhook-secrets.ts';
import { graphApiTimeoutMs, graphApiVersion, graphAppId, graphTokenSettings, loadConfig, onboardingSettings } from '#lib/config.ts';
import type { OnboardingDeps } from '#lib/domain/shared/onboarding.ts';
import { onboardedTemplates } from '#lib/domain/templates/onboarded-templates.ts';
import { logger } from '#lib/log/logger.ts';
import { serviceTable } from './table.ts';
import { graphUpstream } from './upstream.ts';

let deps: OnboardingDeps | undefined;

/** The onboarding's adapters (issue 55), made at first use: a bundle loads before its settings are read. */
export function onboardingDeps(): OnboardingDeps {
  if (deps) return deps;
  const table = serviceTable();
  const settings = onboardingSettings();
  const options = {
    baseUrl: loadConfig('GRAPH_API_URL').GRAPH_API_URL,
    token: () => graphApiToken(),
    version: graphApiVersion(),
    timeoutMs: graphApiTimeoutMs(),
    log: logger,
  };
  const upstream = new GraphOnboarding(new GraphClient(options), {
    ...options,
    appId: graphAppId(),
    appSecret: async () => (await metaWebhookSecrets()).appSecret,
  });
  deps = {
    onboardings: new DynamoOnboardingStore(table),
    upstream,
    // Secrets Manager where the stack names a prefix; locally, files in the data folder where the stack keeps one, else
    // the process's memory (the Graph token given directly).
    vault: settings.secretPrefix
      ? new SecretsManagerVault(settings.secretPrefix)
      : settings.localVaultDir
        ? new LocalFileVault(settings.localVaultDir)
        : graphTokenSettings().GRAPH_API_TOKEN
          ? new ProcessVault()
          : new UnconfiguredVault(),
    directory: new DynamoDirectoryStore(table),
    writer: new DynamoDirectoryWriter(table),
    templates: onboardedTemplates({
      directory: new DynamoDirectoryStore(table),
      records: new DynamoTemplateRecords(table),
      outbox: new DynamoOutboxStore(table),
      publisher: new EventBridgePublisher(),
      upstream: graphUpstream(),
      log: logger,
    }),
    log: logger,
    sha256: (text) => createHash('sha256').update(text).digest('hex'),
    settings: {
      providerPaysMeta: settings.providerPaysMeta,
      ...(settings.providerBusinessId && { providerBusinessId: settings.providerBusinessId }),
    },
  };
  return deps;
}
