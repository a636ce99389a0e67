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

/** What the console says when it refuses a token from its address (decisions §32). */
export const REFUSED_LINK =
  'This link carried a sign-in token, which the console does not take where it signs in through its sign-in page: ' +
  'a link could sign you in as someone else. The token was ignored and removed from the address; reload the page to sign in.';

/**
 * A token given in the console's address (`#token=…`): taken where the console signs in by token (the local
 * stack's `npm start` prints such an address), refused where it signs in through Cognito, since a link carrying
 * an attacker's token would sign its victim in as the attacker.
 */
export function tokenInAddress(config: ConsoleConfig, hash: string): { take: string } | { refuse: true } | undefined {
  const given = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  if (!given) return undefined;
  return config.signIn === 'cognito' ? { refuse: true } : { take: given };
}

/**
 * The operator's token: from the address `npm start` prints (`#token=…`, then dropped from the address and kept
 * for this tab only), from this tab's storage, or through Cognito's hosted UI where the stack has it. Undefined:
 * ask for one. A token in the address where the stack has Cognito is dropped from it and refused in words.
 */
export async function takeToken(config: ConsoleConfig): Promise<string | undefined> {
  const given = tokenInAddress(config, location.hash);
  if (given) history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  if (given && 'refuse' in given) throw new Error(REFUSED_LINK);
  if (given) keepToken(given.take);
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
