/**
 * STOMP 1.2 frame codec (https://stomp.github.io/stomp-specification-1.2.html), also speaking the
 * 1.0 and 1.1 header rules once a session has negotiated them.
 *
 *   frame   = command EOL *(header EOL) EOL *OCTET NUL *(EOL)
 *   EOL     = [CR] LF
 *
 * The parser is incremental: it takes the bytes of each WebSocket message, keeps an unfinished
 * frame until the rest arrives, and yields every complete frame. EOLs between frames are
 * heart-beats. Every limit violation throws a StompFrameError, after which the session sends
 * ERROR and closes (the stream cannot be resynchronised).
 */

export type StompVersion = '1.0' | '1.1' | '1.2';

export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'ACK',
  'NACK',
  'DISCONNECT',
] as const;
export const SERVER_COMMANDS = ['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR'] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
export type ServerCommand = (typeof SERVER_COMMANDS)[number];
export type Command = ClientCommand | ServerCommand;

/** Header names and values in wire order; repeated names are kept, the first one wins on lookup. */
export type HeaderList = Array<readonly [string, string]>;

export interface Frame {
  command: Command;
  headers: HeaderList;
  body: Buffer;
}

export interface FrameLimits {
  /** Whole frame, command line to NUL, in bytes. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** One header line (or the command line) in bytes, before unescaping. */
  maxHeaderLineBytes: number;
}

export const DEFAULT_LIMITS: FrameLimits = {
  maxFrameBytes: 64 * 1024,
  maxHeaders: 32,
  maxHeaderLineBytes: 8 * 1024,
};

export type FrameErrorCode =
  | 'frame-too-large'
  | 'too-many-headers'
  | 'header-line-too-long'
  | 'unknown-command'
  | 'malformed-header'
  | 'bad-escape'
  | 'bad-content-length'
  | 'missing-nul';

export class StompFrameError extends Error {
  override readonly name = 'StompFrameError';
  constructor(
    readonly code: FrameErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const COLON = 0x3a;

const KNOWN_COMMANDS: ReadonlySet<string> = new Set<string>([...CLIENT_COMMANDS, ...SERVER_COMMANDS]);

/** CONNECT and CONNECTED never escape their headers (spec: "Value Encoding"). */
function escapes(command: string, version: StompVersion): boolean {
  return version !== '1.0' && command !== 'CONNECT' && command !== 'CONNECTED' && command !== 'STOMP';
}

export function escapeHeader(text: string, version: StompVersion): string {
  if (version === '1.0') return text;
  let out = '';
  for (const ch of text) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case '\n':
        out += '\\n';
        break;
      case ':':
        out += '\\c';
        break;
      case '\r':
        // 1.1 has no \r escape; a raw CR there would end the line, so drop it.
        out += version === '1.2' ? '\\r' : '';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Undefined escape sequences are a fatal protocol error (spec: "Value Encoding"). */
export function unescapeHeader(text: string, version: StompVersion): string {
  if (version === '1.0' || !text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[++i];
    if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else if (next === '\\') out += '\\';
    else if (next === 'r' && version === '1.2') out += '\r';
    else throw new StompFrameError('bad-escape', `Undefined escape sequence \\${next ?? ''} in a header`);
  }
  return out;
}

export function header(frame: Pick<Frame, 'headers'>, name: string): string | undefined {
  for (const [k, v] of frame.headers) if (k === name) return v;
  return undefined;
}

/** Headers as a record, first occurrence winning (spec: "Repeated Header Entries"). */
export function headerRecord(headers: HeaderList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

export interface SerializeOptions {
  version: StompVersion;
  /** Adds content-length when the body is not empty (default true). */
  contentLength?: boolean;
}

export function serializeFrame(
  command: Command,
  headers: Record<string, string | number> | HeaderList,
  body: Buffer | string = '',
  options: SerializeOptions = { version: '1.2' },
): Buffer {
  const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const escape = escapes(command, options.version);
  const list: Array<readonly [string, string]> = Array.isArray(headers)
    ? headers
    : Object.entries(headers).map(([k, v]) => [k, String(v)] as const);
  let head = command + '\n';
  let hasLength = false;
  for (const [k, v] of list) {
    if (k === 'content-length') hasLength = true;
    head += escape
      ? `${escapeHeader(k, options.version)}:${escapeHeader(v, options.version)}\n`
      : `${k}:${v}\n`;
  }
  if (!hasLength && options.contentLength !== false && bodyBytes.length > 0) {
    head += `content-length:${bodyBytes.length}\n`;
  }
  head += '\n';
  const headBytes = Buffer.from(head, 'utf8');
  const out = Buffer.allocUnsafe(headBytes.length + bodyBytes.length + 1);
  headBytes.copy(out, 0);
  bodyBytes.copy(out, headBytes.length);
  out[out.length - 1] = NUL;
  return out;
}

export interface ParseResult {
  frames: Frame[];
  /** EOLs seen outside frames (heart-beats). */
  heartbeats: number;
}

/**
 * Incremental parser. `version` decides header unescaping and may be changed once the session has
 * negotiated it (CONNECT/STOMP/CONNECTED headers are never unescaped).
 */
export class FrameParser {
  version: StompVersion = '1.2';
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly limits: FrameLimits = DEFAULT_LIMITS) {}

  /** Bytes held for an unfinished frame. */
  get pending(): number {
    return this.buffer.length;
  }

  push(chunk: Buffer): ParseResult {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Frame[] = [];
    let heartbeats = 0;
    let pos = 0;
    const buf = this.buffer;
    for (;;) {
      // Heart-beat EOLs between frames.
      while (pos < buf.length) {
        if (buf[pos] === LF) {
          pos++;
          heartbeats++;
        } else if (buf[pos] === CR && pos + 1 < buf.length && buf[pos + 1] === LF) {
          pos += 2;
          heartbeats++;
        } else break;
      }
      if (pos >= buf.length) break;
      const result = this.parseOne(buf, pos);
      if (result === null) break;
      frames.push(result.frame);
      pos = result.next;
    }
    this.buffer = pos >= buf.length ? Buffer.alloc(0) : buf.subarray(pos);
    if (this.buffer.length > this.limits.maxFrameBytes) {
      throw new StompFrameError('frame-too-large', `Frame larger than ${this.limits.maxFrameBytes} bytes`);
    }
    return { frames, heartbeats };
  }

  /** Parses one frame starting at `start`, or returns null when more bytes are needed. */
  private parseOne(buf: Buffer, start: number): { frame: Frame; next: number } | null {
    const { maxFrameBytes, maxHeaders, maxHeaderLineBytes } = this.limits;
    const lines: string[] = [];
    let pos = start;
    // Command line and header lines, up to the blank line.
    for (;;) {
      const nl = buf.indexOf(LF, pos);
      const lineEnd = nl === -1 ? buf.length : nl;
      if (lineEnd - pos > maxHeaderLineBytes) {
        throw new StompFrameError(
          'header-line-too-long',
          `A header line is longer than ${maxHeaderLineBytes} bytes`,
        );
      }
      if (nl === -1) {
        if (buf.length - start > maxFrameBytes) {
          throw new StompFrameError('frame-too-large', `Frame larger than ${maxFrameBytes} bytes`);
        }
        return null;
      }
      const end = nl > pos && buf[nl - 1] === CR ? nl - 1 : nl;
      const line = buf.toString('utf8', pos, end);
      pos = nl + 1;
      if (lines.length === 0) {
        if (!KNOWN_COMMANDS.has(line)) {
          throw new StompFrameError(
            'unknown-command',
            `Unknown command ${JSON.stringify(line.slice(0, 40))}`,
          );
        }
        lines.push(line);
        continue;
      }
      if (line.length === 0) break;
      if (lines.length > maxHeaders) {
        throw new StompFrameError('too-many-headers', `More than ${maxHeaders} headers`);
      }
      lines.push(line);
    }
    const command = lines[0] as Command;
    const escape = escapes(command, this.version);
    const headers: Array<readonly [string, string]> = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(String.fromCharCode(COLON));
      if (colon <= 0) throw new StompFrameError('malformed-header', 'A header line has no name or no colon');
      const rawName = line.slice(0, colon);
      const rawValue = line.slice(colon + 1);
      // 1.0 allowed padding around values; 1.1+ keeps them verbatim.
      const value = this.version === '1.0' ? rawValue.trim() : rawValue;
      headers.push(
        escape
          ? [unescapeHeader(rawName, this.version), unescapeHeader(value, this.version)]
          : [rawName, value],
      );
    }
    const bodyStart = pos;
    let lengthText: string | undefined;
    for (const [k, v] of headers) {
      if (k === 'content-length') {
        lengthText = v;
        break;
      }
    }
    let bodyEnd: number;
    if (lengthText !== undefined) {
      if (!/^\d{1,10}$/.test(lengthText.trim())) {
        throw new StompFrameError('bad-content-length', 'content-length is not a non-negative integer');
      }
      const length = Number(lengthText.trim());
      if (bodyStart - start + length + 1 > maxFrameBytes) {
        throw new StompFrameError('frame-too-large', `Frame larger than ${maxFrameBytes} bytes`);
      }
      if (buf.length < bodyStart + length + 1) return null;
      bodyEnd = bodyStart + length;
      if (buf[bodyEnd] !== NUL) {
        throw new StompFrameError('missing-nul', 'The body is longer than content-length says');
      }
    } else {
      const nul = buf.indexOf(NUL, bodyStart);
      if (nul === -1) {
        if (buf.length - start > maxFrameBytes) {
          throw new StompFrameError('frame-too-large', `Frame larger than ${maxFrameBytes} bytes`);
        }
        return null;
      }
      bodyEnd = nul;
    }
    if (bodyEnd + 1 - start > maxFrameBytes) {
      throw new StompFrameError('frame-too-large', `Frame larger than ${maxFrameBytes} bytes`);
    }
    // Copy so the frame does not pin the whole receive buffer.
    const body = Buffer.from(buf.subarray(bodyStart, bodyEnd));
    return { frame: { command, headers, body }, next: bodyEnd + 1 };
  }
}
