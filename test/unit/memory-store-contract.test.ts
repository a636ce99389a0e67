import { MemoryPeopleMap } from '../support/memory/people/people-map.ts';
import { peopleMapContract } from '../support/people-map-contract.ts';
import { MemoryPriceListStore } from '../support/memory/money/price-list-store.ts';
import { MemoryReconciliationStore } from '../support/memory/money/reconciliation-store.ts';
import { MemoryWebhookConfigStore } from '../support/memory/webhooks/webhook-config-store.ts';
import { MemoryThroughputStore } from '../support/memory/sends/throughput-store.ts';
import { marketingOnboardingsContract, throughputStoreContract, webhookConfigStoreContract } from '../support/config-store-contracts.ts';
import { MemoryMarketingOnboardings } from '../support/memory/sends/marketing-onboardings.ts';
import { MemoryBudgetStore } from '../support/memory/money/budget-store.ts';
import { MemorySuppressionStore } from '../support/memory/people/suppression-store.ts';
import { MemoryTemplatePauses } from '../support/memory/templates/template-pauses.ts';
import { MemoryPausedJobs } from '../support/memory/sends/paused-jobs.ts';
import {
  budgetStoreContract,
  priceListContract,
  reconciliationStoreContract,
  suppressionStoreContract,
  pausedJobsContract,
  templatePausesContract,
} from '../support/cost-and-consent-contracts.ts';
import { MemoryDeliveryLog } from '../support/memory/webhooks/webhook-delivery-log.ts';
import { MemoryPacer } from '../support/memory/sends/pacer.ts';
import { memorySends } from '../support/memory/sends/sends.ts';
import { MemorySyncLeaseStore } from '../support/memory/templates/sync-lease-store.ts';
import { memoryTemplates } from '../support/memory/templates/templates.ts';
import {
  deliveryLogContract,
  pacerContract,
  sendStoreContract,
  syncLeaseStoreContract,
  templateRecordStoreContract,
} from '../support/store-contract.ts';
import { abStoreContract } from '../support/ab-store-contract.ts';

templateRecordStoreContract('in memory', () => memoryTemplates());
syncLeaseStoreContract('in memory', () => new MemorySyncLeaseStore());
deliveryLogContract('in memory', () => new MemoryDeliveryLog());
sendStoreContract('in memory', () => memorySends());
abStoreContract('in memory', () => memorySends());
pacerContract('in memory', () => new MemoryPacer());
budgetStoreContract('in memory', () => new MemoryBudgetStore());
suppressionStoreContract('in memory', () => new MemorySuppressionStore());
templatePausesContract('in memory', () => new MemoryTemplatePauses());
pausedJobsContract('in memory', () => new MemoryPausedJobs());
webhookConfigStoreContract('in memory', () => new MemoryWebhookConfigStore());
marketingOnboardingsContract('in memory', () => new MemoryMarketingOnboardings());
throughputStoreContract('in memory', () => new MemoryThroughputStore());
reconciliationStoreContract('in memory', () => new MemoryReconciliationStore());
priceListContract('in memory', () => new MemoryPriceListStore());
peopleMapContract('in memory', () => new MemoryPeopleMap());
