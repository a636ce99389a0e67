import { ApiProblem, type Api, type Query } from './api.ts';

/**
 * Saves what an API path answers in another type (CSV, PDF) as a file: fetched with the operator's token (a link
 * could not carry it), then handed to the browser as a download. A refusal throws in words with its request id.
 */
export async function download(api: Api, path: string, query: Query, accept: string, filename: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(api.url(path, query), { headers: { authorization: `Bearer ${api.token}`, accept } });
  } catch (error) {
    throw new ApiProblem(`The API could not be reached (${(error as Error).message})`, 0);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string; request_id?: string };
    throw new ApiProblem(
      body.message ?? `HTTP ${response.status}`,
      response.status,
      body.code,
      body.request_id ?? response.headers.get('x-request-id') ?? undefined,
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
