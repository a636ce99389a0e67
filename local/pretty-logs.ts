/**
 * `LOG_FORMAT=pretty` for `npm start` on a terminal (decisions §21): each JSON log line the functions write is
 * shown as one short line (a request as `time status method route duration function request`), anything else
 * passes as it came. The functions keep writing JSON, as they do in AWS; only this process's terminal differs.
 */
export type LogFormat = 'pretty' | 'json';

/** pretty on a terminal, json otherwise (a pipe, a file, CI), unless LOG_FORMAT says. */
export function logFormatOf(setting: string | undefined, isTty: boolean): LogFormat {
  if (setting === 'pretty' || setting === 'json') return setting;
  if (setting) throw new Error(`LOG_FORMAT must be pretty or json, not ${setting}`);
  return isTty ? 'pretty' : 'json';
}

/** Keys every line carries, or that only a machine reads: left out of the short line. */
const QUIET_KEYS = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
  'cold_start',
  'function_name',
  'function_arn',
  'function_memory_size',
  'function_request_id',
  'function_version',
  'request_id',
  'correlation_id',
  'method',
  'route',
  'status',
  'duration_ms',
]);

const shortId = (id: unknown) => (typeof id === 'string' ? id.slice(0, 8) : '-');
const timeOf = (timestamp: unknown) => (typeof timestamp === 'string' ? timestamp.slice(11, 23) : new Date().toISOString().slice(11, 23));
const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One JSON log line as a short line; null when the line is not one of the service's log lines. */
export function prettyLine(line: string): string | null {
  if (!line.startsWith('{')) return null;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof entry.level !== 'string' || typeof entry.message !== 'string') return null;
  const time = timeOf(entry.timestamp);
  const fn = String(entry.function_name ?? '-');
  if (entry.message === 'request') {
    const route = String(entry.route ?? '').replace(/^\S+ /, '');
    return `${time} ${entry.status ?? '---'} ${entry.method ?? ''} ${route} ${entry.duration_ms ?? '?'} ms ${fn} ${shortId(entry.request_id)}`;
  }
  const extra = Object.entries(entry)
    .filter(([key]) => !QUIET_KEYS.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`)
    .join(' ');
  return `${time} ${entry.level.padEnd(5)} ${fn} ${entry.message}${extra ? ` ${extra}` : ''} ${shortId(entry.correlation_id ?? entry.request_id)}`;
}

/** Rewrites the stream's JSON log lines as short lines from now on. */
export function writePrettyLogs(stream: NodeJS.WriteStream) {
  const write = stream.write.bind(stream) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const shown = text
      .split('\n')
      .map((line) => prettyLine(line) ?? line)
      .join('\n');
    return write(shown, ...rest);
  }) as typeof stream.write;
}
