import * as v from 'valibot';
import { clientIdBody } from './common.ts';

/** Maximum recipients per send request (decisions §5). */
export const MAX_RECIPIENTS = 10_000;

const strings = v.array(v.string('must be a string'), 'must be an array of strings');

const Params = v.strictObject({
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

const MediaHeader = v.strictObject({
  type: v.picklist(['image_url', 'video_url', 'document_url'], 'must be image_url, video_url, document_url or location'),
  value: v.pipe(v.string(), v.minLength(1)),
  filename: v.optional(v.string()),
});
const LocationHeader = v.strictObject({
  type: v.literal('location'),
  location: v.strictObject({ latitude: v.string(), longitude: v.string(), name: v.string(), address: v.string() }),
});

export const SendBody = v.strictObject({
  did: v.pipe(v.string('did is required'), v.trim(), v.minLength(1, 'did is required')),
  type: v.literal('template', 'must be template'),
  channel: v.literal('MSGCHAN', 'must be MSGCHAN'),
  template: v.strictObject({ name: v.pipe(v.string(), v.minLength(1)), language: v.pipe(v.string(), v.minLength(1)) }),
  recipients: v.pipe(
    v.array(
      v.strictObject({
        to: v.pipe(v.string(), v.regex(/^\+?[0-9]{6,20}$/, 'must be a phone-number style id')),
        params: v.optional(Params),
      }),
    ),
    v.minLength(1, 'must name at least one recipient'),
    v.maxLength(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} recipients per request`),
  ),
  campaignId: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  client_id: v.optional(clientIdBody),
  attends: v.optional(v.strictObject({ waitTime: v.optional(v.number()), typification: v.optional(v.number()) })),
  message_send_ttl_seconds: v.optional(v.pipe(v.number(), v.integer())),
  allow_duplicates: v.optional(v.boolean()),
  component: v.optional(v.strictObject({ header: v.union([MediaHeader, LocationHeader], 'must be a media or location header') })),
});

export type SendInput = v.InferOutput<typeof SendBody>;
