import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_BYTES, MONTH_SECONDS, PRICES } from '../../bench/sim/status-assumptions.ts';
import { logDollarsPerGb } from '../../bench/sim/status-figures.ts';
import type { HttpRequest } from '#lib/http/context.ts';
import { requestContext } from '#lib/http/middlewares/request-context.ts';
import { inInvocation } from '#lib/log/logger.ts';

/** A deployed intake's Lambda context: CDK's function names run to 64 characters. */
const FUNCTION = 'TemplateMessagingService-ReceiveMetaWebhook1A2B3C4D-AbCdEfGhIjKl';
const context = {
  functionName: FUNCTION,
  functionVersion: '$LATEST',
  memoryLimitInMB: '512',
  awsRequestId: '8f5a3c2e-1b4d-4e6f-9a7b-0c1d2e3f4a5b',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${FUNCTION}`,
} as Context;

/** The lines the intake writes for one POST, at the deployed INFO level, with X-Ray's trace id as Lambda sets it. */
async function intakeLines() {
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-6749b2c4-5d1e0f3a7b9c2d4e6f8a0b1c;Parent=53995c3f42cd8ad8;Sampled=1');
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  const middleware = requestContext();
  const request = {
    event: {
      routeKey: 'POST /v1/meta/webhooks',
      requestContext: { requestId: 'f6a1c2d3-9b8e-4d7c-a6f5-e4d3c2b1a0f9', http: { method: 'POST' } },
    },
    context,
    response: { statusCode: 200 },
  } as unknown as HttpRequest;
  await inInvocation(context, {}, async () => {
    await middleware.before?.(request);
    await middleware.after?.(request);
  });
  return lines.filter((line) => line.trim() !== '');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the logs the HIGH model prices (docs/high-tier.md §5)', () => {
  it('the intake writes one line a POST, of the bytes the model takes', async () => {
    // Act
    const lines = await intakeLines();
    // Assess: one JSON line with the request's ids, within 5 % of LOG_BYTES.intakePost
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ message: 'request', function_name: FUNCTION, correlation_id: expect.any(String) });
    expect(Math.abs(Buffer.byteLength(lines[0]) - LOG_BYTES.intakePost)).toBeLessThanOrEqual(LOG_BYTES.intakePost * 0.05);
  });

  it('prices a month’s logs by CloudWatch’s tiers for Lambda', () => {
    // Prepare: 60 TB a month, Duckbill's worked example ($30,000 flat, $12,500 tiered, at 1,000 GB a TB)
    const gb = 60 * 1024;
    // Act
    const tiered = logDollarsPerGb(gb) * gb;
    // Assess: 10 TB at $0.50, 20 at $0.25, 20 at $0.10 and 10 at $0.05; 10 TB or less all at the first tier
    expect(tiered).toBeCloseTo(12_500 * 1.024, 6);
    expect(logDollarsPerGb(gb, true)).toBe(PRICES.logTiers[0][1]);
    expect(logDollarsPerGb(10 * 1024)).toBe(0.5);
    expect(MONTH_SECONDS).toBe(2_592_000);
  });
});
