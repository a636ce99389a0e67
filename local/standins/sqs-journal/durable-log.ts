import { closeSync, existsSync, fdatasync, fsyncSync, openSync, readFileSync, renameSync, write, writeSync } from 'node:fs';

/**
 * An append-only file of JSON lines whose `append` resolves once the line is on disk (written and
 * fdatasync'd), so whatever was acknowledged after it survives a SIGKILL or a power cut. Lines appended while a
 * write is under way go out together in the next one (one fdatasync for many: about 3 ms here each).
 */
export class DurableLog<T> {
  private fd: number;
  private waiting: { line: string; done: () => void; failed: (error: Error) => void }[] = [];
  private writing = false;

  constructor(file: string) {
    this.fd = openSync(file, 'a');
  }

  /** Every whole line of a log left by an earlier run (a line cut short by a crash is dropped). */
  static read<T>(file: string): T[] {
    if (!existsSync(file)) return [];
    const lines = readFileSync(file, 'utf8').split('\n');
    const entries: T[] = [];
    for (const line of lines) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as T);
      } catch {
        // The last line of a log cut by a crash: never acknowledged, so never relied on.
      }
    }
    return entries;
  }

  /** Replaces the file with these entries (written whole, then renamed over it) and appends after them. */
  static rewrite<T>(file: string, entries: T[]): DurableLog<T> {
    const next = `${file}.next`;
    const fd = openSync(next, 'w');
    writeWhole(fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(next, file);
    return new DurableLog<T>(file);
  }

  append(entry: T): Promise<void> {
    return new Promise((done, failed) => {
      this.waiting.push({ line: `${JSON.stringify(entry)}\n`, done, failed });
      if (!this.writing) this.writeWaiting();
    });
  }

  /** Waits for every line appended so far, then closes the file. */
  async close() {
    while (this.writing || this.waiting.length > 0) await new Promise((r) => setTimeout(r, 5));
    closeSync(this.fd);
  }

  private writeWaiting() {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const text = Buffer.from(batch.map((w) => w.line).join(''));
    const finish = (error: Error | null) => {
      for (const w of batch) error ? w.failed(error) : w.done();
      this.writeWaiting();
    };
    const writeFrom = (offset: number) =>
      write(this.fd, text, offset, text.length - offset, null, (error, written) => {
        if (error) return finish(error);
        if (offset + written < text.length) return writeFrom(offset + written);
        fdatasync(this.fd, (synced) => finish(synced));
      });
    writeFrom(0);
  }
}

function writeWhole(fd: number, text: string) {
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
