import * as v from 'valibot';

const strings = v.array(v.string('must be a string'), 'must be an array of strings');

/** A recipient's values (spec §1): header, body and button values, products and carousel cards, as the caller gives them. */
export const Params = v.strictObject({
  header: v.optional(strings),
  body: v.optional(strings),
  buttons: v.optional(strings),
  products: v.optional(
    v.array(
      v.strictObject({
        type: v.literal('action'),
        action: v.strictObject({
          thumbnailProductRetailerId: v.string(),
          sections: v.optional(
            v.array(
              v.strictObject({
                title: v.pipe(v.string(), v.maxLength(24)),
                product_items: v.array(v.strictObject({ product_retailer_id: v.string() })),
              }),
            ),
          ),
        }),
      }),
    ),
  ),
  cards: v.optional(v.array(v.strictObject({ body: v.optional(strings), buttons: v.optional(strings) }))),
});
