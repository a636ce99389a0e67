import { useState } from 'preact/hooks';
import { ApiProblem } from '../api.ts';
import type { Suppression, SuppressionAdded, SuppressionFound, SuppressionsPage } from '../answers.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ConfirmButton, ErrorNote, Loading, Pager, type Polled, usePoll, When } from '../ui.tsx';
import { addBody, personOf, personQuery, sourceWords } from './consent-data.ts';
import './pages.css';

const PAGE_SIZE = 50;

/**
 * Consent (issue 45): the client's suppression list (decisions §25, §28). Look a person up, add one, take one off
 * (after a confirmation); each entry says where it came from. MARKETING sends skip everyone on it.
 */
function Consent() {
  const { api, clientId } = useSession();
  const [page, setPage] = useState(1);
  const list = usePoll(() => api.get<SuppressionsPage>('v1/suppressions', { client_id: clientId, page, size: PAGE_SIZE }), 0, [
    clientId,
    page,
  ]);
  return (
    <>
      <h1 tabIndex={-1}>Consent</h1>
      <p class="lead">The people this client’s MARKETING sends skip: who opted out, since when, and how we know.</p>
      <Search />
      <Add onAdded={list.reload} />
      <SuppressionList list={list} page={page} onPage={setPage} />
    </>
  );
}

/** The client's suppression list, a page at a time; each entry can be taken off. */
function SuppressionList({ list, page, onPage }: { list: Polled<SuppressionsPage>; page: number; onPage: (page: number) => void }) {
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="list-heading">
      <h2 id="list-heading">The suppression list{list.data ? ` (${list.data.total.toLocaleString('en')})` : ''}</h2>
      <ErrorNote error={list.error} doing="Reading the suppression list" />
      <Loading when={!list.data && !list.error}>
        {list.data?.data.length === 0 ? (
          <p>Nobody is on this client’s suppression list.</p>
        ) : (
          <SuppressionTable entries={list.data?.data} onRemoved={list.reload} />
        )}
        <Pager label="Pages of the suppression list" page={page} pages={pages} onPage={onPage} />
      </Loading>
    </section>
  );
}

function SuppressionTable({ entries, onRemoved }: { entries?: Suppression[]; onRemoved: () => void }) {
  return (
    <table class="suppressions">
      <caption>People on the suppression list</caption>
      <thead>
        <tr>
          <th scope="col">Phone number</th>
          <th scope="col">BSUID</th>
          <th scope="col">Source</th>
          <th scope="col">Since</th>
          <th scope="col">Reason or evidence</th>
          <th scope="col">
            <span class="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries?.map((entry) => (
          <SuppressionRow key={personOf(entry)} entry={entry} onRemoved={onRemoved} />
        ))}
      </tbody>
    </table>
  );
}

function SuppressionRow({ entry, onRemoved }: { entry: Suppression; onRemoved: () => void }) {
  const { api, clientId } = useSession();
  return (
    <tr data-person={personOf(entry)}>
      <td>{entry.phone ?? '—'}</td>
      <td>{entry.user_id ?? '—'}</td>
      <td>{sourceWords(entry.source)}</td>
      <td>
        <When at={entry.at} />
      </td>
      <td>{[entry.reason, entry.message_id && `message ${entry.message_id}`].filter(Boolean).join(' · ') || '—'}</td>
      <td>
        <ConfirmButton
          label={`Remove ${personOf(entry)}`}
          question={`Take ${personOf(entry)} off the suppression list? This client’s MARKETING sends will reach them again.`}
          confirm="Remove from the list"
          danger
          act={async () => {
            await api.call('DELETE', `v1/suppressions/${encodeURIComponent(personOf(entry))}`, { client_id: clientId });
            onRemoved();
          }}
        />
      </td>
    </tr>
  );
}

/** One person looked up: their entry with its source, or that they are not on the list. */
function Search() {
  const { api, clientId } = useSession();
  const [typed, setTyped] = useState('');
  const [result, setResult] = useState<{ entry?: Suppression; person: string } | undefined>();
  const [error, setError] = useState<unknown>();
  const search = async () => {
    setError(undefined);
    setResult(undefined);
    const query = personQuery(typed);
    if ('problem' in query) return setError(new Error(query.problem));
    try {
      const entry = await api.get<SuppressionFound>(`v1/suppressions/${encodeURIComponent(query.person)}`, { client_id: clientId });
      setResult({ entry, person: query.person });
    } catch (failure) {
      if (failure instanceof ApiProblem && failure.status === 404) setResult({ person: query.person });
      else setError(failure);
    }
  };
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Look a person up</h2>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <label>
          Phone number or BSUID
          <input type="search" name="person" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={error} doing="Looking the person up" />
      <div aria-live="polite">
        {result &&
          (result.entry ? (
            <div class="found" data-found={result.person}>
              <strong>{personOf(result.entry)}</strong>
              {result.entry.user_id && result.entry.phone ? ` (BSUID ${result.entry.user_id})` : ''} is on the list since{' '}
              <When at={result.entry.at} />: {sourceWords(result.entry.source)}
              {result.entry.reason ? ` (${result.entry.reason})` : ''}.
            </div>
          ) : (
            <p class="found" data-not-found={result.person}>
              {result.person} is not on this client’s suppression list.
            </p>
          ))}
      </div>
    </section>
  );
}

function Add({ onAdded }: { onAdded: () => void }) {
  const { api, clientId } = useSession();
  const [form, setForm] = useState({ person: '', reason: '' });
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string | undefined>();
  const add = async () => {
    setError(undefined);
    setDone(undefined);
    const request = addBody(form, clientId);
    if ('problem' in request) return setError(new Error(request.problem));
    try {
      const answer = await api.post<SuppressionAdded>('v1/suppressions', request.body);
      setDone(
        answer.created
          ? `${personOf(answer)} is on the suppression list now.`
          : `${personOf(answer)} was on the list already (${sourceWords(answer.source)}); that entry stays.`,
      );
      setForm({ person: '', reason: '' });
      onAdded();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-labelledby="add-heading">
      <h2 id="add-heading">Add a person</h2>
      <form
        class="add"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <label>
          Phone number or BSUID to add
          <input
            name="add-person"
            value={form.person}
            onInput={(e) => setForm({ ...form, person: (e.target as HTMLInputElement).value })}
            required
          />
        </label>
        <label>
          Reason (optional)
          <input
            name="reason"
            value={form.reason}
            maxLength={256}
            onInput={(e) => setForm({ ...form, reason: (e.target as HTMLInputElement).value })}
          />
        </label>
        <button type="submit">Add to the list</button>
      </form>
      <ErrorNote error={error} doing="Adding the person" />
      <div aria-live="polite">{done && <p class="note">{done}</p>}</div>
    </section>
  );
}

export const consentPage: Page = { path: 'consent', nav: 'Consent', title: 'Consent', view: Consent };
