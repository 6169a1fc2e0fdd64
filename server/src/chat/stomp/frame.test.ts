import { describe, expect, it } from 'vitest';
import {
  FrameParser,
  StompFrameError,
  escapeHeader,
  header,
  serializeFrame,
  unescapeHeader,
  type FrameLimits,
} from './frame.js';

const small: FrameLimits = { maxFrameBytes: 1024, maxHeaders: 4, maxHeaderLineBytes: 100 };

function parseAll(text: string | Buffer, limits?: FrameLimits) {
  return new FrameParser(limits).push(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof StompFrameError) return err.code;
    throw err;
  }
  return undefined;
}

describe('STOMP frame codec', () => {
  it('parses command, headers and body up to NUL', () => {
    const { frames } = parseAll('SEND\ndestination:/app/x\nreceipt:7\n\nhello\0');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.command).toBe('SEND');
    expect(header(frames[0]!, 'destination')).toBe('/app/x');
    expect(header(frames[0]!, 'receipt')).toBe('7');
    expect(frames[0]!.body.toString()).toBe('hello');
  });

  it('accepts CRLF line endings and heart-beat EOLs between frames', () => {
    const result = parseAll('\n\r\nSEND\r\ndestination:/a\r\n\r\nx\0\n\nDISCONNECT\n\n\0\r\n');
    expect(result.frames.map((f) => f.command)).toEqual(['SEND', 'DISCONNECT']);
    expect(header(result.frames[0]!, 'destination')).toBe('/a');
    expect(result.heartbeats).toBe(5);
  });

  it('keeps the first of repeated headers and does not trim values (1.2)', () => {
    const { frames } = parseAll('SEND\ndestination: /a \ndestination:/b\n\n\0');
    expect(header(frames[0]!, 'destination')).toBe(' /a ');
  });

  it('honours content-length so the body may contain NUL', () => {
    const body = Buffer.from('a\0b\0c');
    const frame = serializeFrame('SEND', { destination: '/a' }, body);
    const { frames } = parseAll(frame);
    expect(frames[0]!.body.equals(body)).toBe(true);
    expect(header(frames[0]!, 'content-length')).toBe('5');
  });

  it('rejects a body longer than content-length', () => {
    expect(codeOf(() => parseAll('SEND\ndestination:/a\ncontent-length:1\n\nab\0'))).toBe('missing-nul');
    expect(codeOf(() => parseAll('SEND\ndestination:/a\ncontent-length:-1\n\nab\0'))).toBe(
      'bad-content-length',
    );
  });

  it('reassembles a frame split across messages and several frames in one message', () => {
    const parser = new FrameParser();
    const bytes = Buffer.concat([
      serializeFrame('SEND', { destination: '/a' }, 'one'),
      serializeFrame('SEND', { destination: '/b' }, 'two'),
    ]);
    const cut = 9;
    expect(parser.push(bytes.subarray(0, cut)).frames).toHaveLength(0);
    expect(parser.pending).toBe(cut);
    const { frames } = parser.push(bytes.subarray(cut));
    expect(frames.map((f) => f.body.toString())).toEqual(['one', 'two']);
    expect(parser.pending).toBe(0);
  });

  it('escapes and unescapes header values (1.2), except in CONNECT and CONNECTED', () => {
    const value = 'a:b\nc\\d\re';
    expect(escapeHeader(value, '1.2')).toBe('a\\cb\\nc\\\\d\\re');
    expect(unescapeHeader(escapeHeader(value, '1.2'), '1.2')).toBe(value);
    const sent = serializeFrame('MESSAGE', { destination: '/user/queue/chat/1:2', note: value }, '');
    expect(sent.toString()).toContain('destination:/user/queue/chat/1\\c2\n');
    const { frames } = parseAll(sent);
    expect(header(frames[0]!, 'note')).toBe(value);
    expect(header(frames[0]!, 'destination')).toBe('/user/queue/chat/1:2');

    const connect = serializeFrame('CONNECT', { passcode: 'a\\c' }, '');
    expect(connect.toString()).toContain('passcode:a\\c\n');
    expect(header(parseAll(connect).frames[0]!, 'passcode')).toBe('a\\c');
  });

  it('treats an undefined escape sequence as a protocol error', () => {
    expect(codeOf(() => parseAll('SEND\ndestination:/a\\t\n\n\0'))).toBe('bad-escape');
    expect(codeOf(() => unescapeHeader('x\\', '1.2'))).toBe('bad-escape');
    // 1.1 has no \r escape.
    expect(codeOf(() => unescapeHeader('x\\r', '1.1'))).toBe('bad-escape');
    expect(unescapeHeader('x\\r', '1.0')).toBe('x\\r');
  });

  it('rejects unknown commands and header lines without a colon', () => {
    expect(codeOf(() => parseAll('HELLO\n\n\0'))).toBe('unknown-command');
    expect(codeOf(() => parseAll('send\n\n\0'))).toBe('unknown-command');
    expect(codeOf(() => parseAll('SEND\nnocolon\n\n\0'))).toBe('malformed-header');
    expect(codeOf(() => parseAll('SEND\n:value\n\n\0'))).toBe('malformed-header');
  });

  it('enforces frame size, header count and header line limits', () => {
    expect(codeOf(() => parseAll(`SEND\ndestination:/a\n\n${'x'.repeat(2000)}\0`, small))).toBe(
      'frame-too-large',
    );
    // Also while the frame is still incomplete, so a slow sender cannot make us buffer without bound.
    expect(codeOf(() => parseAll(`SEND\ndestination:/a\n\n${'x'.repeat(2000)}`, small))).toBe(
      'frame-too-large',
    );
    expect(codeOf(() => parseAll(`SEND\ncontent-length:5000\n\n`, small))).toBe('frame-too-large');
    expect(codeOf(() => parseAll('SEND\na:1\nb:2\nc:3\nd:4\ne:5\n\n\0', small))).toBe('too-many-headers');
    expect(parseAll('SEND\na:1\nb:2\nc:3\nd:4\n\n\0', small).frames).toHaveLength(1);
    expect(codeOf(() => parseAll(`SEND\nx:${'y'.repeat(200)}\n\n\0`, small))).toBe('header-line-too-long');
  });

  it('serializes with content-length and a NUL terminator', () => {
    const bytes = serializeFrame('MESSAGE', { 'message-id': '1' }, 'héllo');
    expect(bytes.toString()).toBe('MESSAGE\nmessage-id:1\ncontent-length:6\n\nhéllo\0');
  });
});
