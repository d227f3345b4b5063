/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SITE_URL?: string;
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_SOCIAL_NETWORK?: string;
  readonly VITE_SOCIAL_HANDLE?: string;
  readonly VITE_SOCIAL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
