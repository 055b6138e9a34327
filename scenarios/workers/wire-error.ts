// Errors crossing from a worker thread to the CLI. Structured cloning keeps an error's message but
// not its class, and the CLI tells invalid input (InputError: one line with its location) from an
// internal error (with its stack) by class, so each is sent as data and rebuilt as what it was.
import { InputError, type InputLocation } from '../../common/input-error.ts';
import { UnavailableError } from '../point.ts';

export type WireError =
  | { kind: 'input'; unavailable: boolean; detail: string; location: InputLocation }
  | { kind: 'internal'; name: string; message: string; stack?: string };

export function toWire(e: unknown): WireError {
  if (e instanceof InputError) {
    return { kind: 'input', unavailable: e instanceof UnavailableError, detail: e.detail, location: e.location };
  }
  if (e instanceof Error) return { kind: 'internal', name: e.name, message: e.message, stack: e.stack };
  return { kind: 'internal', name: 'Error', message: String(e) };
}

export function fromWire(w: WireError): Error {
  if (w.kind === 'input') {
    return w.unavailable ? new UnavailableError(w.detail, w.location) : new InputError(w.detail, w.location);
  }
  const e = new Error(w.message);
  e.name = w.name;
  // The worker's stack: where the error happened, which is what a report of it needs.
  if (w.stack !== undefined) e.stack = w.stack;
  return e;
}
