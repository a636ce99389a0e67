import { MemoryDeliveryLog, MemorySyncLeaseStore, MemoryTemplateRecordStore } from '../support/memory/stores.ts';
import { deliveryLogContract, syncLeaseStoreContract, templateRecordStoreContract } from '../support/store-contract.ts';

templateRecordStoreContract('in memory', () => new MemoryTemplateRecordStore());
syncLeaseStoreContract('in memory', () => new MemorySyncLeaseStore());
deliveryLogContract('in memory', () => new MemoryDeliveryLog());
