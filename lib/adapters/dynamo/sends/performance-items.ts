import type { Figure, FigureAdd, TemplateOfFigures } from '#lib/domain/sends/figures.ts';
import { keys, TEMPLATE_FIGURE_SHARDS } from '../table.ts';
import type { TransactItem } from '../transactions.ts';

/*
 * A send's and a client's templates' figures as the table keeps them (decisions §33, docs/data-model.md): on the
 * send's count shards, one attribute a variant's day and figure, added in the transactions that already write a
 * shard; and on the client's template day items, one attribute a figure.
 */

/** Each figure in a letter (a failure's code or a button's label after its letter), so the items stay small. */
const CODES = { sent: 's', delivered: 'd', read: 'r', replied: 'y', replied_after: 'a', cost: 'c', price: 'q' } as const;
const FIGURES = Object.fromEntries(Object.entries(CODES).map(([figure, code]) => [code, figure])) as Record<string, Figure>;

export function figureCode(figure: Figure): string {
  if (figure.startsWith('failed:')) return `f${figure.slice('failed:'.length)}`;
  if (figure.startsWith('button:')) return `b${figure.slice('button:'.length)}`;
  return CODES[figure as keyof typeof CODES];
}

export function figureOfCode(code: string): Figure | undefined {
  if (code.startsWith('f') && code.length > 1) return `failed:${code.slice(1)}`;
  if (code.startsWith('b') && code.length > 1) return `button:${code.slice(1)}`;
  return FIGURES[code];
}

/** A count shard's attribute of a variant's day and figure: `p<variant>:<yymmdd>:<code>`, e.g. `p0:261129:d`. */
export const figureAttribute = ({ variant, day, figure }: Omit<FigureAdd, 'n'>) =>
  `p${variant}:${day.slice(2, 4)}${day.slice(5, 7)}${day.slice(8, 10)}:${figureCode(figure)}`;
const FIGURE_ATTRIBUTE = /^p(\d{1,2}):(\d{2})(\d{2})(\d{2}):(.+)$/s;

/** The figures an item holds (a count shard's attributes of this form; the rest are not figures). */
export function figuresOfItem(item: Record<string, unknown>): FigureAdd[] {
  const figures: FigureAdd[] = [];
  for (const [name, value] of Object.entries(item)) {
    const match = FIGURE_ATTRIBUTE.exec(name);
    const figure = match && figureOfCode(match[5]);
    if (!match || !figure || typeof value !== 'number') continue;
    figures.push({ variant: Number(match[1]), day: `20${match[2]}-${match[3]}-${match[4]}`, figure, n: value });
  }
  return figures;
}

/** The partition of its client's template figures a write adds to: one at random, so none is hot. */
export const randomTemplateShard = () => Math.floor(Math.random() * TEMPLATE_FIGURE_SHARDS);

/**
 * What figures add to their templates' days, one update an item (a template and day): ADDs of each figure's code
 * (`s`, `d`, `r`, `y`, `a`, `c`, `q`, `f<code>`, `b<label>`). A variant whose template is not known adds nothing.
 */
export function templateDayUpdates(
  tableName: string,
  adds: readonly FigureAdd[],
  templateOf: (variant: number) => TemplateOfFigures | undefined,
): TransactItem[] {
  const items = new Map<string, { template: TemplateOfFigures; day: string; sums: Map<string, number> }>();
  for (const add of adds) {
    const template = templateOf(add.variant);
    if (!template || !add.n) continue;
    const key = `${template.client_id}|${add.day}|${template.waba_id}|${template.name}|${template.language}`;
    const item = items.get(key) ?? { template, day: add.day, sums: new Map<string, number>() };
    const code = figureCode(add.figure);
    item.sums.set(code, (item.sums.get(code) ?? 0) + add.n);
    items.set(key, item);
  }
  return [...items.values()].map(({ template, day, sums }) => ({
    Update: {
      TableName: tableName,
      Key: {
        pk: keys.templateFigures(template.client_id, randomTemplateShard()),
        sk: keys.templateFiguresDay(day, template.waba_id, template.name, template.language),
      },
      // The currencies of its amounts, where it adds any (a WABA's currency and a client's list's hardly change).
      UpdateExpression: `SET entity = :entity${money(sums, template) ? ', cur = :cur, pcur = :pcur' : ''} ADD ${[...sums.keys()].map((_, n) => `#f${n} :f${n}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries([...sums.keys()].map((code, n) => [`#f${n}`, code])),
      ExpressionAttributeValues: {
        ':entity': 'template_figures',
        ...(money(sums, template) && { ':cur': template.currency ?? '', ':pcur': template.price_currency ?? '' }),
        ...Object.fromEntries([...sums.values()].map((sum, n) => [`:f${n}`, sum])),
      },
    },
  }));
}

/** Whether an update adds amounts, so names their currencies. */
const money = (sums: Map<string, number>, template: TemplateOfFigures) =>
  (sums.has('c') || sums.has('q')) && template.currency !== undefined;

/** The template day items' figures of one item (its attributes that are figure codes). */
export function templateFiguresOf(item: Record<string, unknown>): Partial<Record<Figure, number>> {
  const figures: Partial<Record<Figure, number>> = {};
  for (const [code, value] of Object.entries(item)) {
    if (['pk', 'sk', 'entity', 'cur', 'pcur'].includes(code) || typeof value !== 'number') continue;
    const figure = figureOfCode(code);
    if (figure) figures[figure] = value;
  }
  return figures;
}

/** How many template day items figures of `days` days may write in one transaction: a variant each, at most 4. */
export const TEMPLATE_ITEMS_A_DAY = 4;

/**
 * When a message was delivered (Meta's time), where its block's settlement does not say it (decisions §33): most
 * messages are delivered within seconds of their launch, and their block's `settled_at` is their delivery's time
 * to within DELIVERY_SLACK_MS; a message delivered later than that, or earlier (a block handed back, paused, settled
 * long after it launched), or while its block was not settled, has its time on its block's latest item, `a<offset>`:
 * the seconds from its block's settlement in base 36, or `=` and the epoch seconds.
 */
export const deliveredAttribute = (offset: number) => `a${offset}`;
export const DELIVERY_SLACK_MS = 60_000;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A delivery's time as its latest item keeps it; undefined where its block's settlement says it. */
export function encodeDeliveredAt(atMs: number, blockSettledMs?: number) {
  if (blockSettledMs === undefined) return `=${seconds(atMs).toString(36)}`;
  return Math.abs(atMs - blockSettledMs) <= DELIVERY_SLACK_MS ? undefined : (seconds(atMs) - seconds(blockSettledMs)).toString(36);
}

/** A delivered message's time: as kept on its latest item, else its block's settlement. */
export function decodeDeliveredAt(encoded: unknown, blockSettledMs?: number) {
  if (typeof encoded === 'string' && encoded.startsWith('=')) return Number.parseInt(encoded.slice(1), 36) * 1000;
  if (blockSettledMs === undefined) return undefined;
  return typeof encoded === 'string' ? (seconds(blockSettledMs) + Number.parseInt(encoded, 36)) * 1000 : blockSettledMs;
}

/**
 * A latest item's update with the delivery times its block's settlement does not say (encodeDeliveredAt) of its
 * messages newly delivered (by index in `deliveredAt`), set beside their states in the same write: nothing more is
 * written, and most messages add nothing.
 */
export function withDeliveryTimes(
  item: TransactItem,
  block: { first: number; offsets: Iterable<number>; settledMs?: number },
  deliveredAt: ReadonlyMap<number, number>,
): TransactItem {
  const times = [...block.offsets].flatMap((offset) => {
    const at = deliveredAt.get(block.first + offset);
    const encoded = at === undefined ? undefined : encodeDeliveredAt(at, block.settledMs);
    return encoded === undefined ? [] : [[offset, encoded] as const];
  });
  if (!item.Update || times.length === 0) return item;
  const names = { ...item.Update.ExpressionAttributeNames };
  const values = { ...item.Update.ExpressionAttributeValues };
  const sets = times.map(([offset, encoded], n) => {
    names[`#w${n}`] = deliveredAttribute(offset);
    values[`:w${n}`] = encoded;
    return `#w${n} = :w${n}`;
  });
  const expression = item.Update.UpdateExpression ?? '';
  return {
    Update: {
      ...item.Update,
      UpdateExpression: expression.startsWith('SET ')
        ? `SET ${sets.join(', ')}, ${expression.slice(4)}`
        : `SET ${sets.join(', ')} ${expression}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** What a send item tells its figures: its variants' templates, its cost's currency and its price's (decisions §33). */
export interface FiguresOwner {
  templates: { name: string; language: string }[];
  currency?: string;
  price_currency?: string;
}

export function figuresOwnerOf(item: Record<string, unknown>): FiguresOwner {
  const priceList = item.price_list as { currency?: string } | undefined;
  return {
    templates: templatesOfSendItem(item),
    ...(typeof item.currency === 'string' && { currency: item.currency }),
    ...(priceList?.currency && { price_currency: priceList.currency }),
  };
}

/** A send item's variants' templates: an A/B send's (its `ab.variants`, decisions §33), else its one template. */
export function templatesOfSendItem(item: Record<string, unknown>): { name: string; language: string }[] {
  const variants = (item.ab as { variants?: { name: string; language: string }[] } | undefined)?.variants;
  const listed = variants?.map((v) => ({ name: v.name, language: v.language }));
  const template = item.template as { name: string; language: string } | undefined;
  return listed?.length ? listed : template ? [{ name: template.name, language: template.language }] : [];
}

/** A variant's template as its client's figures are kept: unknown (no figures) where the send does not name it. */
export function templateOfVariant(
  send: { client_id: number } & FiguresOwner,
  wabaId: string,
  variant: number,
): TemplateOfFigures | undefined {
  const template = send.templates[variant];
  const { currency, price_currency } = send;
  return (
    template && {
      client_id: send.client_id,
      waba_id: wabaId,
      ...template,
      ...(currency && { currency }),
      ...(price_currency && { price_currency }),
    }
  );
}
