// Text and HTML bodies of the mails the server sends. Both parts carry the same link so that
// plain-text mail readers work; the HTML escapes everything it interpolates.
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function htmlPage(
  productName: string,
  paragraphs: string[],
  link: { url: string; label: string },
): string {
  const p = paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n    ');
  return `<!doctype html>
<html>
  <body style="font-family: sans-serif; line-height: 1.5">
    <h2>${escapeHtml(productName)}</h2>
    ${p}
    <p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
    <p style="color: #666; font-size: 0.9em">${escapeHtml(link.url)}</p>
  </body>
</html>
`;
}

export function loginLinkMail(input: {
  productName: string;
  url: string;
  validMinutes: number;
}): MailContent {
  const lines = [
    `Someone (hopefully you) asked to log in to ${input.productName} with this e-mail address.`,
    `Open the link below to log in. It works once and for ${input.validMinutes} minutes.`,
    'If you did not ask for it, ignore this message: nobody can log in without the link.',
  ];
  return {
    subject: `Your ${input.productName} login link`,
    text: `${lines.join('\n\n')}\n\n${input.url}\n`,
    html: htmlPage(input.productName, lines, {
      url: input.url,
      label: `Log in to ${input.productName}`,
    }),
  };
}

export function emailValidationMail(input: {
  productName: string;
  url: string;
  email: string;
  validHours: number;
  /** true when the address is to replace the login address */
  change: boolean;
}): MailContent {
  const lines = [
    `Please confirm that ${input.email} is your e-mail address for ${input.productName}.`,
    `Open the link below to validate it. It works once and for ${input.validHours} hours.`,
    ...(input.change
      ? [
          'Once you open it, this address becomes your login address and every other session of your account is logged out. Until then you log in with your current address.',
        ]
      : []),
    'If you did not change your e-mail settings, ignore this message.',
  ];
  return {
    subject: `Validate your ${input.productName} e-mail address`,
    text: `${lines.join('\n\n')}\n\n${input.url}\n`,
    html: htmlPage(input.productName, lines, {
      url: input.url,
      label: 'Validate my e-mail address',
    }),
  };
}

/** To the current login address when a change to another one is asked for, and when it is made. */
export function emailChangeNoticeMail(input: {
  productName: string;
  publicUrl: string;
  newEmail: string;
  stage: 'requested' | 'made';
}): MailContent {
  const lines =
    input.stage === 'requested'
      ? [
          `Someone logged in to your ${input.productName} account asked to change its login address from this address to ${input.newEmail}.`,
          `Nothing changes until the link sent to ${input.newEmail} is opened; until then you log in with this address.`,
          'If it was not you: log in with this address, save this address again in the e-mail preferences of the User Console (that cancels the change) and use Log out everywhere.',
        ]
      : [
          `The login address of your ${input.productName} account is now ${input.newEmail}. Every other session of the account was logged out.`,
          'If it was not you: ask the chat bot for a login link to this address (/weblogin), which makes it the login address again, then use Log out everywhere; or write to the operators.',
        ];
  return {
    subject:
      input.stage === 'requested'
        ? `Change of your ${input.productName} login address requested`
        : `Your ${input.productName} login address was changed`,
    text: `${lines.join('\n\n')}\n\n${input.publicUrl}/\n`,
    html: htmlPage(input.productName, lines, {
      url: `${input.publicUrl}/`,
      label: `Open ${input.productName}`,
    }),
  };
}

/** A duration as people say it: 45 min, 2 h 5 min, 3 d 4 h. */
export function spokenDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

const utcTime = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface AlertStation {
  name: string;
  /** the station page */
  url: string;
  /** when it went offline */
  since: number;
  /** when it came back (back notes) */
  back?: number;
}

/**
 * Offline alerts: one mail for the stations of one owner found offline in one round, and one for
 * those found back. Station names are the owner's own text: escaped in the HTML like all else.
 */
export function offlineAlertMail(input: {
  productName: string;
  /** the User Console, where the alerts are switched off */
  consoleUrl: string;
  stations: readonly AlertStation[];
  kind: 'offline' | 'back';
  now: number;
  /** set when this alert used up the owner's alerts of the day */
  lastOfDay?: number;
}): MailContent & { chat: string } {
  const { productName, stations, now } = input;
  const lines = stations.map((s) =>
    input.kind === 'offline'
      ? `Station ${s.name} has been offline since ${utcTime(s.since)} (${spokenDuration(now - s.since)}).`
      : `Station ${s.name} is back online since ${utcTime(s.back ?? now)}, after ${spokenDuration((s.back ?? now) - s.since)} offline.`,
  );
  const footer = [
    ...(input.kind === 'offline'
      ? [
          stations.length === 1
            ? 'You will get one more message when it is back online.'
            : 'You will get one more message when each of them is back online.',
        ]
      : []),
    ...(input.lastOfDay !== undefined
      ? [
          `This is your last offline alert today (at most ${input.lastOfDay} a day); outages beginning later today are not alerted.`,
        ]
      : []),
    'You get this because offline alerts are switched on in the e-mail preferences of your User Console, where you can switch them off.',
  ];
  const first = stations[0];
  const single = stations.length === 1 && first ? first : null;
  const subject =
    input.kind === 'offline'
      ? single
        ? `${productName}: station ${single.name} is offline`
        : `${productName}: ${stations.length} of your stations are offline`
      : single
        ? `${productName}: station ${single.name} is back online`
        : `${productName}: ${stations.length} of your stations are back online`;
  const link = single
    ? { url: single.url, label: `Open ${single.name}` }
    : { url: input.consoleUrl, label: 'Open your User Console' };
  const all = [...lines, ...footer];
  return {
    subject,
    text: `${all.join('\n\n')}\n\n${link.url}\n`,
    html: htmlPage(productName, all, link),
    chat: `${subject}\n\n${lines.join('\n')}\n${link.url}`,
  };
}
