/** The platform's `fetch` (Node's on the server, the DOM's in the web app; the contract has neither). */
type Fetch = typeof globalThis extends { fetch: infer F } ? F : never;

/**
 * The interface between the server and the web app's server renderer (web/src/ssr/entry-server.tsx,
 * loaded by server/src/web/renderer.ts): one page render in, its markup and query state out.
 */
export interface PageRenderInput {
  /** Path and query of the page. */
  url: string;
  /** The student's token from the `cm_token` cookie (null: logged out). */
  token: string | null;
  /** Answers the app's GET API calls in-process, as the student. */
  fetch: Fetch;
  /** Told of an error inside the render (the part it hit is left to the browser to render). */
  onError?: (error: unknown) => void;
  /**
   * The campus's IANA time zone (CAMPUS_TIMEZONE): times are drawn in it, as most students' phones
   * will draw them. Absent: the server process's own zone.
   */
  timeZone?: string;
}

export interface PageRenderOutput {
  /** Markup for `<div id="root">`. */
  html: string;
  /** Dehydrated query state (JSON), for the browser's cache before hydration. */
  state: string;
}

/** The renderer's entry point: null when the browser should render the page itself. */
export type PageRender = (input: PageRenderInput) => Promise<PageRenderOutput | null>;
