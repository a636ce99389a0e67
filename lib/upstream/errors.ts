import { ApiError, upstreamUnavailable } from '#lib/errors.ts';
import { UpstreamError } from './graph-client.ts';

/** Graph's "Content in This Language Already Exists" (upstream-facts §6.2). */
const DUPLICATE_SUBCODE = 2388024;

/**
 * The one mapping of upstream failures to the contract's errors: unavailable → 502; the duplicate
 * name+language → 409; any other refusal → 400 with the upstream's own message (no tokens or trace ids).
 */
export function upstreamToApiError(error: unknown): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error.kind === 'unavailable') return upstreamUnavailable();
  if (error.graph?.error_subcode === DUPLICATE_SUBCODE) {
    return new ApiError(409, 'conflict', 'A template with this name and language already exists in the WABA');
  }
  return new ApiError(400, 'upstream_rejected', `Upstream refused the request: ${error.message}`);
}

export async function callUpstream<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw upstreamToApiError(error);
  }
}
