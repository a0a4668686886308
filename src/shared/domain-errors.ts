/**
 * The service's domain errors: what went wrong, by kind, without a word of HTTP. Cores,
 * repositories and areas throw these; the HTTP edge (src/shared/errors.ts) maps each kind to its
 * status and the error shape, and the console and the MQTT broker test the kind.
 */

/** One problem with one field of the input. */
export interface FieldProblem {
  field: string;
  problem: string;
}

export type ErrorKind =
  /** The input breaks a rule (a field, a range, a state the object is not in). */
  | "invalid"
  /** No credential, or one that is not (or no longer) valid. */
  | "unauthenticated"
  /** A valid credential that may not do this (a role, a ban, an access token where a key is needed). */
  | "forbidden"
  | "not-found"
  /** The state of things says no: a key already used, a delivery still pending, a short balance. */
  | "conflict"
  /** Something the service needs is not configured or not reachable; trying again may help. */
  | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** The fields at fault, when the input has fields. */
    readonly problems?: FieldProblem[],
    /** More for the caller, added to the answer's body as they are (a `balance` that was short). */
    readonly details?: Record<string, unknown>,
  ) {
    // An answer, not a fault: it is never logged, and capturing a stack would cost every refusal
    // (a flood of invalid events) a walk of the whole call stack.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export const invalid = (message: string, problems?: FieldProblem[]) => new DomainError("invalid", message, problems);
export const unauthenticated = (message: string) => new DomainError("unauthenticated", message);
export const forbidden = (message: string) => new DomainError("forbidden", message);
export const notFound = (message: string) => new DomainError("not-found", message);
export const conflict = (message: string, problems?: FieldProblem[], details?: Record<string, unknown>) =>
  new DomainError("conflict", message, problems, details);
export const unavailable = (message: string) => new DomainError("unavailable", message);

/** Whether `err` is a domain error, of one of `kinds` when given. */
export const isDomainError = (err: unknown, ...kinds: ErrorKind[]): err is DomainError =>
  err instanceof DomainError && (kinds.length === 0 || kinds.includes(err.kind));
