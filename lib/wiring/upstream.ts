import { GraphClient } from '#lib/adapters/graph/graph-client.ts';
import { GraphMessages } from '#lib/adapters/graph/graph-messages.ts';
import { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { graphApiToken } from '#lib/adapters/graph/token.ts';
import { graphApiTimeoutMs, graphApiVersion, graphAppId, graphMessageTimeoutMs, loadConfig } from '#lib/config.ts';
import { logger } from '#lib/log/logger.ts';

let client: GraphClient | undefined;
let upstream: GraphUpstream | undefined;
let messages: GraphMessages | undefined;

const graphClient = () =>
  (client ??= new GraphClient({
    baseUrl: loadConfig('GRAPH_API_URL').GRAPH_API_URL,
    token: () => graphApiToken(),
    version: graphApiVersion(),
    timeoutMs: graphApiTimeoutMs(),
    exchangeTimeoutMs: graphMessageTimeoutMs(),
    log: logger,
  }));

/** The Graph API adapter, made at first use (only functions whose route needs the upstream import this). */
export function graphUpstream(): GraphUpstream {
  upstream ??= new GraphUpstream(graphClient(), graphAppId());
  return upstream;
}

/** Cloud API sends, on the same Graph client. */
export function graphMessages(): GraphMessages {
  messages ??= new GraphMessages(graphClient(), graphUpstream());
  return messages;
}
