/** Node's network failures: the service was not reached, or its connection dropped. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED']);
/** Failures an AWS service names as its load, not the request's fault. */
const THROTTLED = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'TimeoutError',
  'RequestTimeout',
]);

/**
 * Whether an AWS SDK call failed for the service's sake, not the request's: a fault on the service's side
 * (DynamoDB's InternalServerError, SQS's), throttling, a timeout, a dropped connection, or a transaction
 * cancelled only by concurrent ones after its tries. A request that meets one is answered 502
 * `upstream_unavailable` (the contract's "internal dispatch unreachable"), never 500, and may be tried again;
 * anything else the SDK throws (a malformed call) stays a bug of ours: 500.
 */
export function isServiceUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as { name?: string; code?: string; $fault?: string; $retryable?: unknown };
  if (failure.$fault === 'server' || failure.$retryable) return true;
  if (failure.name && THROTTLED.has(failure.name)) return true;
  if (failure.code && NETWORK_CODES.has(failure.code)) return true;
  return isTransactionConflict(error);
}

/** DynamoDB's reason per item of a cancelled transaction (`None` for the items that were fine), or undefined. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if ((error as Error)?.name !== 'TransactionCanceledException') return undefined;
  return (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.map((r) => r.Code ?? 'None') ?? [];
}

/** Cancelled only because another transaction held an item at that moment: worth trying again as it was. */
export function isTransactionConflict(error: unknown) {
  const codes = cancellationCodes(error);
  return Boolean(codes?.includes('TransactionConflict') && codes.every((c) => c === 'None' || c === 'TransactionConflict'));
}
