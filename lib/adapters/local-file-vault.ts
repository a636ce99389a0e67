import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretVault } from '#lib/domain/shared/ports.ts';

/**
 * The local stack's vault where it keeps its data (`npm start`'s data folder, decisions §16): each secret a file of
 * its own, readable by this user alone, written whole or not at all, so an onboarding accepted before a crash
 * resumes after it without its code (Meta takes a code once). Named by a hash: a file's name says nothing.
 */
export class LocalFileVault implements SecretVault {
  constructor(private readonly folder: string) {}

  async keep(name: string, value: string) {
    const ref = `local-file/${name}`;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = this.fileOf(ref);
    const fd = openSync(`${file}.tmp`, 'w', 0o600);
    try {
      writeFileSync(fd, value);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(`${file}.tmp`, file);
    return ref;
  }

  async read(ref: string) {
    try {
      return readFileSync(this.fileOf(ref), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  private fileOf(ref: string) {
    return join(this.folder, `${createHash('sha256').update(ref).digest('hex')}.secret`);
  }
}
