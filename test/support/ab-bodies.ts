import fc from 'fast-check';

/**
 * A/B send bodies (decisions §33) generated at their edges, for the unit and the HTTP property tests: 0–5
 * variants of templates that can be sent, and of others (that do not exist, are PENDING, of another category, or
 * take other values), with or without a language, weights at and past their bounds, and a test first with its share,
 * wait and metric at and past theirs. Mostly a valid value, now and then one at or past the edge, so most bodies get
 * through the schema and the use case's own rules are reached.
 */
export interface AbTemplates {
  /** Two variants the client can send. */
  sendable: [{ template: string; language: string }, { template: string; language: string }];
  /** Other template names of the client's or none: each refused somewhere past the schema. */
  others: string[];
  /** Recipients' numbers to pick from. */
  numbers: string[];
}

const mostly = <T, U>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: edge, weight: 1 });

export function abBodies(templates: AbTemplates) {
  const names = [...templates.sendable.map((v) => v.template), ...templates.others];
  const weight = mostly(fc.integer({ min: 1, max: 1000 }), fc.oneof(fc.constantFrom(0, -1, 1001, 1.5, '2'), fc.double()));
  const variant = fc.record(
    {
      template: mostly(fc.constantFrom(...names), fc.constant('')),
      language: mostly(
        fc.option(fc.constantFrom(...templates.sendable.map((v) => v.language), 'pt_BR'), { nil: undefined }),
        fc.constant('x'.repeat(16)),
      ),
      weight,
      params: fc.option(fc.record({ body: fc.array(fc.string(), { maxLength: 2 }) }), { nil: undefined }),
    },
    { requiredKeys: ['template', 'weight'] },
  );
  const sendable = fc.tuple(weight, weight, fc.boolean()).map(([a, b, swap]) =>
    swap
      ? [
          { ...templates.sendable[1], weight: b },
          { ...templates.sendable[0], weight: a },
        ]
      : [
          { ...templates.sendable[0], weight: a },
          { ...templates.sendable[1], weight: b },
        ],
  );
  const test = fc.record({
    share: mostly(fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.constantFrom(0, 1, -0.1, 1.5, Number.NaN)),
    wait_seconds: mostly(fc.constantFrom(300, 3600, 259_200), fc.constantFrom(299, 259_201, 0, 1.5)),
    metric: mostly(fc.constantFrom('read', 'replied', 'clicked'), fc.constant('opened')),
  });
  return fc.record(
    {
      variants: mostly(sendable, fc.array(variant, { maxLength: 5 })),
      test: fc.option(test, { nil: undefined }),
      // Now and then a template beside the variants: one or the other (a 400).
      template: mostly(
        fc.constant(undefined),
        fc.constant({ name: templates.sendable[0].template, language: templates.sendable[0].language }),
      ),
      recipients: fc.array(fc.record({ to: fc.constantFrom(...templates.numbers), params: fc.constant({ body: ['v'] }) }), {
        minLength: 1,
        maxLength: 4,
      }),
    },
    { requiredKeys: ['variants', 'recipients'] },
  );
}
