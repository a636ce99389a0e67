import { useState } from 'preact/hooks';
import type { Api } from '../api.ts';
import { download } from '../download.ts';
import { useStackedBarChart } from '../stacked-bar-chart.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, usePoll, When } from '../ui.tsx';
import type { Budget, CurrencyStatement, Statement, StatementFigures, StatementLine, UsageAnswer, UsageRow } from '../answers.ts';
import {
  billed,
  budgetShares,
  type MoneyColumn,
  money,
  moneyColumns,
  monthDays,
  monthOf,
  type StackBy,
  statementShowsCost,
  type UsageChart,
  usageChart,
  usageQuery,
} from './money-data.ts';
import './pages.css';

/**
 * Money (issue 45): the month's usage by day stacked by market or category, with its totals in words and its
 * table; the month's budget; the client's statement. Every figure is the API's for the caller: an agent of a
 * client with a price list gets prices and no Meta cost, BSP_CN cost, price and margin.
 */
function Money() {
  const { api, clientId } = useSession();
  const thisMonth = monthOf(new Date());
  const [month, setMonth] = useState(thisMonth);
  return (
    <>
      <h1 tabIndex={-1}>Money</h1>
      <p class="lead">What this client’s delivered messages came to, its budget and its statement, month by month.</p>
      <label class="month-pick">
        Month{' '}
        <input
          type="month"
          value={month}
          max={thisMonth}
          onChange={(e) => {
            const value = (e.target as HTMLInputElement).value;
            if (/^\d{4}-\d{2}$/.test(value) && value <= thisMonth) setMonth(value);
          }}
        />
      </label>
      <Usage api={api} clientId={clientId} month={month} />
      <BudgetPart api={api} clientId={clientId} thisMonth={month === thisMonth} />
      <StatementPart api={api} clientId={clientId} month={month} />
    </>
  );
}

function Usage({ api, clientId, month }: { api: Api; clientId: number; month: string }) {
  const [stackBy, setStackBy] = useState<StackBy>('market');
  const { from, to } = monthDays(month, new Date());
  const query = usageQuery(clientId, from, to, stackBy);
  const usage = usePoll(() => api.get<UsageAnswer>('v1/usage', query), 0, [clientId, month, stackBy]);
  const [csvError, setCsvError] = useState<unknown>();
  const chart = usage.data && usageChart(usage.data, stackBy);
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage by day</h2>
      <fieldset class="switch">
        <legend>Stack the days by</legend>
        {(['market', 'category'] as const).map((by) => (
          <label key={by}>
            <input type="radio" name="stack-by" value={by} checked={stackBy === by} onChange={() => setStackBy(by)} /> {by}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={usage.error} doing="Reading the usage" />
      <Loading when={!usage.data && !usage.error}>
        {chart && chart.days.length === 0 ? (
          <p>
            No delivered messages from {from} to {to}.
          </p>
        ) : (
          chart && usage.data && <UsageFigure chart={chart} rows={usage.data.data} />
        )}
      </Loading>
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            setCsvError(undefined);
            download(api, 'v1/usage', query, 'text/csv', `usage-${clientId}-${month}-by-${stackBy}.csv`).catch(setCsvError);
          }}
        >
          Download the usage as CSV
        </button>
      </div>
      <ErrorNote error={csvError} doing="Downloading the usage" />
    </section>
  );
}

function UsageFigure({ chart, rows }: { chart: UsageChart; rows: UsageRow[] }) {
  const { canvas, drawError } = useStackedBarChart(chart);
  return (
    <>
      <figure class="chart-figure">
        <div class="chart-box">
          <canvas
            ref={canvas}
            role="img"
            aria-label={`Billed amounts by day, stacked by ${chart.stackBy}; the totals are listed below the chart`}
            aria-describedby="usage-totals"
          />
        </div>
        <ErrorNote error={drawError} doing="Drawing the chart" />
        <UsageTotals chart={chart} />
      </figure>
      <UsageTable chart={chart} rows={rows} />
    </>
  );
}

/** The chart's figures in words: a total a series, then the month's a currency. */
function UsageTotals({ chart }: { chart: UsageChart }) {
  return (
    <figcaption>
      <p class="muted">Totals of the month by {chart.stackBy}, as the chart stacks them:</p>
      <ul id="usage-totals" class="totals">
        {chart.series.map((s) => (
          <li key={s.key} data-series={s.label} data-total={s.total} data-currency={s.currency}>
            <strong>{s.label}</strong>: {money(s.total, s.currency)} ({s.messages.toLocaleString('en')} messages)
          </li>
        ))}
        {chart.totals.map((t) => (
          <li key={t.currency} class="grand" data-series="all" data-total={t.total} data-currency={t.currency}>
            <strong>All</strong>: {money(t.total, t.currency)} ({t.messages.toLocaleString('en')} messages)
          </li>
        ))}
      </ul>
    </figcaption>
  );
}

/** The usage's rows by day and group, with the money columns the answer carries. */
function UsageTable({ chart, rows }: { chart: UsageChart; rows: UsageRow[] }) {
  const columns = moneyColumns(rows);
  const sorted = [...rows].sort(
    (a, b) => (a.period ?? a.from).localeCompare(b.period ?? b.from) || String(a[chart.stackBy]).localeCompare(String(b[chart.stackBy])),
  );
  return (
    <table class="usage-table">
      <caption>Usage by day and {chart.stackBy}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">{chart.stackBy === 'market' ? 'Market' : 'Category'}</th>
          <th scope="col" class="num">
            Messages
          </th>
          <th scope="col" class="num">
            Billable
          </th>
          {columns.map((c) => (
            <th key={c.field} scope="col" class="num">
              {c.heading}
            </th>
          ))}
          <th scope="col">Currency</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((row) => (
          <tr key={`${row.period}|${row[chart.stackBy]}|${row.currency}`}>
            <td>{row.period ?? row.from}</td>
            <td>{row[chart.stackBy] ?? 'unknown'}</td>
            <td class="num">{row.messages.toLocaleString('en')}</td>
            <td class="num">{row.billable.toLocaleString('en')}</td>
            {columns.map((c) => (
              <td key={c.field} class="num">
                {figure(row, c)}
              </td>
            ))}
            <td>{billed(row).currency}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const figure = (row: Partial<Record<MoneyColumn['field'], number>>, column: MoneyColumn) =>
  row[column.field] === undefined
    ? '—'
    : (row[column.field] as number).toLocaleString('en', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

function BudgetPart({ api, clientId, thisMonth }: { api: Api; clientId: number; thisMonth: boolean }) {
  const budget = usePoll(() => api.get<Budget>(`v1/clients/${clientId}/budget`), 0, [clientId]);
  const b = budget.data;
  const shares = b && budgetShares(b);
  return (
    <section aria-labelledby="budget-heading">
      <h2 id="budget-heading">Budget of {b?.month ?? 'this month'}</h2>
      {!thisMonth && <p class="muted">The budget is this month’s, whichever month the usage shows.</p>}
      <ErrorNote error={budget.error} doing="Reading the budget" />
      <Loading when={!b && !budget.error}>
        {b && (
          <>
            {shares ? (
              <div
                class="bar budget-bar"
                role="img"
                aria-label={`Of ${money(b.monthly_amount!, b.currency)}: ${Math.round(shares.spent)} % spent, ${Math.round(shares.reserved)} % reserved, ${Math.round(shares.remaining)} % remaining`}
              >
                <span class="part tone-read" style={{ width: `${shares.spent}%` }} />
                <span class="part tone-suppressed" style={{ width: `${shares.reserved}%` }} />
              </div>
            ) : (
              <p>No monthly budget is set for this client: its sends are not limited.</p>
            )}
            <dl class="facts budget">
              <dt>Monthly budget</dt>
              <dd>{b.monthly_amount === null ? 'none' : money(b.monthly_amount, b.currency)}</dd>
              <dt>
                <span class="swatch tone-read" aria-hidden="true" /> Spent
              </dt>
              <dd data-figure="spent">{money(b.spent, b.currency)}</dd>
              <dt>
                <span class="swatch tone-suppressed" aria-hidden="true" /> Reserved (sends not settled yet)
              </dt>
              <dd data-figure="reserved">{money(b.reserved, b.currency)}</dd>
              <dt>Remaining</dt>
              <dd data-figure="remaining">{b.remaining === null ? '—' : money(b.remaining, b.currency)}</dd>
            </dl>
          </>
        )}
      </Loading>
    </section>
  );
}

function StatementPart({ api, clientId, month }: { api: Api; clientId: number; month: string }) {
  const path = `v1/clients/${clientId}/statements/${month}`;
  const statement = usePoll(() => api.get<Statement>(path), 0, [clientId, month]);
  const [downloadError, setDownloadError] = useState<unknown>();
  const s = statement.data;
  const save = (accept: string, extension: string) => {
    setDownloadError(undefined);
    download(api, path, {}, accept, `statement-${clientId}-${month}.${extension}`).catch(setDownloadError);
  };
  return (
    <section aria-labelledby="statement-heading">
      <h2 id="statement-heading">Statement of {month}</h2>
      <ErrorNote error={statement.error} doing="Reading the statement" />
      <Loading when={!s && !statement.error}>{s && <StatementView statement={s} />}</Loading>
      <div class="actions">
        <button type="button" onClick={() => save('text/csv', 'csv')}>
          Download the statement as CSV
        </button>
        <button type="button" onClick={() => save('application/pdf', 'pdf')}>
          Download the statement as PDF
        </button>
      </div>
      <ErrorNote error={downloadError} doing="Downloading the statement" />
    </section>
  );
}

function StatementView({ statement }: { statement: Statement }) {
  const showCost = statementShowsCost(statement);
  return (
    <>
      <p>
        {statement.client_name} ·{' '}
        {statement.status === 'open' ? (
          <>
            open until <When at={statement.closes_at} />
          </>
        ) : (
          'closed: it no longer changes'
        )}
      </p>
      {statement.statements.length === 0 && <p>No charges this month.</p>}
      {statement.statements.map((cur) => (
        <CurrencyStatementTable key={cur.currency} statement={cur} showCost={showCost} />
      ))}
      <p class="muted small">
        Lines fingerprint (sha256) <code>{statement.lines_sha256}</code>
      </p>
    </>
  );
}

/** A statement's lines in one currency and their total; Meta's cost and the margin where the answer shows them. */
function CurrencyStatementTable({ statement: cur, showCost }: { statement: CurrencyStatement; showCost: boolean }) {
  return (
    <table class="statement">
      <caption>Statement lines in {cur.currency}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Market</th>
          <th scope="col">Category</th>
          <th scope="col" class="num">
            Unit price
          </th>
          <th scope="col" class="num">
            Messages
          </th>
          <th scope="col" class="num">
            Billable
          </th>
          <th scope="col" class="num">
            Amount
          </th>
          {showCost && (
            <>
              <th scope="col" class="num">
                Meta cost
              </th>
              <th scope="col" class="num">
                Margin
              </th>
            </>
          )}
        </tr>
      </thead>
      <tbody>
        {cur.lines.map((line) => (
          <StatementLineRow
            key={`${line.kind}|${line.of_month}|${line.market}|${line.category}|${line.unit_price}`}
            line={line}
            currency={cur.currency}
            showCost={showCost}
          />
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={4}>
            Total
          </th>
          <FigureCells figures={cur.totals} currency={cur.currency} showCost={showCost} />
        </tr>
      </tfoot>
    </table>
  );
}

function StatementLineRow({ line, currency, showCost }: { line: StatementLine; currency: string; showCost: boolean }) {
  return (
    <tr>
      <td>{line.kind === 'charge' ? 'charge' : `adjustment of ${line.of_month}`}</td>
      <td>{line.market}</td>
      <td>{line.category}</td>
      <td class="num">{line.unit_price === undefined ? NOT_PRICED : money(line.unit_price / 1e6, currency)}</td>
      <FigureCells figures={line} currency={currency} showCost={showCost} />
    </tr>
  );
}

/** A line billed before the client's price list, to its agent: named so, never at its cost (decisions §32). */
const NOT_PRICED = 'not priced';

/** A line's or a total's messages, billable messages and amount; then its cost and margin where shown. */
function FigureCells({
  figures: f,
  currency,
  showCost,
}: {
  figures: Omit<StatementFigures, 'amount'> & { amount?: number };
  currency: string;
  showCost: boolean;
}) {
  return (
    <>
      <td class="num">{f.messages.toLocaleString('en')}</td>
      <td class="num">{f.billable.toLocaleString('en')}</td>
      <td class="num">{f.amount === undefined ? NOT_PRICED : money(f.amount, currency)}</td>
      {showCost && (
        <>
          <td class="num">{f.cost === undefined ? '—' : money(f.cost, f.cost_currency ?? currency)}</td>
          <td class="num">{f.margin === undefined ? '—' : money(f.margin, currency)}</td>
        </>
      )}
    </>
  );
}

export const moneyPage: Page = { path: 'money', nav: 'Money', title: 'Money', view: Money };
