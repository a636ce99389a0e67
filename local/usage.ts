/**
 * What the local stack's functions used, for the benchmark's cost table (BENCHMARKS.md, issue 22): each
 * function's invocations and their time, and the SQS requests the event source mapping makes for them
 * (receives that brought messages, deletes, visibility changes: what AWS bills; idle polls are left out, as
 * they cost by the hour, not by the message). Local and benchmark use only.
 */
export interface Usage {
  invocations: Map<string, { count: number; ms: number }>;
  pollerRequests: number;
}

export const usage: Usage = { invocations: new Map(), pollerRequests: 0 };

export function recordInvocation(functionName: string, ms: number) {
  const seen = usage.invocations.get(functionName) ?? { count: 0, ms: 0 };
  seen.count += 1;
  seen.ms += ms;
  usage.invocations.set(functionName, seen);
}

export function resetUsage() {
  usage.invocations.clear();
  usage.pollerRequests = 0;
}
