import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Api } from './api.ts';
import type { ConsoleConfig } from './config.ts';
import { pages } from './pages.ts';
import { pageAt, useHash } from './router.ts';
import {
  type Client,
  clientsOf,
  forgetToken,
  keepClient,
  keepToken,
  keptClient,
  type Session,
  SessionContext,
  takeToken,
} from './session.ts';
import { ErrorNote } from './ui.tsx';

/** The console: signs in (token or Cognito, as its settings say), learns the clients, then shows the pages. */
export function Console({ config }: { config: ConsoleConfig }) {
  // undefined: no token yet (the form asks for one); null: still looking.
  const [token, setToken] = useState<string | undefined | null>(null);
  const [refused, setRefused] = useState(false);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    takeToken(config).then(setToken, setError);
  }, [config]);
  const signOut = () => {
    forgetToken(config);
    setToken(undefined);
  };
  if (error) return <ErrorNote error={error} doing="Signing in" />;
  if (token === null) return <p aria-live="polite">Signing in…</p>;
  if (token === undefined)
    return (
      <TokenForm
        refused={refused}
        onToken={(given) => {
          keepToken(given);
          setRefused(false);
          setToken(given);
        }}
      />
    );
  return (
    <SignedIn
      key={token}
      token={token}
      signOut={signOut}
      refusedToken={() => {
        forgetToken(config);
        setRefused(true);
        setToken(undefined);
      }}
    />
  );
}

function TokenForm({ onToken, refused }: { onToken: (token: string) => void; refused: boolean }) {
  const [text, setText] = useState('');
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the console</h1>
      {refused && (
        <p class="error" role="alert">
          The API refused that token (expired, or not one of this service's). Sign in again.
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) onToken(text.trim());
        }}
      >
        <label for="token">
          Bearer token (<code>npm start</code> prints one; <code>npm run token</code> makes more)
        </label>
        <textarea id="token" rows={4} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

function SignedIn({ token, signOut, refusedToken }: { token: string; signOut: () => void; refusedToken: () => void }) {
  const refused = useRef(refusedToken);
  refused.current = refusedToken;
  const api = useMemo(() => new Api(token, () => refused.current()), [token]);
  const [clients, setClients] = useState<Client[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [clientId, setClient] = useState<number | undefined>(keptClient());
  useEffect(() => {
    clientsOf(api).then((found) => {
      setClients(found);
      setClient((kept) => (kept !== undefined && found.some((c) => c.id === kept) ? kept : found[0]?.id));
    }, setError);
  }, [api]);
  if (error) return <ErrorNote error={error} doing="Finding the clients this token may see" />;
  if (!clients) return <p aria-live="polite">Finding your clients…</p>;
  if (clientId === undefined)
    return (
      <p class="error" role="alert">
        This token's client has no channels in the directory: there is nothing to show.
      </p>
    );
  const session: Session = {
    api,
    clients,
    clientId,
    setClientId: (id) => {
      keepClient(id);
      setClient(id);
    },
    signOut,
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} />
    </SessionContext.Provider>
  );
}

function Shell({ session }: { session: Session }) {
  const hash = useHash();
  const { page, params } = pageAt(pages, hash);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${page.title} · Console · Template Messaging Service`;
    // A new page takes the focus, as a page load would: a screen reader reads its heading.
    if (!first.current) main.current?.querySelector('h1')?.focus();
    first.current = false;
  }, [hash]);
  const Page = page.view;
  return (
    <>
      <button type="button" class="skip" onClick={() => main.current?.focus()}>
        Skip to the page
      </button>
      <header class="top">
        <p class="brand">Template Messaging Service · Console</p>
        <ClientPicker session={session} />
        <button type="button" onClick={session.signOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console">
        <ul>
          {pages
            .filter((p) => p.nav)
            .map((p) => (
              <li key={p.path}>
                <a href={`#/${p.path}`} aria-current={p === page ? 'page' : undefined}>
                  {p.nav}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        <Page key={`${page.path}|${session.clientId}`} params={params} />
      </main>
    </>
  );
}

/** An agent sees its client; BSP_CN picks one, and every page shows that one. */
function ClientPicker({ session }: { session: Session }) {
  const name = (c: Client) => `${c.id}${c.name ? ` · ${c.name}` : ''}`;
  if (session.clients.length === 1) return <p class="client">Client {name(session.clients[0])}</p>;
  return (
    <label class="client">
      Client{' '}
      <select value={session.clientId} onChange={(e) => session.setClientId(Number((e.target as HTMLSelectElement).value))}>
        {session.clients.map((c) => (
          <option key={c.id} value={c.id}>
            {name(c)}
          </option>
        ))}
      </select>
    </label>
  );
}
