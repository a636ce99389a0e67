import { useState } from 'preact/hooks';
import type { TemplatePerformance } from '../answers.ts';
import { download } from '../download.ts';
import { useStackedBarChart } from '../stacked-bar-chart.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, usePoll } from '../ui.tsx';
import {
  buttonsText,
  CHART_FIGURES,
  type ChartFigure,
  lastDays,
  perText,
  rateText,
  type TemplatesChart,
  templatesChart,
} from './performance-data.ts';
import './pages.css';

/**
 * Which template worked (decisions §33): the client's templates by day from `GET /v1/templates/performance`, a chart
 * of one figure a day stacked by template with its totals in words, each template's rates over the days (with their
 * 95 % intervals) and the rows by day, as the API gives them and as its CSV.
 */
function TemplatesPerformance() {
  const { api, clientId } = useSession();
  const [days, setDays] = useState(() => lastDays(new Date(), 7));
  const [figure, setFigure] = useState<ChartFigure>('replied');
  const query = { client_id: clientId, from: days.from, to: days.to };
  const answer = usePoll(() => api.get<TemplatePerformance>('v1/templates/performance', query), 0, [clientId, days.from, days.to]);
  const [csvError, setCsvError] = useState<unknown>();
  const chart = answer.data && templatesChart(answer.data, figure);
  return (
    <>
      <h1 tabIndex={-1}>Template performance</h1>
      <p class="lead">Which template worked: what this client’s templates’ messages did, day by day (each WABA’s day).</p>
      <DaysPick days={days} onDays={setDays} />
      <fieldset class="switch">
        <legend>Chart the days by</legend>
        {CHART_FIGURES.map((f) => (
          <label key={f}>
            <input type="radio" name="figure" value={f} checked={figure === f} onChange={() => setFigure(f)} /> {f}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={answer.error} doing="Reading the template performance" />
      <Loading when={!answer.data && !answer.error}>
        {answer.data && chart && chart.days.length === 0 ? (
          <p>
            No messages of any template from {days.from} to {days.to}.
          </p>
        ) : (
          answer.data && chart && <Figures chart={chart} answer={answer.data} />
        )}
      </Loading>
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            setCsvError(undefined);
            download(
              api,
              'v1/templates/performance',
              query,
              'text/csv',
              `template-performance-${clientId}-${days.from}-${days.to}.csv`,
            ).catch(setCsvError);
          }}
        >
          Download the rows as CSV
        </button>
      </div>
      <ErrorNote error={csvError} doing="Downloading the template performance" />
    </>
  );
}

function DaysPick({ days, onDays }: { days: { from: string; to: string }; onDays: (days: { from: string; to: string }) => void }) {
  const set = (which: 'from' | 'to') => (e: Event) => {
    const value = (e.target as HTMLInputElement).value;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) onDays({ ...days, [which]: value });
  };
  return (
    <div class="search">
      <label>
        From <input type="date" value={days.from} max={days.to} onChange={set('from')} />
      </label>
      <label>
        To <input type="date" value={days.to} min={days.from} onChange={set('to')} />
      </label>
    </div>
  );
}

function Figures({ chart, answer }: { chart: TemplatesChart; answer: TemplatePerformance }) {
  const { canvas, drawError } = useStackedBarChart(chart);
  return (
    <>
      <figure class="chart-figure">
        <div class="chart-box">
          <canvas
            ref={canvas}
            role="img"
            aria-label={`${chart.figure} by day, stacked by template; the totals are listed below the chart`}
            aria-describedby="template-totals"
          />
        </div>
        <ErrorNote error={drawError} doing="Drawing the chart" />
        <figcaption>
          <p class="muted">Totals of the days by template, as the chart stacks them ({chart.figure}):</p>
          <ul id="template-totals" class="totals">
            {chart.series.map((s) => (
              <li key={s.key} data-series={s.label} data-total={s.total}>
                <strong>{s.label}</strong>: {s.total.toLocaleString('en')}
              </li>
            ))}
          </ul>
        </figcaption>
      </figure>
      <TemplatesTable answer={answer} />
      <DaysTable answer={answer} />
    </>
  );
}

/** Each template over the days: its counts and rates, with their 95 % intervals. */
function TemplatesTable({ answer }: { answer: TemplatePerformance }) {
  const clicks = answer.templates.some((t) => t.clicks !== undefined);
  return (
    <table class="performance templates-performance">
      <caption>Each template over the days</caption>
      <thead>
        <tr>
          <th scope="col">Template</th>
          {['Sent', 'Delivered', 'Read', 'Read rate (95 %)', 'Replied', 'Reply rate (95 %)', 'Replied after'].map((h) => (
            <th key={h} scope="col" class="num">
              {h}
            </th>
          ))}
          <th scope="col">Buttons</th>
          {clicks && (
            <th scope="col" class="num">
              URL clicks
            </th>
          )}
          <th scope="col" class="num">
            Per read
          </th>
          <th scope="col" class="num">
            Per reply
          </th>
        </tr>
      </thead>
      <tbody>
        {answer.templates.map((t) => (
          <tr key={`${t.template}|${t.language}|${t.waba_id}`} data-template={t.template}>
            <th scope="row">
              {t.template} ({t.language})
            </th>
            {[t.sent, t.delivered, t.read].map((n, i) => (
              <td key={i} class="num">
                {n.toLocaleString('en')}
              </td>
            ))}
            <td class="num">{rateText(t.read_rate)}</td>
            <td class="num" data-figure="replied">
              {t.replied.toLocaleString('en')}
            </td>
            <td class="num">{rateText(t.reply_rate)}</td>
            <td class="num">{t.replied_after.toLocaleString('en')}</td>
            <td>{buttonsText(t.buttons)}</td>
            {clicks && <td class="num">{(t.clicks ?? 0).toLocaleString('en')}</td>}
            <td class="num">{perText(t.cost_per_read ?? t.price_per_read, t.currency ?? t.price_currency)}</td>
            <td class="num">{perText(t.cost_per_reply ?? t.price_per_reply, t.currency ?? t.price_currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The rows as the API (and its CSV) gives them: a template a day. */
function DaysTable({ answer }: { answer: TemplatePerformance }) {
  const columns = ['sent', 'delivered', 'read', 'failed', 'replied', 'replied_after', 'button_replies'] as const;
  return (
    <table class="performance template-days">
      <caption>By day and template</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Template</th>
          {columns.map((c) => (
            <th key={c} scope="col" class="num">
              {c.replace('_', ' ')}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {answer.data.map((row) => (
          <tr key={`${row.day}|${row.template}|${row.language}|${row.waba_id}`} data-day={row.day} data-template={row.template}>
            <td>{row.day}</td>
            <td>
              {row.template} ({row.language})
            </td>
            {columns.map((c) => (
              <td key={c} class="num" data-figure={c}>
                {row[c].toLocaleString('en')}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const templatePerformancePage: Page = {
  path: 'performance',
  nav: 'Template performance',
  title: 'Template performance',
  view: TemplatesPerformance,
};
