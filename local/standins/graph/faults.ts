/** Faults the emulator injects on request, so tests can show what the service does when the upstream fails. */
export interface Fault {
  /** Substring of the request path the fault applies to; all paths when absent. */
  path?: string;
  /** The HTTP method it applies to; every method when absent. */
  method?: string;
  /** Substring of the query string it applies to (`name=order_update`); every query when absent. */
  query?: string;
  /** Substring of the request body it applies to (a template's name); every body when absent. */
  body?: string;
  status?: number;
  /** Graph error code for the envelope (defaults by status). */
  code?: number;
  /** Hang this long before answering (a timeout for a client with a shorter one). */
  delayMs?: number;
  /**
   * Carry the request out first, then hang `delayMs` before answering: the upstream accepted, the client
   * times out and never learns it (the ambiguous failure a create or edit must reconcile).
   */
  afterAccept?: boolean;
  /** How many requests it affects; unlimited when absent. */
  times?: number;
}

export class Faults {
  private list: Fault[] = [];

  add(fault: Fault) {
    this.list.push(fault);
    return this.list;
  }

  /**
   * Clears every fault, or only those set for one path (and method), so test files running at the same time
   * do not clear each other's.
   */
  clear(path?: string, method?: string) {
    this.list = path === undefined ? [] : this.list.filter((f) => f.path !== path || (method !== undefined && f.method !== method));
    return this.list;
  }

  /** The fault for this request, if any; a counted fault is used up. */
  take(method: string, path: string, query = '', body = ''): Fault | undefined {
    const index = this.list.findIndex(
      (f) =>
        (!f.path || path.includes(f.path)) &&
        (!f.method || f.method === method) &&
        (!f.query || query.includes(f.query)) &&
        (!f.body || body.includes(f.body)),
    );
    if (index < 0) return undefined;
    const fault = this.list[index];
    if (fault.times !== undefined && --fault.times <= 0) this.list.splice(index, 1);
    return fault;
  }
}
