import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every header, lower-case names, as sent (List-Unsubscribe…). */
  mailHeaders?: Map<string, string>;
}

/** A real SMTP server on a random local port that keeps every message it receives. */
export class MailCapture {
  readonly messages: CapturedMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
            this.messages.push({
              to: (to ?? '').toLowerCase(),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              mailHeaders: new Map(
                mail.headerLines.map((h) => [
                  h.key,
                  h.line
                    .slice(h.key.length + 1)
                    .replace(/\r?\n[ \t]+/g, ' ')
                    .trim(),
                ]),
              ),
            });
            this.waiters.splice(0).forEach((w) => w());
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for the newest message to `to` (after `afterCount` messages to them) and returns it. */
  async waitFor(to: string, afterCount = 0, timeoutMs = 5000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = this.messages.filter((m) => m.to.includes(to.toLowerCase()));
      if (mine.length > afterCount) return mine[mine.length - 1]!;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  count(to: string): number {
    return this.messages.filter((m) => m.to.includes(to.toLowerCase())).length;
  }
}

/** The 6-digit code as a person reads it from the e-mail body. */
export function codeFrom(mail: CapturedMail): number {
  const m = /\b(\d{6})\b/.exec(mail.text);
  if (!m) throw new Error(`no code in mail: ${mail.text}`);
  return Number(m[1]);
}
