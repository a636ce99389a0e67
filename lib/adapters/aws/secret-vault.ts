import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { Unprocessable } from '#lib/domain/shared/errors.ts';
import type { SecretVault } from '#lib/domain/shared/ports.ts';

/**
 * Secrets kept as the service keeps its credentials (a WABA's `credentials_ref` names a Secrets Manager secret): one
 * secret per name under the stack's prefix, its value replaced by each `keep`. Values never reach a log.
 */
export class SecretsManagerVault implements SecretVault {
  constructor(
    private readonly prefix: string,
    private readonly client = new SecretsManagerClient({}),
  ) {}

  async keep(name: string, value: string) {
    const id = `${this.prefix}${name}`;
    try {
      await this.client.send(new CreateSecretCommand({ Name: id, SecretString: value }));
    } catch (error) {
      if (!(error instanceof ResourceExistsException)) throw error;
      await this.client.send(new PutSecretValueCommand({ SecretId: id, SecretString: value }));
    }
    return id;
  }

  async read(ref: string) {
    try {
      return (await this.client.send(new GetSecretValueCommand({ SecretId: ref }))).SecretString ?? null;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return null;
      throw error;
    }
  }
}

const KEPT = Symbol.for('tms.local-secret-vault');
type Kept = Map<string, string>;

/** The process's one map, whichever copy of this module a function loaded. */
function processKept(): Kept {
  const holder = globalThis as Record<symbol, Kept | undefined>;
  const kept = holder[KEPT] ?? new Map<string, string>();
  holder[KEPT] = kept;
  return kept;
}

/**
 * The local stack's vault, as its Graph token is given directly (GRAPH_API_TOKEN) where AWS has a secret: kept in
 * the process's memory, shared by every function of the local API, where the stack keeps no data folder (with one,
 * LocalFileVault keeps them there).
 */
export class ProcessVault implements SecretVault {
  private readonly kept = processKept();

  async keep(name: string, value: string) {
    const ref = `local/${name}`;
    this.kept.set(ref, value);
    return ref;
  }

  async read(ref: string) {
    return this.kept.get(ref) ?? null;
  }
}

/**
 * Where neither is set up (a deployment without ONBOARDING_SECRET_PREFIX): a business token is never kept in a
 * function's memory, so the step that would keep one fails saying why.
 */
export class UnconfiguredVault implements SecretVault {
  async keep(): Promise<string> {
    throw new Unprocessable('ONBOARDING_SECRET_PREFIX is not set: the business token has nowhere to be kept');
  }

  async read() {
    return null;
  }
}
