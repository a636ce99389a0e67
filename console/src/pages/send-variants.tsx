import type { SendStatus } from '../answers.ts';
import { When } from '../ui.tsx';

/**
 * An A/B send's variants (decisions §33): each one's template, weight and recipients (the hash's split), its test
 * first, and once decided the winner, why, and the figures the decision was made on. Each variant's figures and
 * rates as they grow are the send's performance, in its own section (send-performance.tsx).
 */

type Variant = NonNullable<SendStatus['variants']>[number];
type SendTest = NonNullable<SendStatus['test']>;

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const named = (t: { name: string; language: string }) => `${t.name} (${t.language})`;
const METRIC_WORDS = { read: 'read rate', replied: 'reply rate', clicked: 'click rate' } as const;

export function SendVariants({ send }: { send: SendStatus }) {
  return send.variants ? <VariantsOf send={send} variants={send.variants} /> : null;
}

/** The variants' table: each one's template, weight and recipients, the winner marked. */
function VariantsOf({ send, variants }: { send: SendStatus; variants: Variant[] }) {
  const winner = send.test?.decision?.winner;
  return (
    <section aria-labelledby="variants">
      <h2 id="variants">Variants</h2>
      <table class="variants">
        <caption>
          Each person gets one variant, by a hash of the person
          {send.test ? ' (recipients: the test share’s; the rest gets the winner)' : ''}; their figures are under Performance.
        </caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col" class="num">
              Weight
            </th>
            <th scope="col" class="num">
              Recipients
            </th>
          </tr>
        </thead>
        <tbody>
          {variants.map((v, i) => (
            <tr key={named(v.template)} data-variant={i}>
              <th scope="row">
                {`${i + 1}: ${named(v.template)}`}
                {winner && named(winner) === named(v.template) && <span class="badge winner"> winner</span>}
              </th>
              <td class="num">{v.weight}</td>
              <td class="num">{v.recipients.toLocaleString('en')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {send.test && <TestFirstNote test={send.test} />}
    </section>
  );
}

/** A test first: what it asked, and the decision once made, with the figures it was made on. */
function TestFirstNote({ test }: { test: SendTest }) {
  const metric = METRIC_WORDS[test.metric];
  return (
    <div class="test-first">
      <h3>Tested first</h3>
      <p>
        {`${percent(test.share)} of the people (${test.test_recipients.toLocaleString('en')}) got the variants; `}
        {`the rest (${test.rest_recipients.toLocaleString('en')}) gets the variant with the best ${metric}`}
        {test.decision ? (
          <>
            , decided <When at={test.decision.decided_at} />.
          </>
        ) : (
          <>
            {' '}
            at <When at={test.decide_at} />.
          </>
        )}
      </p>
      {test.decision && <Decision test={test} decision={test.decision} metric={metric} />}
    </div>
  );
}

function Decision({ test, decision, metric }: { test: SendTest; decision: NonNullable<SendTest['decision']>; metric: string }) {
  return (
    <>
      <p class="decision" role="status">
        Winner: <strong>{named(decision.winner)}</strong>,{' '}
        {decision.significant ? 'significantly better at 95 %' : 'not significantly better at 95 %'}. {decision.reason}
      </p>
      <table class="decision-figures">
        <caption>The figures the decision was made on ({metric} of delivered messages)</caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col" class="num">
              Delivered
            </th>
            <th scope="col" class="num">
              {test.metric === 'replied' ? 'Replied' : test.metric === 'clicked' ? 'Clicked' : 'Read'}
            </th>
            <th scope="col" class="num">
              Rate (95 % interval)
            </th>
          </tr>
        </thead>
        <tbody>
          {decision.variants.map((v) => (
            <tr key={named(v.template)}>
              <th scope="row">{named(v.template)}</th>
              <td class="num">{v.delivered.toLocaleString('en')}</td>
              <td class="num">
                {(test.metric === 'replied' ? v.replied : test.metric === 'clicked' ? (v.clicked ?? '–') : v.read).toLocaleString('en')}
              </td>
              <td class="num">
                {v.rate === undefined || !v.interval
                  ? 'no data'
                  : `${percent(v.rate)} (${percent(v.interval[0])}–${percent(v.interval[1])})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
