import DOMPurify from 'dompurify';

/**
 * HTML from satellite teams (long descriptions, telemetry templates) is cleaned before it reaches
 * the page: no script, no event handlers, no javascript: URLs. <style> would restyle the whole
 * site and <form> could phish, so both go too.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form'] });
}
