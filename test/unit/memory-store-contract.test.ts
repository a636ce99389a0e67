import { MemorySyncLeaseStore, MemoryTemplateRecordStore } from '../support/memory/stores.ts';
import { syncLeaseStoreContract, templateRecordStoreContract } from '../support/store-contract.ts';

templateRecordStoreContract('in memory', () => new MemoryTemplateRecordStore());
syncLeaseStoreContract('in memory', () => new MemorySyncLeaseStore());
