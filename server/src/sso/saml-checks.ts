/**
 * The relying-party checks node-saml leaves to its caller, and the student-readable reasons for
 * every refusal. node-saml verifies the signature (over the Response or over the Assertion), the
 * Response's InResponseTo, the audience and the validity window against the machine's own clock
 * (it reads `new Date()` itself). It does not check the issuer, the Destination or the
 * Recipient, it cannot know about replays, and its clock cannot be injected; so the checks here
 * read the assertion node-saml verified and repeat the time window on the injected clock, which
 * keeps the sso module's time rules on one clock for tests.
 */
import { SSO_MESSAGES } from '@campus/contract';
import { SamlStatusError } from '@node-saml/node-saml';
import { SsoRefusal } from './protocol.js';
import { attr, child, children, text, type XmlElement } from './saml-xml.js';

/** How far the university's clock and ours may disagree. */
export const SAML_CLOCK_SKEW_MS = 90_000;
/** The longest an assertion is accepted after the university issued it, whatever its NotOnOrAfter says. */
export const SAML_MAX_ASSERTION_AGE_MS = 10 * 60_000;

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

type SamlRefusalReason = Exclude<SsoRefusal['reason'], 'nonce' | 'unavailable'>;

/** What a student reads (contract's SSO_MESSAGES); never the assertion, an address or a library message. */
function messageFor(reason: SamlRefusalReason): string {
  switch (reason) {
    case 'state':
      return SSO_MESSAGES.stateInvalid;
    case 'idp-error':
      return SSO_MESSAGES.idpRefused;
    case 'missing-email':
      return SSO_MESSAGES.emailMissing;
    default:
      return SSO_MESSAGES.responseInvalid;
  }
}

/** `cause` (node-saml's error) goes to the server log only. */
export function refuse(reason: SamlRefusalReason, cause?: unknown): SsoRefusal {
  return new SsoRefusal(reason, messageFor(reason), cause === undefined ? undefined : { cause });
}

/**
 * node-saml reports failures as plain Errors; their messages (pinned by the installed version and
 * by a test per reason) say which check failed. Anything unrecognised is refused as unverifiable.
 */
export function refusalFromLibrary(err: unknown): SsoRefusal {
  if (err instanceof SsoRefusal) return err;
  if (err instanceof SamlStatusError) return refuse('idp-error', err);
  const message = err instanceof Error ? err.message : '';
  if (/InResponseTo/i.test(message)) return refuse('unsolicited', err);
  if (/audience/i.test(message)) return refuse('audience', err);
  if (/expired|not yet valid|no valid subject confirmation/i.test(message)) return refuse('expired', err);
  if (/missing SAML assertion/i.test(message)) return refuse('idp-error', err);
  return refuse('signature', err);
}

export interface CheckedAssertion {
  id: string;
  /** Until when this assertion could be accepted (plus skew): how long the replay cache keeps it. */
  acceptableUntilMs: number;
}

/**
 * `response` is the whole Response as received (signed or not: its fields are only compared with
 * values we expect, never trusted on their own); `assertion` is the one node-saml verified.
 */
export function checkAssertion(input: {
  response: XmlElement | undefined;
  assertion: XmlElement;
  idpEntityId: string;
  callbackUrl: string;
  requestId: string;
  nowMs: number;
}): CheckedAssertion {
  const { response, assertion, idpEntityId, callbackUrl, requestId, nowMs } = input;

  if (text(child(assertion, 'Issuer')) !== idpEntityId) throw refuse('issuer');
  const responseIssuer = text(child(response, 'Issuer'));
  if (responseIssuer !== undefined && responseIssuer !== idpEntityId) throw refuse('issuer');

  const destination = attr(response, 'Destination');
  if (destination !== undefined && destination !== callbackUrl) throw refuse('destination');
  if (attr(response, 'InResponseTo') !== requestId) throw refuse('unsolicited');

  // The Web SSO profile's bearer confirmation carries, inside the signed assertion, the ACS it was
  // issued for, the request it answers and its deadline; one of them must fit all three.
  const confirmations = children(child(assertion, 'Subject'), 'SubjectConfirmation')
    .filter((c) => attr(c, 'Method') === BEARER)
    .map((c) => child(c, 'SubjectConfirmationData'));
  const forUs = confirmations.filter((data) => attr(data, 'Recipient') === callbackUrl);
  if (forUs.length === 0) throw refuse('destination');
  const answering = forUs.filter((data) => attr(data, 'InResponseTo') === requestId);
  if (answering.length === 0) throw refuse('unsolicited');

  const issuedMs = timeOf(attr(assertion, 'IssueInstant'));
  if (issuedMs === undefined) throw refuse('signature');
  const conditions = child(assertion, 'Conditions');
  const notBeforeMs = timeOf(attr(conditions, 'NotBefore'));
  const confirmationEnds = answering.map((data) => timeOf(attr(data, 'NotOnOrAfter')) ?? Infinity);
  const ends = [
    Math.max(...confirmationEnds),
    timeOf(attr(conditions, 'NotOnOrAfter')) ?? Infinity,
    issuedMs + SAML_MAX_ASSERTION_AGE_MS,
  ];
  const endMs = Math.min(...ends);
  if (notBeforeMs !== undefined && nowMs + SAML_CLOCK_SKEW_MS < notBeforeMs) throw refuse('expired');
  if (nowMs + SAML_CLOCK_SKEW_MS < issuedMs) throw refuse('expired');
  if (nowMs - SAML_CLOCK_SKEW_MS >= endMs) throw refuse('expired');

  const id = attr(assertion, 'ID');
  if (!id) throw refuse('signature');
  return { id, acceptableUntilMs: endMs + SAML_CLOCK_SKEW_MS };
}

function timeOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
