import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/** Whether poppler's `pdftotext` is on this machine (poppler-utils): then it reads the text, as a person's tools do. */
const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * A PDF's text: with `pdftotext` where poppler-utils is installed, else read from the document's content streams
 * (inflated, each `<hex> Tj` of the standard fonts' WinAnsi codes a line). Either way the file is first loaded by
 * pdf-lib, so a broken document fails here.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number; by: 'pdftotext' | 'streams' }> {
  const pages = (await PDFDocument.load(bytes)).getPageCount();
  if (hasPdftotext) {
    const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
    try {
      writeFileSync(join(dir, 'in.pdf'), bytes);
      return { text: execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'], { encoding: 'utf8' }), pages, by: 'pdftotext' };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const raw = Buffer.from(bytes).toString('latin1');
  const shown: string[] = [];
  for (const match of raw.matchAll(/<<([\s\S]*?)>>\s*stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const data = Buffer.from(match[2], 'latin1');
    let content: string;
    try {
      content = (match[1].includes('/FlateDecode') ? inflateSync(data) : data).toString('latin1');
    } catch {
      continue;
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) shown.push(Buffer.from(text[1], 'hex').toString('latin1'));
  }
  return { text: shown.join('\n'), pages, by: 'streams' };
}
