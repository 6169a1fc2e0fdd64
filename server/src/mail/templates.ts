import { LIMITS } from '@campus/contract';
import type { MailMessage } from './mailer.js';
import { escapeHtml } from '../http/html.js';

interface CodeMailInput {
  to: string;
  firstName: string;
  code: number;
  campusName: string;
  publicUrl: string;
}

type CodeKind = 'verify' | 'reset' | 'login';

const PURPOSE: Record<CodeKind, string> = {
  verify: 'Use this code to verify your university e-mail and finish signing up.',
  reset: 'Use this code to set a new password for your account.',
  login:
    'There were many failed attempts to log in to your account, so logging in now also needs this code. Enter it with your password.',
};

const IGNORE: Record<CodeKind, string> = {
  verify: 'If you did not sign up, you can ignore this e-mail: no account is created without this code.',
  reset: 'If you did not ask to reset your password, ignore this e-mail: your password stays as it is.',
  login:
    'If you did not try to log in, someone may be guessing your password: nobody can log in without this code, but consider choosing a stronger password.',
};

function codeMail(input: CodeMailInput, kind: CodeKind): MailMessage {
  const product = `${input.campusName} Campus Market`;
  const purpose = PURPOSE[kind];
  const ignore = IGNORE[kind];
  const subject =
    kind === 'verify'
      ? `${input.code} is your ${product} code`
      : kind === 'reset'
        ? `${input.code} is your ${product} password reset code`
        : `${input.code} is your ${product} login code`;
  const page =
    kind === 'verify'
      ? `verify?email=${encodeURIComponent(input.to)}`
      : kind === 'reset'
        ? 'resetPass'
        : 'login';
  const link = `${input.publicUrl}/${page}`;
  const text = [
    `Hi ${input.firstName},`,
    '',
    purpose,
    '',
    `    ${input.code}`,
    '',
    `The code is valid for ${LIMITS.codeTtlMinutes} minutes and works once.`,
    `Enter it at ${link}`,
    '',
    ignore,
    '',
    `— ${product}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1c2b25">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:480px;background:#fff;border-radius:16px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:14px;font-weight:700;color:#18453b;letter-spacing:.02em">${escapeHtml(product)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">Hi ${escapeHtml(input.firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${purpose}</td></tr>
<tr><td align="center" style="padding:24px 0"><div style="display:inline-block;font-size:36px;font-weight:700;letter-spacing:.3em;font-family:Menlo,Consolas,monospace;background:#eef5f2;color:#18453b;border-radius:12px;padding:16px 24px;user-select:all">${input.code}</div></td></tr>
<tr><td style="font-size:14px;color:#4a5a54;line-height:1.5">The code is valid for ${LIMITS.codeTtlMinutes} minutes and works once. <a href="${escapeHtml(link)}" style="color:#18453b">Enter it here</a>.</td></tr>
<tr><td style="padding-top:16px;font-size:13px;color:#6b7a74;line-height:1.5">${ignore}</td></tr>
</table></td></tr></table></body></html>`;
  // Someone is waiting on the screen for this code: it jumps the queue (mail/jobs.ts).
  return { to: input.to, subject, text, html, code: true };
}

export const verificationMail = (input: CodeMailInput) => codeMail(input, 'verify');
export const resetMail = (input: CodeMailInput) => codeMail(input, 'reset');
export const loginCodeMail = (input: CodeMailInput) => codeMail(input, 'login');
