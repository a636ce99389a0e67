import { useState } from 'preact/hooks';
import type { Resent, SendMoney, SendStatus } from '../answers.ts';
import { href, type Page, type PageProps } from '../router.ts';
import { isSettled, PauseNote, SendProgress, StatusBadge, templatesOf } from '../sends.tsx';
import { useSession } from '../session.ts';
import { ConfirmButton, ErrorNote, Loading, usePoll, When } from '../ui.tsx';
import { Recipients } from './send-recipients.tsx';
import { Performance } from './send-performance.tsx';
import { SendVariants } from './send-variants.tsx';

const POLL_MS = 1000;

function SendDetails({ params }: PageProps) {
  const { api } = useSession();
  const id = params.sendId;
  const send = usePoll(() => api.get<SendStatus>(`v1/sends/${encodeURIComponent(id)}`), POLL_MS, [id]);
  const s = send.data;
  return (
    <>
      <h1 tabIndex={-1}>{s ? `${s.variants ? 'A/B send' : 'Send'} of ${templatesOf(s)}` : 'Send'}</h1>
      <p>
        <a href={href('sends')}>All sends</a>
      </p>
      <ErrorNote error={send.error} doing="Reading the send" />
      <Loading when={!s && !send.error}>{s && <SendView send={s} onChanged={send.reload} />}</Loading>
    </>
  );
}

/** A send read: its facts, its progress, what stopped it, its errors, what the operator may do, its recipients. */
function SendView({ send, onChanged }: { send: SendStatus; onChanged: () => void }) {
  return (
    <>
      <SendFacts send={send} />
      <SendProgress send={send} />
      <PauseNote send={send} />
      {send.stopped && (
        <p class="error">
          Stopped by Meta: {send.stopped.title} (error {send.stopped.code})
        </p>
      )}
      <SendVariants send={send} />
      <SendErrors errors={send.errors} />
      <SendActions send={send} onChanged={onChanged} />
      <Performance sendId={send.send_id} settled={isSettled(send)} />
      <Recipients sendId={send.send_id} settled={isSettled(send)} />
    </>
  );
}

function SendFacts({ send: s }: { send: SendStatus }) {
  return (
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
      {s.send_at && <TimeFact label="Scheduled for" at={s.send_at} />}
      {s.cancelled_at && <TimeFact label="Cancelled" at={s.cancelled_at} />}
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
  );
}

function TimeFact({ label, at }: { label: string; at: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <When at={at} />
      </dd>
    </>
  );
}

function MoneyFact({ label, money }: { label: string; money: SendMoney }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {money.amount.toFixed(4)} {money.currency}
      </dd>
    </>
  );
}

function SendErrors({ errors }: { errors: SendStatus['errors'] }) {
  if (errors.length === 0) return null;
  return (
    <section aria-labelledby="errors">
      <h2 id="errors">Errors</h2>
      <ul>
        {errors.map((e) => (
          <li key={e.code}>
            {e.title} (error {e.code}): {e.count.toLocaleString('en')}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the operator may do with a send: cancel it while it goes, resend its failed or not delivered once settled. */
function SendActions({ send, onChanged }: { send: SendStatus; onChanged: () => void }) {
  const { api } = useSession();
  const [resent, setResent] = useState<string>();
  const path = `v1/sends/${encodeURIComponent(send.send_id)}`;
  return (
    <>
      <section class="actions" aria-label="Actions">
        {!isSettled(send) && (
          <ConfirmButton
            label="Cancel the send"
            question={`Cancel this send? ${send.pending.toLocaleString('en')} recipients not sent yet will not be.`}
            confirm="Cancel the send"
            danger
            act={async () => {
              await api.post(`${path}/cancel`);
              onChanged();
            }}
          />
        )}
        {isSettled(send) &&
          RESENDS.map((which) => (
            <ConfirmButton
              key={which}
              label={which === 'failed' ? 'Resend the failed' : 'Resend the not delivered'}
              question={`Send this template again to this send's ${which === 'failed' ? 'failed' : 'not delivered'} recipients, with their values? Whoever cannot or would not get it is left out.`}
              confirm="Resend"
              act={async () => {
                const answer = await api.post<Resent>(`${path}/resend`, { which }, { 'idempotency-key': crypto.randomUUID() });
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
    </>
  );
}

const RESENDS = ['failed', 'not_delivered'] as const;

export const sendPage: Page = { path: 'sends/:sendId', title: 'Send', view: SendDetails };
