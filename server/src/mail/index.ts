/**
 * The mail module's front door: what other modules and the wiring use. E-mail is always queued in
 * the caller's transaction (`enqueueMail`), never sent inline.
 */
export { createMailer, type Mailer, type MailMessage } from './mailer.js';
export { enqueueMail, registerMailJobs } from './jobs.js';
export { loginCodeMail, resetMail, verificationMail } from './templates.js';
export { outboxRoutes } from './outbox-routes.js';
