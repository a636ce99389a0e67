import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('service metrics (Powertools Metrics, EMF on stdout)', () => {
  let lines: string[];
  beforeEach(() => {
    vi.resetModules();
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    lines = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('publishes the non-zero counts as one EMF line under the service namespace and dimension', async () => {
    // Prepare
    const { countMetrics } = await import('#lib/log/metrics.ts');
    // Act
    countMetrics({ MessagesDispatched: 88, MessagesFailed: 2, SyncRuns: 0 });
    // Assess
    const emf = lines.map((l) => JSON.parse(l)).filter((l) => l._aws);
    expect(emf).toHaveLength(1);
    expect(emf[0]).toMatchObject({ MessagesDispatched: 88, MessagesFailed: 2, service: 'template-messaging-service' });
    expect(emf[0]).not.toHaveProperty('SyncRuns');
    expect(emf[0]._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'TemplateMessagingService', Dimensions: [['service']] });
  });

  it('writes nothing when nothing happened', async () => {
    const { countMetrics } = await import('#lib/log/metrics.ts');
    countMetrics({ WebhooksDelivered: 0 });
    expect(lines).toEqual([]);
  });
});
