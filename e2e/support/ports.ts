/**
 * One test server per Playwright worker, each with its own database and mail capture, so journeys
 * running side by side never see each other's listings, counts or mail. Worker n (Playwright's
 * TEST_PARALLEL_INDEX, 0-based, also set when this file is loaded in a worker) uses server n.
 */
export const SERVERS = Number(process.env.E2E_WORKERS ?? 2);
const APP_PORT_BASE = Number(process.env.E2E_APP_PORT ?? 3100);
const MAIL_PORT_BASE = Number(process.env.E2E_MAIL_PORT ?? 3199);

export const appPort = (server: number) => APP_PORT_BASE + server;
export const mailPort = (server: number) => MAIL_PORT_BASE - server;

/** The server this process talks to: its worker's, or the one named by E2E_SERVER (serve.ts). */
const server = Number(process.env.E2E_SERVER ?? process.env.TEST_PARALLEL_INDEX ?? 0);
export const APP_PORT = appPort(server);
export const MAIL_PORT = mailPort(server);
export const BASE_URL = `http://localhost:${APP_PORT}`;
