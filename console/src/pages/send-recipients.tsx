import { useState } from 'preact/hooks';
import type { Recipient, RecipientsPage } from '../answers.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, Pager, usePoll, When } from '../ui.tsx';

/**
 * Every state the listing filters on, in the filter's order: a record over the API's own type, so a state the
 * service adds and this page lacks fails the console's typecheck (the page takes no code of lib/, only types).
 */
const RECIPIENT_STATUSES = Object.keys({
  pending: true,
  sent: true,
  delivered: true,
  read: true,
  failed: true,
  held: true,
  capped: true,
  capped_by_rule: true,
  suppressed: true,
  expired: true,
  cancelled: true,
  duplicate: true,
} satisfies Record<Recipient['status'], true>);
const PAGE_SIZE = 50;

/** The send's recipients, a page at a time, filtered by their latest state. */
export function Recipients({ sendId, settled }: { sendId: string; settled: boolean }) {
  const { status, setStatus, page, setPage, rows } = useRecipients(sendId, settled);
  const pages = rows.data ? Math.max(1, Math.ceil(rows.data.total / PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="recipients">
      <h2 id="recipients">Recipients</h2>
      <StatusFilter
        status={status}
        onStatus={(chosen) => {
          setStatus(chosen);
          setPage(1);
        }}
      />
      <ErrorNote error={rows.error} doing="Reading the recipients" />
      <Loading when={!rows.data && !rows.error}>
        <p aria-live="polite">{rows.data ? `${rows.data.total.toLocaleString('en')} recipients${status ? ` ${status}` : ''}` : ''}</p>
        <RecipientsTable recipients={rows.data?.data} />
        <Pager label="Pages of recipients" page={page} pages={pages} onPage={setPage} />
      </Loading>
    </section>
  );
}

/** The page of recipients shown, asked again every 2 s while the send goes, every 5 s once it is settled. */
function useRecipients(sendId: string, settled: boolean) {
  const { api } = useSession();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const rows = usePoll(
    () =>
      api.get<RecipientsPage>(`v1/sends/${encodeURIComponent(sendId)}/recipients`, {
        status: status || undefined,
        page,
        size: PAGE_SIZE,
      }),
    settled ? 5000 : 2000,
    [sendId, status, page, settled],
  );
  return { status, setStatus, page, setPage, rows };
}

function StatusFilter({ status, onStatus }: { status: string; onStatus: (status: string) => void }) {
  return (
    <label>
      Show{' '}
      <select value={status} onChange={(e) => onStatus((e.target as HTMLSelectElement).value)}>
        <option value="">every status</option>
        {RECIPIENT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </label>
  );
}

function RecipientsTable({ recipients }: { recipients?: Recipient[] }) {
  return (
    <table class="recipients">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Recipient</th>
          <th scope="col">Status</th>
          <th scope="col">Error</th>
          <th scope="col">Message id</th>
          <th scope="col">Reply</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {recipients?.map((r) => (
          <tr key={r.index}>
            <td>{r.index}</td>
            <td>{[r.to, r.user_id, r.username && `@${r.username}`].filter(Boolean).join(' · ')}</td>
            <td>{r.status}</td>
            <td>{r.error ? `${r.error.title} (${r.error.code})` : ''}</td>
            <td>
              <code>{r.message_id ?? ''}</code>
            </td>
            <td data-reply={r.replied_at ? 'replied' : r.replied_after_at ? 'after' : ''}>{replyOf(r)}</td>
            <td>
              <When at={r.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the person answered (decisions §33): the button pressed, a reply, or a message written after it. */
function replyOf(r: Recipient) {
  if (r.button) return `pressed “${r.button.text}”`;
  if (r.replied_at) return 'replied';
  return r.replied_after_at ? 'wrote after it' : '';
}
