import { CLOSE, StompError } from './errors.js';
import { header, type Frame, type StompVersion } from './frame.js';

/** Commands that may carry a body (spec: "Frames and Headers"); CONNECT and STOMP are let through. */
const BODY_ALLOWED = new Set(['SEND', 'CONNECT', 'STOMP']);

/** A body on a frame that must not have one is a protocol error. */
export function assertBodyAllowed(frame: Frame): void {
  if (frame.body.length > 0 && !BODY_ALLOWED.has(frame.command)) {
    throw new StompError(`${frame.command} frames must not have a body`, undefined, CLOSE.protocol);
  }
}

/** A header the frame must carry, non-empty; missing is a protocol error. */
export function requiredHeader(frame: Frame, name: string): string {
  const value = header(frame, name);
  if (value === undefined || value === '') {
    throw new StompError(
      `Missing header: ${name}`,
      `${frame.command} requires a ${name} header`,
      CLOSE.protocol,
    );
  }
  return value;
}

/**
 * ACK and NACK carry the headers their version names. Messages are persisted and fetched again
 * with ?after=, so acknowledgements need no state beyond that check.
 */
export function checkAckHeaders(frame: Frame, version: StompVersion): void {
  if (version === '1.2') requiredHeader(frame, 'id');
  else if (version === '1.1') {
    requiredHeader(frame, 'subscription');
    requiredHeader(frame, 'message-id');
  } else requiredHeader(frame, 'message-id');
}
