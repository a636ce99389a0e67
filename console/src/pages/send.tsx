import { useState } from 'preact/hooks';
import { href, type Page, type PageProps } from '../router.ts';
import { isSettled, type Money, type PageOf, PauseNote, type SendStatus, SendProgress, StatusBadge } from '../sends.tsx';
import { useSession } from '../session.ts';
import { ConfirmButton, ErrorNote, Loading, Pager, usePoll, When } from '../ui.tsx';

/** A recipient's latest state (decisions §22), as `GET /v1/sends/{id}/recipients` lists it. */
interface Recipient {
  index: number;
  to?: string;
  user_id?: string;
  username?: string;
  status: string;
  message_id?: string;
  error?: { code: string; title: string };
  updated_at: string;
}

const RECIPIENT_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed', 'capped', 'expired', 'cancelled', 'duplicate'];
const PAGE_SIZE = 50;
const POLL_MS = 1000;

function SendDetails({ params }: PageProps) {
  const { api } = useSession();
  const id = params.sendId;
  const send = usePoll(() => api.get<SendStatus>(`v1/sends/${encodeURIComponent(id)}`), POLL_MS, [id]);
  const [resent, setResent] = useState<string>();
  const s = send.data;
  return (
    <>
      <h1 tabIndex={-1}>{s ? `Send of ${s.template.name} (${s.template.language})` : 'Send'}</h1>
      <p>
        <a href={href('sends')}>All sends</a>
      </p>
      <ErrorNote error={send.error} doing="Reading the send" />
      <Loading when={!s && !send.error}>
        {s && (
          <>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={s.status} />
              </dd>
              <dt>Send id</dt>
              <dd>
                <code>{s.send_id}</code>
              </dd>
              <dt>From number</dt>
              <dd>{s.did}</dd>
              <dt>Accepted</dt>
              <dd>
                <When at={s.created_at} />
              </dd>
              {s.send_at && (
                <>
                  <dt>Scheduled for</dt>
                  <dd>
                    <When at={s.send_at} />
                  </dd>
                </>
              )}
              {s.cancelled_at && (
                <>
                  <dt>Cancelled</dt>
                  <dd>
                    <When at={s.cancelled_at} />
                  </dd>
                </>
              )}
              {s.resend_of && (
                <>
                  <dt>Resends</dt>
                  <dd>
                    <a href={href('sends', s.resend_of)}>the send {s.resend_of}</a>
                  </dd>
                </>
              )}
              {s.cost && <MoneyFact label="Meta's cost" money={s.cost} />}
              {s.price && <MoneyFact label="Price" money={s.price} />}
              {s.margin !== undefined && (
                <>
                  <dt>Margin</dt>
                  <dd>{s.margin.toFixed(4)}</dd>
                </>
              )}
            </dl>
            <SendProgress send={s} />
            <PauseNote send={s} />
            {s.stopped && (
              <p class="error">
                Stopped by Meta: {s.stopped.title} (error {s.stopped.code})
              </p>
            )}
            {s.errors.length > 0 && (
              <section aria-labelledby="errors">
                <h2 id="errors">Errors</h2>
                <ul>
                  {s.errors.map((e) => (
                    <li key={e.code}>
                      {e.title} (error {e.code}): {e.count.toLocaleString('en')}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <section class="actions" aria-label="Actions">
              {!isSettled(s) && (
                <ConfirmButton
                  label="Cancel the send"
                  question={`Cancel this send? ${s.pending.toLocaleString('en')} recipients not sent yet will not be.`}
                  confirm="Cancel the send"
                  danger
                  act={async () => {
                    await api.post(`v1/sends/${encodeURIComponent(s.send_id)}/cancel`);
                    send.reload();
                  }}
                />
              )}
              {isSettled(s) &&
                (['failed', 'not_delivered'] as const).map((which) => (
                  <ConfirmButton
                    key={which}
                    label={which === 'failed' ? 'Resend the failed' : 'Resend the not delivered'}
                    question={`Send this template again to this send's ${which === 'failed' ? 'failed' : 'not delivered'} recipients, with their values? Whoever cannot or would not get it is left out.`}
                    confirm="Resend"
                    act={async () => {
                      const answer = await api.post<{ send_id: string }>(
                        `v1/sends/${encodeURIComponent(s.send_id)}/resend`,
                        { which },
                        { 'idempotency-key': crypto.randomUUID() },
                      );
                      setResent(answer.send_id);
                    }}
                  />
                ))}
            </section>
            {resent && (
              <p role="status">
                Resent as <a href={href('sends', resent)}>a new send</a>.
              </p>
            )}
            <Recipients sendId={s.send_id} settled={isSettled(s)} />
          </>
        )}
      </Loading>
    </>
  );
}

function MoneyFact({ label, money }: { label: string; money: Money }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {money.amount.toFixed(4)} {money.currency}
      </dd>
    </>
  );
}

/** The send's recipients, a page at a time, filtered by their latest state. */
function Recipients({ sendId, settled }: { sendId: string; settled: boolean }) {
  const { api } = useSession();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const rows = usePoll(
    () =>
      api.get<PageOf<Recipient>>(`v1/sends/${encodeURIComponent(sendId)}/recipients`, {
        status: status || undefined,
        page,
        size: PAGE_SIZE,
      }),
    settled ? 5000 : 2000,
    [sendId, status, page, settled],
  );
  const pages = rows.data ? Math.max(1, Math.ceil(rows.data.total / PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="recipients">
      <h2 id="recipients">Recipients</h2>
      <label>
        Show{' '}
        <select
          value={status}
          onChange={(e) => {
            setStatus((e.target as HTMLSelectElement).value);
            setPage(1);
          }}
        >
          <option value="">every status</option>
          {RECIPIENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={rows.error} doing="Reading the recipients" />
      <Loading when={!rows.data && !rows.error}>
        <p aria-live="polite">{rows.data ? `${rows.data.total.toLocaleString('en')} recipients${status ? ` ${status}` : ''}` : ''}</p>
        <table class="recipients">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Recipient</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Message id</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.data?.data.map((r) => (
              <tr key={r.index}>
                <td>{r.index}</td>
                <td>{[r.to, r.user_id, r.username && `@${r.username}`].filter(Boolean).join(' · ')}</td>
                <td>{r.status}</td>
                <td>{r.error ? `${r.error.title} (${r.error.code})` : ''}</td>
                <td>
                  <code>{r.message_id ?? ''}</code>
                </td>
                <td>
                  <When at={r.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager label="Pages of recipients" page={page} pages={pages} onPage={setPage} />
      </Loading>
    </section>
  );
}

export const sendPage: Page = { path: 'sends/:sendId', title: 'Send', view: SendDetails };
