import type { SendPerformance, SendStatus } from '../answers.ts';
import { useSession } from '../session.ts';
import { ErrorNote, usePoll, When } from '../ui.tsx';

/**
 * An A/B send's variants (decisions §33): each one's template, weight and recipients, with its read and reply rates
 * and their 95 % intervals from the send's performance; its test first, and once decided the winner, why, and the
 * figures the decision was made on.
 */

type Variant = NonNullable<SendStatus['variants']>[number];
type SendTest = NonNullable<SendStatus['test']>;
type Rate = SendPerformance['variants'][number]['read_rate'];

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const named = (t: { name: string; language: string }) => `${t.name} (${t.language})`;
const METRIC_WORDS = { read: 'read rate', replied: 'reply rate', clicked: 'click rate' } as const;

function RateCell({ rate }: { rate?: Rate }) {
  if (!rate) return <td class="num">–</td>;
  return (
    <td class="num">
      {percent(rate.rate)}{' '}
      <span class="muted small">
        ({percent(rate.low)}–{percent(rate.high)})
      </span>
    </td>
  );
}

export function SendVariants({ send }: { send: SendStatus }) {
  return send.variants ? <VariantsOf send={send} variants={send.variants} /> : null;
}

/** The variants' table, with their rates from the send's performance (asked again every 5 s). */
function VariantsOf({ send, variants }: { send: SendStatus; variants: Variant[] }) {
  const { api } = useSession();
  const performance = usePoll(() => api.get<SendPerformance>(`v1/sends/${encodeURIComponent(send.send_id)}/performance`), 5000, [
    send.send_id,
  ]);
  const winner = send.test?.decision?.winner;
  const figures = (i: number) => performance.data?.variants.find((v) => v.variant === i);
  return (
    <section aria-labelledby="variants">
      <h2 id="variants">Variants</h2>
      <ErrorNote error={performance.error} doing="Reading the send's performance" />
      <table class="variants">
        <caption>
          Each person gets one variant, by a hash of the person
          {send.test ? ' (recipients: the test share’s; the rest gets the winner)' : ''}; rates are of delivered messages, with their 95 %
          interval.
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
            <th scope="col" class="num">
              Delivered
            </th>
            <th scope="col" class="num">
              Read rate
            </th>
            <th scope="col" class="num">
              Reply rate
            </th>
          </tr>
        </thead>
        <tbody>
          {variants.map((v, i) => (
            <tr key={named(v.template)} data-variant={i}>
              <th scope="row">
                {named(v.template)}
                {winner && named(winner) === named(v.template) && <span class="badge winner"> winner</span>}
              </th>
              <td class="num">{v.weight}</td>
              <td class="num">{v.recipients.toLocaleString('en')}</td>
              <td class="num">{(figures(i)?.delivered ?? 0).toLocaleString('en')}</td>
              <RateCell rate={figures(i)?.read_rate} />
              <RateCell rate={figures(i)?.reply_rate} />
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
