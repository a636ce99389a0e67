import { useState } from 'preact/hooks';
import type { SendsPage } from '../answers.ts';
import { href, type Page } from '../router.ts';
import { isSettled, PauseNote, SendProgress, StatusBadge, templatesOf } from '../sends.tsx';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, Pager, usePoll, When } from '../ui.tsx';

const PAGE_SIZE = 20;
/** How often the list asks again while a send on it is still going. */
const POLL_MS = 1000;
/** How often it asks when every send on it is settled (a new send appears, late statuses arrive). */
const IDLE_POLL_MS = 5000;

function Sends() {
  const { api, clientId } = useSession();
  const [page, setPage] = useState(1);
  const [every, setEvery] = useState(POLL_MS);
  const sends = usePoll(
    async () => {
      const answer = await api.get<SendsPage>('v1/sends', { client_id: clientId, page, size: PAGE_SIZE });
      setEvery(answer.data.every(isSettled) ? IDLE_POLL_MS : POLL_MS);
      return answer;
    },
    every,
    [clientId, page, every],
  );
  const pages = sends.data ? Math.max(1, Math.ceil(sends.data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <h1 tabIndex={-1}>Sends</h1>
      <p class="lead">Newest first, live: each bar moves as the dispatcher and Meta's statuses settle recipients.</p>
      <ErrorNote error={sends.error} doing="Reading the sends" />
      <Loading when={!sends.data && !sends.error}>
        {sends.data?.data.length === 0 ? (
          <p>No sends yet for this client.</p>
        ) : (
          <ol class="sends" aria-label="Sends">
            {sends.data?.data.map((send) => (
              <li key={send.send_id} class="send" data-send-id={send.send_id}>
                <div class="send-head">
                  <a href={href('sends', send.send_id)}>{`${send.variants ? 'A/B: ' : ''}${templatesOf(send)}`}</a>
                  <StatusBadge status={send.status} />
                  <span class="muted">
                    {send.total.toLocaleString('en')} recipients · from {send.did} · <When at={send.created_at} />
                  </span>
                </div>
                <SendProgress send={send} />
                <PauseNote send={send} />
              </li>
            ))}
          </ol>
        )}
        <Pager label="Pages of sends" page={page} pages={pages} onPage={setPage} previous="Newer" next="Older" />
      </Loading>
    </>
  );
}

export const sendsPage: Page = { path: 'sends', nav: 'Sends', title: 'Sends', view: Sends };
