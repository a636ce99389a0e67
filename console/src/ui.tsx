import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './api.ts';

/** An error in words, with the API's code and request id (what an operator quotes to support). */
export function ErrorNote({ error, doing }: { error: unknown; doing?: string }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : undefined;
  return (
    <div class="error" role="alert">
      <p>
        {doing ? `${doing} failed: ` : ''}
        {problem ? problem.message : String((error as Error).message ?? error)}
        {problem?.status ? ` (HTTP ${problem.status}${problem.code ? `, ${problem.code}` : ''})` : ''}
      </p>
      {problem?.details?.length ? (
        <ul>
          {problem.details.map((d) => (
            <li key={`${d.path}${d.message}`}>{d.path ? `${d.path}: ${d.message}` : d.message}</li>
          ))}
        </ul>
      ) : null}
      {problem?.requestId && (
        <p class="request-id">
          Request id: <code>{problem.requestId}</code>
        </p>
      )}
    </div>
  );
}

/** What a poll shows: the latest answer, the latest error (the answer before it kept), and a way to ask now. */
export interface Polled<T> {
  data?: T;
  error?: unknown;
  reload: () => void;
}

/**
 * Asks `load` now and again every `everyMs` after each answer, while the page shows it (no reload of the page);
 * `keys` changing starts over. A slow answer never overlaps the next question.
 */
export function usePoll<T>(load: () => Promise<T>, everyMs: number, keys: unknown[]): Polled<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const data = await load();
        if (live) setState({ data });
      } catch (error) {
        if (live) setState((before) => ({ data: before.data, error }));
      }
      if (live && everyMs > 0) timer = setTimeout(ask, everyMs);
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...keys, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** One part of a bar: how many, named, in a tone of console.css (`tone-sent`, …). */
export interface BarPart {
  name: string;
  value: number;
  tone: string;
}

/**
 * A progress bar (`role="progressbar"`, its value in percent of `max`, its parts in words as its value text), with
 * its parts drawn stacked and listed under it.
 */
export function ProgressBar({ label, value, max, parts }: { label: string; value: number; max: number; parts: BarPart[] }) {
  const percent = max > 0 ? Math.min(100, Math.floor((value / max) * 100)) : 100;
  const words = parts
    .filter((p) => p.value > 0)
    .map((p) => `${p.value.toLocaleString('en')} ${p.name}`)
    .join(', ');
  return (
    <div class="progress">
      <div
        class="bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %${words ? `: ${words}` : ''}`}
      >
        {parts.map((p) =>
          p.value > 0 ? <span key={p.name} class={`part ${p.tone}`} style={{ width: `${(p.value / Math.max(max, 1)) * 100}%` }} /> : null,
        )}
      </div>
      <p class="bar-legend">
        <strong>{percent} %</strong>
        {parts.map((p) => (
          <span key={p.name} class="legend-item">
            <span class={`swatch ${p.tone}`} aria-hidden="true" /> {p.name} {p.value.toLocaleString('en')}
          </span>
        ))}
      </p>
    </div>
  );
}

/**
 * A button that asks before it acts: a modal dialog (focus kept inside, Escape cancels) naming what will happen.
 * `act` runs on confirmation; its error is shown in words.
 */
export function ConfirmButton(props: { label: string; question: string; confirm: string; act: () => Promise<unknown>; danger?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const confirmed = async () => {
    dialog.current?.close();
    setBusy(true);
    setError(undefined);
    try {
      await props.act();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="confirm">
      <button type="button" class={props.danger ? 'danger' : undefined} disabled={busy} onClick={() => dialog.current?.showModal()}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-label={props.label}>
        <p>{props.question}</p>
        <div class="dialog-actions">
          <button type="button" class={props.danger ? 'danger' : undefined} onClick={confirmed}>
            {props.confirm}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} autofocus>
            Keep it as it is
          </button>
        </div>
      </dialog>
      <ErrorNote error={error} doing={props.label} />
    </span>
  );
}

/** A time as the operator reads it (their own zone), with the exact instant for a tooltip and machines. */
export function When({ at }: { at?: string }) {
  if (!at) return null;
  const date = new Date(at);
  return (
    <time dateTime={at}>
      {Number.isNaN(date.getTime()) ? at : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/** A section that says it is loading until its content arrives. */
export function Loading({ when, children }: { when: boolean; children: ComponentChildren }) {
  return when ? <p aria-live="polite">Loading…</p> : <div class="loaded">{children}</div>;
}

/** A list's pages: back and forth, where it is in words (a list of one page has none). */
export function Pager(props: {
  label: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  previous?: string;
  next?: string;
}) {
  const { label, page, pages, onPage } = props;
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {props.previous ?? 'Previous'}
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {props.next ?? 'Next'}
      </button>
    </nav>
  );
}
