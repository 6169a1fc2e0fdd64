import type { MailMessage } from '../mail/mailer.js';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The seller's e-mail when a moderator removes their listing: what, and why. */
export function listingRemovedMail(input: {
  to: string;
  firstName: string;
  listingName: string;
  reason: string;
  campusName: string;
  publicUrl: string;
}): MailMessage {
  const product = `${input.campusName} Campus Market`;
  const text = [
    `Hi ${input.firstName},`,
    '',
    `A moderator removed your listing "${input.listingName}". It no longer shows to anyone.`,
    '',
    `Reason: ${input.reason}`,
    '',
    `If you think this is a mistake, reply to this e-mail. Your other listings are not affected.`,
    `${input.publicUrl}/mine`,
    '',
    `— ${product}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1c2b25">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:480px;background:#fff;border-radius:16px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:14px;font-weight:700;color:#18453b">${escapeHtml(product)}</td></tr>
<tr><td style="padding-top:16px;font-size:16px">Hi ${escapeHtml(input.firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">A moderator removed your listing <strong>${escapeHtml(input.listingName)}</strong>. It no longer shows to anyone.</td></tr>
<tr><td style="padding:16px 0;font-size:16px;line-height:1.5"><strong>Reason:</strong> ${escapeHtml(input.reason)}</td></tr>
<tr><td style="font-size:14px;color:#4a5a54;line-height:1.5">If you think this is a mistake, reply to this e-mail. Your other listings are not affected.</td></tr>
</table></td></tr></table></body></html>`;
  return { to: input.to, subject: `Your listing "${input.listingName}" was removed`, text, html };
}
