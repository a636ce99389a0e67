import { directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import type { ChannelRecord, Waba } from '#lib/domain/shared/directory.ts';
import type { Onboarding } from '#lib/domain/shared/onboarding-record.ts';
import type { DirectoryWriter, OnboardedDirectory, OnboardingStore, SecretVault } from '#lib/domain/shared/ports.ts';
import { copy } from '../copy.ts';

/** Onboardings in memory, each write conditioned on the `rev` read as DynamoDB's is. */
export class MemoryOnboardingStore implements OnboardingStore {
  readonly items = new Map<string, Onboarding>();

  async get(id: string) {
    return copy(this.items.get(id) ?? null);
  }
  async create(onboarding: Onboarding) {
    if (this.items.has(onboarding.onboarding_id)) return false;
    this.items.set(onboarding.onboarding_id, copy(onboarding));
    return true;
  }
  async save(onboarding: Onboarding) {
    if (this.items.get(onboarding.onboarding_id)?.rev !== onboarding.rev) return false;
    this.items.set(onboarding.onboarding_id, copy({ ...onboarding, rev: onboarding.rev + 1 }));
    return true;
  }
}

/** The directory an onboarding adds to, by key as the import writes it: WABAs, channels, currencies. */
export class MemoryDirectoryWriter implements DirectoryWriter {
  readonly wabas = new Map<string, Waba>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly currencies = new Map<string, { currency: string; timezone_id?: string }>();
  writes = 0;

  async addOnboarded(entry: OnboardedDirectory) {
    const entities = directoryEntities(parseDirectoryFile({ clients: [entry.client], wabas: [entry.waba], channels: entry.channels }));
    for (const waba of entities.wabas) this.wabas.set(waba.waba_id, copy(waba));
    for (const channel of entities.channels) this.channels.set(channel.wa_id, copy(channel));
    this.currencies.set(entry.waba.waba_id, { currency: entry.currency, ...(entry.timezone_id && { timezone_id: entry.timezone_id }) });
    this.writes += 1;
  }
}

/** A vault in memory that remembers every value it was given (a test looks for a token where it must not be). */
export class MemoryVault implements SecretVault {
  readonly kept = new Map<string, string>();
  async keep(name: string, value: string) {
    this.kept.set(`mem/${name}`, value);
    return `mem/${name}`;
  }
  async read(ref: string) {
    return this.kept.get(ref) ?? null;
  }
}
