import { useState } from 'preact/hooks';
import type { ChannelsPage, DraftCheck, TemplatesPage } from '../answers.ts';
import type { Page } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Loading, Pager, usePoll } from '../ui.tsx';
import { type Draft, draftBody, LISTING_FIELDS, type TemplateRow, templateRow } from './templates-data.ts';
import './pages.css';

const PAGE_SIZE = 50;

/**
 * Templates (issue 45): the client's templates with Meta's status and quality, whether Meta paused them, whether
 * they are enabled, and the campaigns and channels each is assigned to; and a draft checked against the reasons
 * Meta commonly rejects one (a create's dry run: review warnings, decisions §18), without creating it.
 */
function Templates() {
  const { api, clientId } = useSession();
  const [page, setPage] = useState(1);
  const listing = usePoll(
    () => api.get<TemplatesPage>('v1/templates', { client_id: clientId, fields: LISTING_FIELDS, page, size: PAGE_SIZE }),
    0,
    [clientId, page],
  );
  const rows = listing.data?.data.map(templateRow) ?? [];
  const pages = listing.data ? Math.max(1, Math.ceil(listing.data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <h1 tabIndex={-1}>Templates</h1>
      <p class="lead">This client’s templates as Meta reviewed and rated them, and where each may be sent from.</p>
      <ErrorNote error={listing.error} doing="Reading the templates" />
      <Loading when={!listing.data && !listing.error}>
        {rows.length === 0 ? <p>This client has no templates.</p> : <TemplatesTable rows={rows} total={listing.data?.total} />}
        <Pager label="Pages of templates" page={page} pages={pages} onPage={setPage} />
      </Loading>
      <DraftCheckForm />
    </>
  );
}

function TemplatesTable({ rows, total }: { rows: TemplateRow[]; total?: number }) {
  return (
    <table class="templates">
      <caption>Templates: {total?.toLocaleString('en')}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Language</th>
          <th scope="col">Category</th>
          <th scope="col">Status</th>
          <th scope="col">Quality</th>
          <th scope="col">Enabled</th>
          <th scope="col">Campaigns and channels</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <TemplateLine key={row.id} row={row} />
        ))}
      </tbody>
    </table>
  );
}

/** A template's row: its status with why Meta paused or rejected it, its quality, and its assignments. */
function TemplateLine({ row }: { row: TemplateRow }) {
  return (
    <tr data-template={row.id}>
      <td>{row.name}</td>
      <td>{row.language}</td>
      <td>
        {row.category}
        {row.categoryNotes.map((note) => (
          <div key={note} class="small category-change">
            {note}
          </div>
        ))}
      </td>
      <td>
        <span class={`status-${row.status}`}>{row.status}</span>
        {row.paused && <div class="small">Meta paused it for its quality: its sends wait until the pause ends.</div>}
        {row.rejectedReason && <div class="small">Reason: {row.rejectedReason}</div>}
      </td>
      <td>
        <span class={`quality-${row.quality}`}>{row.quality}</span>
      </td>
      <td>{row.active ? 'yes' : 'no'}</td>
      <td>
        {row.assignments.length === 0 ? (
          'unassigned'
        ) : (
          <ul class="plain">
            {row.assignments.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

const EMPTY: Draft = { name: '', language: 'en_US', category: 'MARKETING', body: '', footer: '' };

function DraftCheckForm() {
  const { dids, numbersError, chosen, setDid, draft, setDraft, check, error, submit } = useDraftCheck();
  const set = (field: keyof Draft) => (e: Event) => setDraft({ ...draft, [field]: (e.target as HTMLInputElement).value });
  return (
    <section aria-labelledby="draft-heading">
      <h2 id="draft-heading">Check a draft</h2>
      <p class="muted">Nothing is created: the draft is checked as a create would check it, with Meta’s common reasons to reject it.</p>
      <ErrorNote error={numbersError} doing="Reading the client’s numbers" />
      <form
        class="draft"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label>
          Number (DID)
          <select value={chosen} onChange={(e) => setDid((e.target as HTMLSelectElement).value)}>
            {dids.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <DraftFields draft={draft} set={set} />
        <div>
          <button type="submit" disabled={!chosen}>
            Check the draft
          </button>
        </div>
      </form>
      <ErrorNote error={error} doing="Checking the draft" />
      <div aria-live="polite">{check && <CheckResult check={check} />}</div>
    </section>
  );
}

/**
 * The draft being written, the client's numbers to check it from (the first unless one is chosen), and its check:
 * a create's dry run, which creates nothing.
 */
function useDraftCheck() {
  const { api, clientId } = useSession();
  const numbers = usePoll(() => api.get<ChannelsPage>('v1/client-msg-channels', { client_id: clientId, fields: 'wa_id', size: 100 }), 0, [
    clientId,
  ]);
  const [did, setDid] = useState('');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [check, setCheck] = useState<DraftCheck | undefined>();
  const [error, setError] = useState<unknown>();
  const dids = [...new Set(numbers.data?.data.map((c) => c.wa_id).filter((d) => typeof d === 'string') ?? [])];
  const chosen = did || dids[0] || '';
  const submit = async () => {
    setError(undefined);
    setCheck(undefined);
    try {
      setCheck(await api.post<DraftCheck>(`v1/templates/${encodeURIComponent(chosen)}?dry_run=true`, draftBody(draft, clientId)));
    } catch (failure) {
      setError(failure);
    }
  };
  return { dids, numbersError: numbers.error, chosen, setDid, draft, setDraft, check, error, submit };
}

/** The draft's own fields: its name, language, category, body and footer. */
function DraftFields({ draft, set }: { draft: Draft; set: (field: keyof Draft) => (e: Event) => void }) {
  return (
    <>
      <label>
        Name
        <input
          name="name"
          value={draft.name}
          onInput={set('name')}
          required
          pattern="[a-z0-9_]+"
          title="lower case letters, digits and _"
        />
      </label>
      <label>
        Language
        <input name="language" value={draft.language} onInput={set('language')} required />
      </label>
      <label>
        Category
        <select value={draft.category} onChange={set('category')}>
          <option value="MARKETING">MARKETING</option>
          <option value="UTILITY">UTILITY</option>
          <option value="AUTHENTICATION">AUTHENTICATION</option>
        </select>
      </label>
      <label class="wide">
        Body (placeholders as {'{{1}}'}, {'{{2}}'}…)
        <textarea name="body" rows={3} value={draft.body} onInput={set('body')} required />
      </label>
      <label class="wide">
        Footer (optional)
        <input name="footer" value={draft.footer} onInput={set('footer')} />
      </label>
    </>
  );
}

function CheckResult({ check }: { check: DraftCheck }) {
  return (
    <div class="draft-result">
      {check.errors.length > 0 ? (
        <>
          <p class="error">The draft would be refused:</p>
          <ul>
            {check.errors.map((e) => (
              <li key={`${e.path}${e.message}`}>{e.path ? `${e.path}: ${e.message}` : e.message}</li>
            ))}
          </ul>
        </>
      ) : (
        <p class="note">The draft is valid.</p>
      )}
      {check.review_warnings.length > 0 ? (
        <>
          <p>Review warnings: Meta often rejects a template that</p>
          <ul class="warnings">
            {check.review_warnings.map((w) => (
              <li key={`${w.rule}${w.path}`} data-rule={w.rule}>
                <strong>{w.rule.replace(/_/g, ' ')}</strong> ({w.path}): {w.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>No review warnings: none of Meta’s common reasons to reject it applies.</p>
      )}
    </div>
  );
}

export const templatesPage: Page = { path: 'templates', nav: 'Templates', title: 'Templates', view: Templates };
