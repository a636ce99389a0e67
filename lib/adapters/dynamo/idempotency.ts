import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { IdempotencyAlreadyInProgressError, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { Conflict } from '#lib/domain/shared/errors.ts';
import type { ServiceTable } from './client.ts';
import { TTL_ATTRIBUTE } from './table.ts';

/**
 * What an idempotent request is known by: its scope (the acting client) and the caller's key; `body` is what a
 * retry must repeat exactly. Other fields are handed to the run unchecked (a fresh send id).
 */
export interface IdempotentRequest {
  scope: string;
  key: string;
  body: unknown;
}

/** How long a key's first answer is kept (decisions §12). */
const KEEP_SECONDS = 24 * 60 * 60;

/**
 * Powertools Idempotency on the service's table (items `IDEMPOTENCY` / `<function>#<hash of scope and key>`,
 * removed by the table's TTL): the first request with a key runs, later ones with the same key and body get
 * its answer, with another body 409 `idempotency_key_reused`, while it still runs 409 `idempotency_in_progress`.
 * A request that throws leaves no record, so it may be tried again.
 */
export function idempotent<Q extends IdempotentRequest, R>(table: ServiceTable, run: (request: Q) => Promise<R>) {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[scope, key]',
    payloadValidationJmesPath: 'body',
    expiresAfterSeconds: KEEP_SECONDS,
    throwOnNoIdempotencyKey: true,
  });
  let persistence: DynamoDBPersistenceLayer | undefined;
  let wrapped: ((request: Q) => Promise<R>) | undefined;
  return async (request: Q, context: Context): Promise<R> => {
    persistence ??= new DynamoDBPersistenceLayer({
      tableName: table.name,
      keyAttr: 'pk',
      sortKeyAttr: 'sk',
      staticPkValue: 'IDEMPOTENCY',
      expiryAttr: TTL_ATTRIBUTE,
      // The table's own client: Powertools sends plain commands, which a document client passes through as they are.
      awsSdkV3Client: table.client,
    });
    wrapped ??= makeIdempotent(run, { persistenceStore: persistence, config });
    // A request that dies mid-way frees its key when the invocation's time is up, not 24 hours later.
    config.registerLambdaContext(context);
    try {
      return await wrapped(request);
    } catch (error) {
      if (error instanceof IdempotencyValidationError)
        throw new Conflict('This Idempotency-Key was used with another request body', 'idempotency_key_reused');
      if (error instanceof IdempotencyAlreadyInProgressError)
        throw new Conflict('A request with this Idempotency-Key is still in progress', 'idempotency_in_progress');
      throw error;
    }
  };
}
