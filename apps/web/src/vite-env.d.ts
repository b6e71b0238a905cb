/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_PRODUCT_NAME?: string;
  readonly VITE_SOURCE_URL?: string;
  readonly VITE_WIKI_URL?: string;
  readonly VITE_FAQ_URL?: string;
  readonly VITE_QUICKSTART_URL?: string;
  readonly VITE_CHAT_URL?: string;
  readonly VITE_CHAT_BOT_URL?: string;
  readonly VITE_TELEMETRY_CHANNEL_URL?: string;
  readonly VITE_SOCIAL_URL?: string;
  readonly VITE_DONATE_URL?: string;
  readonly VITE_CONTACT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
