/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SITE_URL?: string;
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_SOCIAL_NETWORK?: string;
  readonly VITE_SOCIAL_HANDLE?: string;
  readonly VITE_SOCIAL_URL?: string;
  /** The controller's legal name, e.g. "Mandje B.V." or a sole trader's name. */
  readonly VITE_CONTROLLER_NAME?: string;
  /** The controller's postal address, on one line. */
  readonly VITE_CONTROLLER_ADDRESS?: string;
  /** The controller's Chamber of Commerce (KvK) number, when it has one. */
  readonly VITE_CONTROLLER_KVK?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
