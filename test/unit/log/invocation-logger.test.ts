import { describe, expect, it, vi } from 'vitest';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { prettyLine } from '../../../local/pretty-logs.ts';

const contextOf = (functionName: string, awsRequestId: string) => ({ functionName, awsRequestId, functionVersion: '$LATEST' });

describe('the invocation logger (decisions §21)', () => {
  it('names each line’s own function and request while invocations overlap in one process', async () => {
    // Prepare: lines as written (the logger prints JSON through its console)
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      lines.push(JSON.parse(String(text)));
      return true;
    });
    process.env.LOG_LEVEL = 'INFO';
    // Act: two invocations interleave their awaits
    const run = (fn: string, id: string) =>
      inInvocation(contextOf(fn, id), {}, async () => {
        logger.appendKeys({ request_id: id });
        await new Promise((r) => setTimeout(r, 5));
        logger.info('request');
        await new Promise((r) => setTimeout(r, 5));
        logger.info('request');
      });
    await Promise.all([run('ListTemplates', 'a'), run('GetSyncStatus', 'b')]);
    process.env.LOG_LEVEL = 'SILENT';
    vi.restoreAllMocks();
    // Assess
    const pairs = lines.map((line) => `${line.function_name}:${line.request_id}`).sort();
    expect(pairs).toEqual(['GetSyncStatus:b', 'GetSyncStatus:b', 'ListTemplates:a', 'ListTemplates:a']);
  });
});

describe('LOG_FORMAT=pretty (local/pretty-logs.ts)', () => {
  it('shows a request line as one short line, another line with its own keys, and leaves other text alone', () => {
    const request = JSON.stringify({
      level: 'INFO',
      message: 'request',
      timestamp: '2026-11-24T06:13:53.123Z',
      function_name: 'ListTemplates',
      request_id: '3f2a9c1e-0000',
      method: 'GET',
      route: 'GET /v1/templates',
      status: 200,
      duration_ms: 12,
    });
    const job = JSON.stringify({
      level: 'WARN',
      message: 'dispatch job',
      timestamp: '2026-11-24T06:13:54.000Z',
      function_name: 'DispatchMessages',
      sent: 3,
    });
    expect(prettyLine(request)).toBe('06:13:53.123 200 GET /v1/templates 12 ms ListTemplates 3f2a9c1e');
    expect(prettyLine(job)).toBe('06:13:54.000 WARN  DispatchMessages dispatch job sent=3 -');
    expect(prettyLine('API base URL: http://127.0.0.1:3000/v1')).toBeNull();
  });
});
