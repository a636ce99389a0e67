import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ChannelsPage } from './answers.ts';
import type { Api } from './api.ts';
import type { ConsoleConfig } from './config.ts';
import { cognitoSignOut, cognitoToken } from './sign-in-cognito.ts';

/** A client the operator may act for, as the directory names it. */
export interface Client {
  id: number;
  name?: string;
}

/** Who is signed in: the API with their token, the clients they may see, and the one the pages show. */
export interface Session {
  api: Api;
  /** An agent's own client; every client of the directory for BSP_CN. */
  clients: Client[];
  clientId: number;
  setClientId(id: number): void;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

/** The session of the page being shown (the shell provides it). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}

const TOKEN_KEY = 'tms-console-token';
const CLIENT_KEY = 'tms-console-client';

/**
 * The operator's token: from the address `npm start` prints (`#token=…`, then dropped from the address and kept
 * for this tab only), from this tab's storage, or through Cognito's hosted UI where the stack has it. Undefined:
 * ask for one.
 */
export async function takeToken(config: ConsoleConfig): Promise<string | undefined> {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  if (given) {
    keepToken(given);
    history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  }
  const kept = sessionStorage.getItem(TOKEN_KEY);
  if (kept) return kept;
  if (config.signIn === 'cognito') {
    const token = await cognitoToken(config);
    keepToken(token);
    return token;
  }
  return undefined;
}

export const keepToken = (token: string) => sessionStorage.setItem(TOKEN_KEY, token);

export function forgetToken(config: ConsoleConfig) {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(CLIENT_KEY);
  if (config.signIn === 'cognito') cognitoSignOut(config);
}

export const keptClient = () => Number(sessionStorage.getItem(CLIENT_KEY)) || undefined;
export const keepClient = (id: number) => sessionStorage.setItem(CLIENT_KEY, String(id));

/**
 * The clients the token may act for, from the directory's channels: an agent sees its own client's, BSP_CN every
 * client's. Every page names its client to the API, which refuses an agent any other.
 */
export async function clientsOf(api: Api): Promise<Client[]> {
  const seen = new Map<number, Client>();
  for (let page = 1; page <= 50; page++) {
    const answer = await api.get<ChannelsPage>('v1/client-msg-channels', { fields: 'client_id,client_name', size: 100, page });
    for (const row of answer.data)
      if (typeof row.client_id === 'number' && !seen.has(row.client_id))
        seen.set(row.client_id, { id: row.client_id, name: typeof row.client_name === 'string' ? row.client_name : undefined });
    if (page * answer.page_size >= answer.total) break;
  }
  return [...seen.values()].sort((a, b) => a.id - b.id);
}
