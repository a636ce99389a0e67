import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileVault } from '#lib/adapters/local-file-vault.ts';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'tms-vault-'));
  folders.push(made);
  return join(made, 'vault');
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('the local stack’s file vault (onboardings’ business tokens where the stack keeps its data)', () => {
  it('reads a kept secret back through another instance, as a restarted stack would', async () => {
    // Prepare
    const where = folder();
    const ref = await new LocalFileVault(where).keep('onboarding/abc/token', 'EAAB-secret');
    // Act
    const read = await new LocalFileVault(where).read(ref);
    // Assess
    expect(read).toBe('EAAB-secret');
  });

  it('keeps the latest value of a name, in a file only its user reads, named by a hash', async () => {
    // Prepare
    const where = folder();
    const vault = new LocalFileVault(where);
    await vault.keep('onboarding/abc/pin', '111111');
    // Act
    const ref = await vault.keep('onboarding/abc/pin', '222222');
    // Assess
    const files = readdirSync(where);
    expect(await vault.read(ref)).toBe('222222');
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.secret$/);
    expect(statSync(join(where, files[0])).mode & 0o777).toBe(0o600);
  });

  it('answers null for a reference it never kept', async () => {
    // Prepare
    const vault = new LocalFileVault(folder());
    // Act
    const read = await vault.read('local-file/onboarding/none/token');
    // Assess
    expect(read).toBeNull();
  });
});
