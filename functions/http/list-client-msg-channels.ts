import { listClientChannels } from '#lib/domain/channels.ts';
import { directory } from '#lib/deps.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { ListChannelsQuery } from '#lib/schemas/channels.ts';

export const handler = httpFunction(
  { query: ListChannelsQuery, invalidMessage: 'client_id, deleted, page or size not valid numbers/booleans' },
  async ({ query, caller }) => ({ status: 200, body: await listClientChannels(directory, caller, query) }),
);
