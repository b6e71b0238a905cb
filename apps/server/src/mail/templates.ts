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
}): MailContent {
  const lines = [
    `Please confirm that ${input.email} is your e-mail address for ${input.productName}.`,
    `Open the link below to validate it. It works once and for ${input.validHours} hours.`,
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
