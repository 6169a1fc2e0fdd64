/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API (build setting). Empty = same origin as the web app. */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
