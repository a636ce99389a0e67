/**
 * What can go wrong in a use case, in the domain's words. The HTTP edge (lib/http/error-response.ts) maps
 * each kind to the contract's status and body; the domain never knows about statuses.
 */
export interface ErrorDetail {
  /** Where the problem is, as a path into the request (`components[1].buttons[0].text`). */
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request breaks a rule; details name every problem found. */
export class InvalidRequest extends DomainError {}
/** The caller may not act for that client or on that resource. */
export class Forbidden extends DomainError {}
/** The thing named does not exist, or is not visible to the caller. */
export class NotFound extends DomainError {}
/**
 * The request is valid but collides with the current state (a concurrent change, a duplicate). `reason` is
 * the stable code programs key on when the contract names one (`idempotency_key_reused`).
 */
export class Conflict extends DomainError {
  constructor(
    message: string,
    readonly reason?: string,
    /** Figures the caller acts on, answered beside the message (a budget's `remaining` and the `estimate`). */
    readonly figures?: Record<string, number>,
  ) {
    super(message);
  }
}
/**
 * The request is understood but cannot be carried out on this resource as it stands. `reason` is the stable
 * code programs key on where one is named (`direct_send_not_enabled`); `unprocessable` otherwise.
 */
export class Unprocessable extends DomainError {
  constructor(
    message: string,
    details?: ErrorDetail[],
    readonly reason?: string,
  ) {
    super(message, details);
  }
}
/** The upstream (or a queue the use case needs) gave no usable answer: nothing the caller can fix. */
export class UpstreamUnavailable extends DomainError {
  constructor(message = 'External service unreachable') {
    super(message);
  }
}
/**
 * The upstream refused the request. `reason` names the refusals a use case reacts to; the message is the
 * upstream's own words for a person (never a token or trace id).
 */
export class UpstreamRejected extends DomainError {
  constructor(
    message: string,
    readonly reason?: 'duplicate_template',
  ) {
    super(message);
  }
}
