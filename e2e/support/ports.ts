export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? 3199);
export const BASE_URL = `http://localhost:${APP_PORT}`;
