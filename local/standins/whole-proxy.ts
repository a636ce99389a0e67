import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type LocalServer, serveWhole } from './local-server.ts';

/**
 * What the local stack's proxies share (the queue journal, the rehearsal's IAM gate): each request, read whole
 * (local-server.ts `serveWhole`), passed on to the server behind as it came, and its answer read whole before the proxy decides what to send.
 */
export interface WholeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** The request passed on to `target` with its method, headers and body; undefined when the target cannot be reached. */
export function forwardWhole(target: string, req: IncomingMessage, body: Buffer): Promise<WholeAnswer | undefined> {
  return new Promise((resolve) => {
    const forwarded = request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (c: Buffer) => parts.push(c));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 500, headers: answer.headers, text: Buffer.concat(parts).toString() }));
    });
    forwarded.on('error', () => resolve(undefined));
    forwarded.end(body);
  });
}

/** An answer sent whole: the server's headers, but the length of this text (the proxy may have changed it). */
export function answerWhole(res: ServerResponse, answer: WholeAnswer | undefined) {
  if (!answer) {
    res.writeHead(502);
    res.end();
    return;
  }
  const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
  res.writeHead(answer.status, { ...headers, 'content-length': String(Buffer.byteLength(answer.text)) });
  res.end(answer.text);
}

/** How a journaling proxy records an answered call, and the error its protocol gives when the record failed. */
export interface Journaling {
  /** The answer's text as the client gets it (the server's own addresses made the proxy's). */
  rewrite?: (text: string) => string;
  /** The call's journal entries, on disk before the answer leaves. */
  record: (target: string, requestBody: Buffer, answerText: string) => Promise<void>;
  failure: { contentType: string; type: string };
}

/**
 * A proxy that journals each successful call before answering it (the queues' and streams' journals, decisions
 * §16): an answer whose record failed is an error, so the caller never believes it was accepted.
 */
export function serveJournaling(target: string, host: string, journaling: Journaling): Promise<LocalServer> {
  return serveWhole(async (req, res, body) => {
    const answer = await forwardWhole(target, req, body);
    if (!answer) return answerWhole(res, answer);
    const text = journaling.rewrite?.(answer.text) ?? answer.text;
    try {
      if (answer.status < 300) await journaling.record(String(req.headers['x-amz-target'] ?? ''), body, text);
      answerWhole(res, { ...answer, text });
    } catch {
      res.writeHead(500, { 'content-type': journaling.failure.contentType });
      res.end(JSON.stringify({ __type: journaling.failure.type, message: 'journal write failed' }));
    }
  }, host);
}
