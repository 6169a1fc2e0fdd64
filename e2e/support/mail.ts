import { expect } from '@playwright/test';
import { MAIL_PORT } from './ports.js';

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Reads the newest code e-mailed to `to`, waiting for message number `afterCount + 1`. */
export async function readCode(to: string, afterCount = 0): Promise<string> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`http://127.0.0.1:${MAIL_PORT}/?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as Mail[];
        found = list.length > afterCount ? list[list.length - 1] : undefined;
        return list.length;
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(afterCount);
  const m = /\b(\d{6})\b/.exec(found!.text);
  if (!m) throw new Error(`no code in ${found!.text}`);
  return m[1]!;
}
