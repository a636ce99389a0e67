import { useState } from 'preact/hooks';
import type { DeliveriesPage, Delivery } from '../answers.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, Pager, usePoll, When } from '../ui.tsx';
import { DELIVERY_STATUSES, lastAnswer, STATUS_WORDS } from './deliveries-data.ts';
import './pages.css';

const PAGE_SIZE = 20;
/** Pending deliveries move as their retries run: the log asks again this often while the page shows it. */
const POLL_MS = 5000;

/**
 * Webhook deliveries (issue 45, decisions §15): the client's delivery log, newest first, with each one's outcome,
 * attempts and the receiver's last answer; a delivery can be sent again (replay, the same `webhook-id`).
 */
function Deliveries() {
  const { status, setStatus, page, setPage, log } = useDeliveries();
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <h1 tabIndex={-1}>Webhook deliveries</h1>
      <p class="lead">Every event sent to this client’s webhook, newest first, kept 30 days. Replay sends one again.</p>
      <OutcomeFilter
        status={status}
        onStatus={(chosen) => {
          setStatus(chosen);
          setPage(1);
        }}
      />
      <ErrorNote error={log.error} doing="Reading the deliveries" />
      <Loading when={!log.data && !log.error}>
        {log.data?.data.length === 0 ? (
          <p>No deliveries{status ? ` ${status}` : ''} for this client.</p>
        ) : (
          <DeliveriesTable deliveries={log.data?.data} status={status} onReplayed={log.reload} />
        )}
        <Pager label="Pages of deliveries" page={page} pages={pages} onPage={setPage} previous="Newer" next="Older" />
      </Loading>
    </>
  );
}

/** The page of the client's delivery log shown, filtered by outcome, asked again every POLL_MS. */
function useDeliveries() {
  const { api, clientId } = useSession();
  const [status, setStatus] = useState<string>('');
  const [page, setPage] = useState(1);
  const log = usePoll(
    () =>
      api.get<DeliveriesPage>('v1/webhook/deliveries', {
        client_id: clientId,
        status: status || undefined,
        page,
        size: PAGE_SIZE,
      }),
    POLL_MS,
    [clientId, status, page],
  );
  return { status, setStatus, page, setPage, log };
}

function OutcomeFilter({ status, onStatus }: { status: string; onStatus: (status: string) => void }) {
  return (
    <form class="filter" onSubmit={(e) => e.preventDefault()}>
      <label>
        Outcome
        <select value={status} onChange={(e) => onStatus((e.target as HTMLSelectElement).value)}>
          <option value="">all</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

function DeliveriesTable(props: { deliveries?: Delivery[]; status: string; onReplayed: () => void }) {
  return (
    <table class="deliveries">
      <caption>Webhook deliveries{props.status ? `, ${props.status}` : ''}</caption>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Event</th>
          <th scope="col">Outcome</th>
          <th scope="col" class="num">
            Attempts
          </th>
          <th scope="col">Last answer</th>
          <th scope="col">Delivered or next attempt</th>
          <th scope="col">
            <span class="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.deliveries?.map((d) => (
          <DeliveryRow key={d.id} delivery={d} onReplayed={props.onReplayed} />
        ))}
      </tbody>
    </table>
  );
}

function DeliveryRow({ delivery: d, onReplayed }: { delivery: Delivery; onReplayed: () => void }) {
  return (
    <tr data-delivery={d.id} data-status={d.status}>
      <td>
        <When at={d.created_at} />
      </td>
      <td>
        {d.type}
        <br />
        <code class="small">{d.event_id}</code>
      </td>
      <td>{STATUS_WORDS[d.status] ?? d.status}</td>
      <td class="num">{d.attempts}</td>
      <td>{lastAnswer(d)}</td>
      <td>
        {d.delivered_at ? (
          <When at={d.delivered_at} />
        ) : d.next_attempt_at ? (
          <>
            next <When at={d.next_attempt_at} />
          </>
        ) : (
          '—'
        )}
      </td>
      <td>
        <Replay delivery={d} onReplayed={onReplayed} />
      </td>
    </tr>
  );
}

function Replay({ delivery, onReplayed }: { delivery: Delivery; onReplayed: () => void }) {
  const { api } = useSession();
  const [state, setState] = useState<{ busy?: boolean; done?: boolean; error?: unknown }>({});
  return (
    <>
      <button
        type="button"
        aria-label={`Replay ${delivery.type} ${delivery.event_id}`}
        disabled={state.busy}
        onClick={async () => {
          setState({ busy: true });
          try {
            await api.post(`v1/webhook/deliveries/${encodeURIComponent(delivery.id)}/replay`);
            setState({ done: true });
            onReplayed();
          } catch (error) {
            setState({ error });
          }
        }}
      >
        Replay
      </button>
      <span aria-live="polite">{state.done && <span class="small"> queued again</span>}</span>
      <ErrorNote error={state.error} doing="Replaying the delivery" />
    </>
  );
}

export const deliveriesPage: Page = { path: 'deliveries', nav: 'Webhook deliveries', title: 'Webhook deliveries', view: Deliveries };
