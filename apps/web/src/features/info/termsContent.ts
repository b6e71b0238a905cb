// Text of the Terms page (SPEC.md section 2, "Terms page text"). Kept apart from the layout so
// it can be reviewed and changed without touching code.
import { LINKS, PRODUCT_NAME } from '../../config/site';

export interface TermsSection {
  id: string;
  title: string;
  paragraphs: string[];
}

export const TERMS_UPDATED = '1 January 2025';

export const TERMS_SECTIONS: TermsSection[] = [
  {
    id: 'data-collected',
    title: 'Data we collect',
    paragraphs: [
      `To run a station on ${PRODUCT_NAME} we keep your user id from the chat platform, the name you chose there, the e-mail address you register for web login, and your newsletter preference.`,
      'For every station we keep its name, the location you enter, its configuration, its firmware version, its connection status, the local IP address it reports (shown only to you), and every packet it receives together with the reception parameters (signal strength, signal-to-noise ratio, frequency error, time of reception).',
      'The web site stores your user id, session token and a few display preferences in your browser so that you stay logged in. It sets no advertising or tracking cookies.',
    ],
  },
  {
    id: 'images',
    title: 'Images',
    paragraphs: [
      'Pictures you upload for a station must be your own or used with permission, and must show the station, its antenna or its surroundings. They are checked by a moderator before they are shown to other visitors; pending pictures are visible only to you.',
      'By uploading a picture you allow us to show it on the station page, on the home page and in material about the network, always credited to the station.',
      'Pictures showing people who have not agreed, vehicle number plates, or anything offensive are removed.',
    ],
  },
  {
    id: 'data-deletion',
    title: 'Data deletion',
    paragraphs: [
      "You can delete a station from its page while it is offline. Its configuration and pictures are deleted at once; packets it received stay in the archive without the station name, because they are part of other stations' and satellite teams' records.",
      `To delete your account and everything linked to it, write to us at ${LINKS.contactEmail} from your registered e-mail address or contact the team in the chat group. We answer within 30 days, as the General Data Protection Regulation requires.`,
    ],
  },
  {
    id: 'real-time-data',
    title: 'Real-time data requirement',
    paragraphs: [
      'Stations must forward what they receive as they receive it, with their clock synchronised by NTP. Delayed, replayed, edited or invented packets corrupt the positions, Doppler figures and statistics that satellite teams rely on.',
      'Stations that send fabricated or manipulated data, or that are configured to look like several stations, are disabled without notice.',
    ],
  },
  {
    id: 'data-licence',
    title: 'Data licence',
    paragraphs: [
      'Packets, decoded telemetry and station statistics published on this site are open data, available under the Creative Commons Attribution 4.0 International licence (CC BY 4.0). You may reuse them for any purpose, including research and commercial work, if you credit the network.',
      'Satellite descriptions, images and telemetry templates belong to their satellite teams and are shown with their permission.',
    ],
  },
  {
    id: 'chat-rules',
    title: 'Chat rules',
    paragraphs: [
      'The chat group is where the community helps each other. Be kind and patient: everyone was new once. Use English in the main group so that everyone can follow.',
      "No advertising, spam, politics, religion or illegal content; no sharing of other people's personal data; no bulk private messages to members. Keep long logs and screenshots short or link to them.",
      'Moderators may remove messages and members who break these rules. Their decisions are final.',
    ],
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    paragraphs: [
      `${PRODUCT_NAME} is a volunteer project offered as it is, without warranty of any kind. We do our best to keep it running, but the service, the data and the firmware may be interrupted, wrong or changed at any time.`,
      "You are responsible for your station: for complying with the radio regulations of your country, for holding a licence before enabling transmission, and for installing antennas and equipment safely. Transmission is disabled unless you allow it in your station's settings.",
      'We are not liable for any damage arising from the use of the site, the data or the firmware, as far as the law allows.',
    ],
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    paragraphs: [
      'These terms are governed by the laws of Spain and the applicable law of the European Union, including the General Data Protection Regulation. Any dispute is subject to the courts of Spain, without prejudice to the rights consumers have in their country of residence.',
    ],
  },
  {
    id: 'station-software-licence',
    title: 'Station software licence',
    paragraphs: [
      'The station firmware and this web application are free software released under the GNU General Public License, version 3 or later. You may study, change and share them under that licence; the full source code is published in the project repository.',
      'Modified firmware may connect to the network only if it keeps the data format and the real-time requirement above, and reports a version that identifies it as modified.',
    ],
  },
  {
    id: 'contact',
    title: 'Contact',
    paragraphs: [
      `Questions about these terms or your data: ${LINKS.contactEmail}. For everything else, the community chat group is the fastest way to reach the team.`,
    ],
  },
];
