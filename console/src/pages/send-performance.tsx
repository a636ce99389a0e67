import type { SendPerformance } from '../answers.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, usePoll } from '../ui.tsx';
import { buttonsText, comparisonText, perText, rateText, variantName } from './performance-data.ts';

/**
 * A send's performance (decisions §33): each variant's figures and rates with their 95 % intervals, and whether the
 * variants differ; the API's figures (`GET /v1/sends/{id}/performance`), asked again while the send goes.
 */
export function Performance({ sendId, settled }: { sendId: string; settled: boolean }) {
  const { api } = useSession();
  const answer = usePoll(() => api.get<SendPerformance>(`v1/sends/${encodeURIComponent(sendId)}/performance`), settled ? 5000 : 2000, [
    sendId,
    settled,
  ]);
  const p = answer.data;
  return (
    <section aria-labelledby="performance">
      <h2 id="performance">Performance</h2>
      <ErrorNote error={answer.error} doing="Reading the performance" />
      <Loading when={!p && !answer.error}>
        {p && (
          <>
            <VariantsTable performance={p} />
            {(['read', 'replied'] as const).map((of) => {
              const text = comparisonText(p, of);
              return text && <p key={of}>{text}</p>;
            })}
            <p class="muted small">
              Rates are of delivered messages, each with its 95 % interval (Wilson). Replied: a message its person answered by quoting it;
              replied after: one whose person wrote otherwise within 24 hours of its delivery.
            </p>
          </>
        )}
      </Loading>
    </section>
  );
}

function VariantsTable({ performance: p }: { performance: SendPerformance }) {
  const clicks = p.variants.some((v) => v.template_clicks !== undefined);
  const money = p.currency ?? p.price_currency;
  const headings = [
    'Sent',
    'Delivered',
    'Read',
    'Read rate (95 %)',
    'Replied',
    'Reply rate (95 %)',
    'Replied after',
    ...(money ? [`${p.currency ? 'Cost' : 'Price'} per read`, `${p.currency ? 'Cost' : 'Price'} per reply`] : []),
    ...(clicks ? ['URL clicks (template)'] : []),
  ];
  return (
    <table class="performance">
      <caption>Performance by variant</caption>
      <thead>
        <tr>
          <th scope="col">Variant</th>
          <th scope="col">Buttons</th>
          {headings.map((h) => (
            <th key={h} scope="col" class="num">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.variants.map((v) => (
          <VariantRow key={v.variant} variant={v} money={money} clicks={clicks} />
        ))}
      </tbody>
    </table>
  );
}

/** A variant's figures: counts, rates with their intervals, buttons, money per event, its template's clicks. */
function VariantRow({ variant: v, money, clicks }: { variant: SendPerformance['variants'][number]; money?: string; clicks: boolean }) {
  return (
    <tr data-variant={v.variant}>
      <th scope="row">{variantName(v)}</th>
      <td data-figure="buttons">{buttonsText(v.buttons)}</td>
      {[v.sent, v.delivered, v.read].map((n, i) => (
        <td key={i} class="num">
          {n.toLocaleString('en')}
        </td>
      ))}
      <td class="num" data-figure="read-rate">
        {rateText(v.read_rate)}
      </td>
      <td class="num" data-figure="replied">
        {v.replied.toLocaleString('en')}
      </td>
      <td class="num" data-figure="reply-rate">
        {rateText(v.reply_rate)}
      </td>
      <td class="num">{v.replied_after.toLocaleString('en')}</td>
      {money && <td class="num">{perText(v.cost_per_read ?? v.price_per_read, money)}</td>}
      {money && <td class="num">{perText(v.cost_per_reply ?? v.price_per_reply, money)}</td>}
      {clicks && <td class="num">{(v.template_clicks ?? 0).toLocaleString('en')}</td>}
    </tr>
  );
}
