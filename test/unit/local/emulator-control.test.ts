import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { GraphEmulator } from '../../../local/standins/graph/emulator.ts';
import type { MetaNotifier } from '../../../local/standins/graph/notifier.ts';

const fixture = () => parseDirectoryFile(JSON.parse(readFileSync(new URL('../../../fixtures/demo.json', import.meta.url), 'utf8')));

/** A control request to the emulator in process: its status and JSON body. */
async function control(emulator: GraphEmulator, method: string, path: string, body?: unknown) {
  const response = await emulator.fetch(`http://emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** A notifier that keeps what it was asked to send: the WABA, the field and the value. */
function keptNotifications() {
  const sent: { wabaId: string; field: string; value: Record<string, unknown> }[] = [];
  const notifier = {
    log: [],
    notify: (wabaId: string, field: string, value: Record<string, unknown>) => sent.push({ wabaId, field, value }),
  };
  return { sent, notifier: notifier as unknown as MetaNotifier };
}

/** The emulator's control endpoints (/_emulator/…): a table of method and path to what answers it. */
describe('the Graph emulator’s control endpoints', () => {
  it('answers an endpoint by its method and path, and 404 to a method the path does not take', async () => {
    // Prepare
    const emulator = new GraphEmulator(fixture());
    // Act
    const held = await control(emulator, 'POST', '/_emulator/templates/9006/hold', { outcome: 'drop', after_ms: 5 });
    const unknownMethod = await control(emulator, 'GET', '/_emulator/templates/9006/hold');
    const ended = await control(emulator, 'DELETE', '/_emulator/templates/9006/hold');
    const noTemplate = await control(emulator, 'DELETE', '/_emulator/templates/nope/hold');
    // Assess
    expect(held).toEqual({ status: 200, body: { id: '9006', hold: { outcome: 'drop', after_ms: 5 } } });
    expect(unknownMethod).toEqual({ status: 404, body: { error: 'unknown control endpoint' } });
    expect(ended).toEqual({ status: 200, body: { id: '9006', hold: null } });
    expect(noTemplate).toEqual({ status: 404, body: { error: 'no such template' } });
    expect(emulator.model.findTemplate('9006')?.template.hold).toBeUndefined();
  });

  it('reaches the people’s endpoints and the recipients’ too, and refuses what they refuse', async () => {
    // Prepare
    const emulator = new GraphEmulator(fixture());
    // Act
    const user = await control(emulator, 'POST', '/_emulator/users', { user_id: 'US.control1', phone: '+1 555 0100' });
    const notABsuid = await control(emulator, 'POST', '/_emulator/users', { user_id: 'control1' });
    const capped = await control(emulator, 'POST', '/_emulator/users/US.control1/capped');
    const noWebhooks = await control(emulator, 'POST', '/_emulator/users/US.control1/preferences', {
      phone_number_id: '110001',
      value: 'stop',
    });
    // Assess
    expect(user).toEqual({ status: 200, body: { user_id: 'US.control1', phone: '15550100' } });
    expect(notABsuid).toEqual({ status: 400, body: { error: 'user_id must be a BSUID' } });
    expect(capped).toEqual({ status: 200, body: { capped: 'US.control1' } });
    expect(noWebhooks).toEqual({ status: 409, body: { error: 'no webhook target configured' } });
  });

  it('pauses a template, then unpauses it by itself, each change told as Meta’s status event', async () => {
    // Prepare
    const emulator = new GraphEmulator(fixture());
    const { sent, notifier } = keptNotifications();
    emulator.notifier = notifier;
    // Act
    const paused = await control(emulator, 'POST', '/_emulator/templates/9005/pause', { seconds: 0.02 });
    const whilePaused = emulator.model.findTemplate('9005')?.template.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Assess
    expect(paused).toEqual({ status: 200, body: { id: '9005', status: 'PAUSED', seconds: 0.02 } });
    expect(whilePaused).toBe('PAUSED');
    expect(emulator.model.findTemplate('9005')?.template.status).toBe('APPROVED');
    expect(sent.map((n) => [n.wabaId, n.field, n.value.event, n.value.other_info])).toEqual([
      ['100200300', 'message_template_status_update', 'PAUSED', { title: 'FIRST_PAUSE' }],
      ['100200300', 'message_template_status_update', 'APPROVED', { title: 'UNPAUSE' }],
    ]);
  });

  it('escalates a template’s quality pauses as Meta does: the first, the second, then the third disables it', async () => {
    // Prepare
    const emulator = new GraphEmulator(fixture());
    const { sent, notifier } = keptNotifications();
    emulator.notifier = notifier;
    // Act: a pacing pause, two quality pauses, a third
    const pacing = await control(emulator, 'POST', '/_emulator/templates/9005/pause', { seconds: 0.01, kind: 'pacing' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await control(emulator, 'POST', '/_emulator/templates/9005/pause', { seconds: 0.01 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await control(emulator, 'POST', '/_emulator/templates/9005/pause', {});
    const third = await control(emulator, 'POST', '/_emulator/templates/9005/pause', {});
    // Assess
    expect(pacing.status).toBe(200);
    expect(second).toEqual({ status: 200, body: { id: '9005', status: 'PAUSED', seconds: 6 * 3600 } });
    expect(third).toEqual({ status: 200, body: { id: '9005', status: 'DISABLED', pauses: 2 } });
    expect(emulator.model.findTemplate('9005')?.template.status).toBe('DISABLED');
    expect(sent.map((n) => [n.value.event, (n.value.other_info as { title: string }).title])).toEqual([
      ['PAUSED', 'RATE_LIMITING_PAUSE'],
      ['APPROVED', 'UNPAUSE'],
      ['PAUSED', 'FIRST_PAUSE'],
      ['APPROVED', 'UNPAUSE'],
      ['PAUSED', 'SECOND_PAUSE'],
      ['DISABLED', 'DISABLED'],
    ]);
  });
});
