import type { VariantFigures } from '#lib/domain/sends/ab/ab-send.ts';
import type { VariantResults } from '#lib/domain/sends/ab/ports.ts';
import { copy } from '../copy.ts';

/** Each send's figures per variant as a test sets them (the performance the decision reads, decisions §33); none: zeros. */
export class MemoryVariantResults implements VariantResults {
  readonly figures = new Map<string, VariantFigures[]>();
  /** How many times a send's figures were read. */
  reads = 0;

  async figuresOf(sendId: string, variants: number) {
    this.reads += 1;
    const set = this.figures.get(sendId);
    return Array.from({ length: variants }, (_, variant) =>
      copy(set?.find((f) => f.variant === variant) ?? { variant, sent: 0, delivered: 0, read: 0, replied: 0 }),
    );
  }
}
