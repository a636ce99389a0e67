import type { WriteStrip } from './request-meter.ts';

/**
 * The writes of a run as they would have been without the performance aggregates (decisions §33): no template day,
 * reply index or reply item, no count shard write of figures alone (a reply's), and every other item without the
 * figures on a send's count shards (`p<variant>:<day>:<figure>`), the delivery times on its latest items
 * (`a<offset>`) and a block's variant. What a run's units less these are is what the aggregates add
 * (bench/send-path.ts, test/measured/performance-writes.test.ts).
 */
const FIGURE = /^p\d{1,2}:\d{6}:/;
const OWN_ITEMS = [/^TEMPLATE_FIGURES#/, /^REPLY_INDEX#/];

export const withoutPerformance: WriteStrip = (write, item) => {
  if (OWN_ITEMS.some((own) => own.test(write.pk)) || write.sk.startsWith('REPLY#')) return null;
  if (write.sk.startsWith('SEND#COUNTS#') && write.touched && write.touched.length > 0 && write.touched.every((name) => FIGURE.test(name)))
    return null;
  if (!item) return item;
  const kept = Object.entries(item).filter(
    ([name]) =>
      !FIGURE.test(name) &&
      !(write.sk.startsWith('LATEST#') && /^a\d+$/.test(name)) &&
      !(write.sk.startsWith('BLOCK#') && name === 'variant'),
  );
  return Object.fromEntries(kept);
};
