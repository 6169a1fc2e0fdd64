import type { NotificationKind } from '@campus/contract';
import mjml2html from 'mjml';
import type { MailMessage } from '../mail/index.js';
import { escapeHtml } from '../http/html.js';

export interface NotificationMailInput {
  to: string;
  firstName: string;
  campusName: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** Absolute URL the button opens. */
  actionUrl: string;
  actionLabel: string;
  /** Why the student gets this e-mail ("offers on your listings"). */
  reason: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}

const GREEN = '#18453b';

/**
 * A notification e-mail: MJML renders the table layout that Gmail and Outlook (MSO conditionals
 * included) display as intended, with a bulletproof button. The text part says the same, and the
 * List-Unsubscribe headers make it one-click unsubscribable (RFC 8058).
 */
export async function notificationMail(input: NotificationMailInput): Promise<MailMessage> {
  const product = `${input.campusName} Campus Market`;
  const e = escapeHtml;
  const source = `<mjml lang="en">
  <mj-head>
    <mj-title>${e(input.title)}</mj-title>
    <mj-preview>${e(input.body)}</mj-preview>
    <mj-attributes>
      <mj-all font-family="-apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif" />
      <mj-text color="#1c2b25" font-size="16px" line-height="1.5" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f6f5" width="520px">
    <mj-section padding="24px 0 8px">
      <mj-column>
        <mj-text font-size="14px" font-weight="700" color="${GREEN}" letter-spacing="0.02em">${e(product)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="16px" padding="24px 8px">
      <mj-column>
        <mj-text>Hi ${e(input.firstName)},</mj-text>
        <mj-text font-size="20px" font-weight="700" color="${GREEN}" padding-top="0">${e(input.title)}</mj-text>
        <mj-text padding-top="0">${e(input.body)}</mj-text>
        <mj-button href="${e(input.actionUrl)}" background-color="${GREEN}" color="#ffffff" font-size="16px" font-weight="600" border-radius="10px" inner-padding="14px 28px" align="left">${e(input.actionLabel)}</mj-button>
      </mj-column>
    </mj-section>
    <mj-section padding="16px 8px">
      <mj-column>
        <mj-text font-size="13px" color="#5b6b65">You get this e-mail because ${e(input.reason)} is switched on for your ${e(product)} account.
          <a href="${e(input.unsubscribeUrl)}" style="color:${GREEN}">Unsubscribe from these e-mails</a>
          or <a href="${e(input.settingsUrl)}" style="color:${GREEN}">choose which e-mails you get</a>.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const { html, errors } = await mjml2html(source, { validationLevel: 'strict' });
  if (errors.length > 0) throw new Error(`mjml: ${errors.map((x) => x.formattedMessage).join('; ')}`);
  const text = [
    `Hi ${input.firstName},`,
    '',
    input.title,
    '',
    input.body,
    '',
    `${input.actionLabel}: ${input.actionUrl}`,
    '',
    `You get this e-mail because ${input.reason} is switched on for your ${product} account.`,
    `Unsubscribe from these e-mails: ${input.unsubscribeUrl}`,
    `Choose which e-mails you get: ${input.settingsUrl}`,
    '',
    `— ${product}`,
  ].join('\n');
  return {
    to: input.to,
    subject: input.title,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
