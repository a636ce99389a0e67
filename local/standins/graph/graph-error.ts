/** A refusal in Graph's terms: HTTP status, error code, subcode and the message for a person. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly userMessage?: string,
  ) {
    super(message);
  }
}
