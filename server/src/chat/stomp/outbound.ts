import { serializeFrame, type StompVersion } from './frame.js';

type Headers = Array<readonly [string, string]>;

/** Header values we write from free text (error messages): one line, no NUL, at most 200 chars. */
export function sanitizeHeaderValue(text: string): string {
  return text.replace(/[\r\n\0]+/g, ' ').slice(0, 200);
}

export function connectedFrame(
  version: StompVersion,
  heartBeat: { outgoing: number; incoming: number },
  serverName: string,
  sessionId: string,
): Buffer {
  return serializeFrame(
    'CONNECTED',
    {
      version,
      'heart-beat': `${heartBeat.outgoing},${heartBeat.incoming}`,
      server: serverName,
      session: sessionId,
    },
    '',
    { version },
  );
}

/** Spec: the ERROR for a CONNECT offering no version we speak lists the ones we do. */
export function unsupportedVersionFrame(supported: readonly StompVersion[]): Buffer {
  const list = supported.join(',');
  return serializeFrame(
    'ERROR',
    {
      version: list,
      'content-type': 'text/plain',
      message: 'Supported protocol versions are ' + list,
    },
    '',
    { version: '1.0' },
  );
}

export function messageFrame(
  version: StompVersion,
  message: {
    subscription: string;
    messageId: string;
    destination: string;
    contentType: string;
    /** The ack id, for subscriptions that are not `ack: auto`. */
    ack?: string;
  },
  body: string,
): Buffer {
  const headers: Headers = [
    ['subscription', message.subscription],
    ['message-id', message.messageId],
    ['destination', message.destination],
    ['content-type', message.contentType],
  ];
  if (message.ack !== undefined) headers.push(['ack', message.ack]);
  return serializeFrame('MESSAGE', headers, body, { version });
}

export function receiptFrame(version: StompVersion, receipt: string): Buffer {
  return serializeFrame('RECEIPT', [['receipt-id', receipt]], '', { version });
}

/** ERROR with the message header, the refused frame's receipt id and the detail as a text body. */
export function errorFrame(
  version: StompVersion,
  message: string,
  detail: string | undefined,
  receipt: string | undefined,
): Buffer {
  const headers: Headers = [['message', sanitizeHeaderValue(message)]];
  if (receipt !== undefined) headers.push(['receipt-id', receipt]);
  const body = detail ?? '';
  if (body) headers.push(['content-type', 'text/plain']);
  return serializeFrame('ERROR', headers, body, { version });
}
