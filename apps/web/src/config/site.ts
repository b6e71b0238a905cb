// Every external address the web app links to, in one place so a deployment can change them.
import { PRODUCT_NAME_DEFAULT } from '@tinygs/contracts';

const env = import.meta.env;

export const PRODUCT_NAME: string = env.VITE_PRODUCT_NAME || PRODUCT_NAME_DEFAULT;

export const LINKS = {
  sourceCode: env.VITE_SOURCE_URL || 'https://github.com/G4lile0/tinyGS',
  wiki: env.VITE_WIKI_URL || 'https://github.com/G4lile0/tinyGS/wiki',
  faq: env.VITE_FAQ_URL || 'https://github.com/G4lile0/tinyGS/wiki/FAQ',
  quickStart: env.VITE_QUICKSTART_URL || 'https://github.com/G4lile0/tinyGS/wiki/Quick-Start',
  chatGroup: env.VITE_CHAT_URL || 'https://t.me/joinchat/DmYSElZahiJGwHX6jCzB3Q',
  chatBot: env.VITE_CHAT_BOT_URL || 'https://t.me/tinygs_personal_bot',
  telemetryChannel: env.VITE_TELEMETRY_CHANNEL_URL || 'https://t.me/tinyGS_Telemetry',
  social: env.VITE_SOCIAL_URL || 'https://twitter.com/tinygs',
  // No public donation page is known yet; the repository is the place to support the project.
  donate: env.VITE_DONATE_URL || 'https://github.com/G4lile0/tinyGS',
  contactEmail: env.VITE_CONTACT_EMAIL || 'info@tinygs.com',
} as const;

export interface TeamMember {
  name: string;
  role: string;
  bio: string;
  links: { label: string; href: string }[];
}

export const TEAM: readonly TeamMember[] = [
  {
    name: 'G4lile0',
    role: 'Founder, firmware and hardware',
    bio: 'Started the network to receive the first pocket-sized LoRa satellites and keeps the station firmware running on thousands of boards.',
    links: [{ label: 'GitHub', href: 'https://github.com/G4lile0' }],
  },
  {
    name: 'gmag11',
    role: 'Firmware and radio',
    bio: 'Works on the radio drivers, modem configuration and over-the-air updates of the ground-station firmware.',
    links: [{ label: 'GitHub', href: 'https://github.com/gmag11' }],
  },
  {
    name: '4m1g0',
    role: 'Server, web and infrastructure',
    bio: 'Built the server that collects, decodes and publishes every packet, the web site and the community bot.',
    links: [{ label: 'GitHub', href: 'https://github.com/4m1g0' }],
  },
];
