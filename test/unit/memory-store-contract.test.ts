import {
  MemoryDeliveryLog,
  MemoryPacer,
  MemorySendStore,
  MemorySyncLeaseStore,
  MemoryTemplateRecordStore,
} from '../support/memory/stores.ts';
import {
  deliveryLogContract,
  pacerContract,
  sendStoreContract,
  syncLeaseStoreContract,
  templateRecordStoreContract,
} from '../support/store-contract.ts';

templateRecordStoreContract('in memory', () => new MemoryTemplateRecordStore());
syncLeaseStoreContract('in memory', () => new MemorySyncLeaseStore());
deliveryLogContract('in memory', () => new MemoryDeliveryLog());
sendStoreContract('in memory', () => new MemorySendStore());
pacerContract('in memory', () => new MemoryPacer());
