import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';

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
