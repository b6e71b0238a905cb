// Byte helpers shared by the browser and Node. Written without atob/Buffer so that both runtimes
// agree exactly on what counts as valid input (atob silently accepts missing padding and spaces).

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** 1 for the character codes of the alphabet (all below 128) */
const IN_ALPHABET = new Uint8Array(128);
for (let i = 0; i < BASE64_ALPHABET.length; i += 1) IN_ALPHABET[BASE64_ALPHABET.charCodeAt(i)] = 1;
const PAD = 61; // '='
const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * Canonical padded base64 (RFC 4648 alphabet): groups of four, the last one ending in at most two
 * `=`. The empty string is valid and holds zero bytes. (A loop rather than a pattern: the server
 * checks every reception's frame with it.)
 */
export function isBase64(text: string): boolean {
  const n = text.length;
  if (n % 4 !== 0) return false;
  let end = n;
  if (n > 0 && text.charCodeAt(n - 1) === PAD) end = text.charCodeAt(n - 2) === PAD ? n - 2 : n - 1;
  for (let i = 0; i < end; i += 1) if (IN_ALPHABET[text.charCodeAt(i)] !== 1) return false;
  return true;
}

/** Hex pairs; whitespace between digits is ignored so "01 ab FF" is accepted. */
export function isHex(text: string): boolean {
  return HEX_PATTERN.test(text.replace(/\s+/g, ''));
}

export function base64ToBytes(text: string): Uint8Array {
  if (!isBase64(text)) throw new Error('Invalid base64 string');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < text.length; i += 4) {
    let chunk = 0;
    for (let j = 0; j < 4; j += 1) {
      const ch = text[i + j] ?? '=';
      chunk = (chunk << 6) | (ch === '=' ? 0 : BASE64_ALPHABET.indexOf(ch));
    }
    for (let shift = 16; shift >= 0 && out < bytes.length; shift -= 8) {
      bytes[out] = (chunk >> shift) & 0xff;
      out += 1;
    }
  }
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] ?? 0;
    const b1 = bytes[i + 1] ?? 0;
    const b2 = bytes[i + 2] ?? 0;
    const chunk = (b0 << 16) | (b1 << 8) | b2;
    text += BASE64_ALPHABET[(chunk >> 18) & 63];
    text += BASE64_ALPHABET[(chunk >> 12) & 63];
    text += i + 1 < bytes.length ? BASE64_ALPHABET[(chunk >> 6) & 63] : '=';
    text += i + 2 < bytes.length ? BASE64_ALPHABET[chunk & 63] : '=';
  }
  return text;
}

export function hexToBytes(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (!HEX_PATTERN.test(compact)) throw new Error('Invalid hex string');
  const bytes = new Uint8Array(compact.length / 2);
  for (let i = 0; i < bytes.length; i += 1)
    bytes[i] = parseInt(compact.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Latin-1 text to bytes; characters above U+00FF cannot be sent as 8-bit ASCII and throw. */
export function latin1ToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code > 0xff) throw new Error('Character outside 8-bit range');
    bytes[i] = code;
  }
  return bytes;
}

export function bytesToLatin1(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => String.fromCharCode(b)).join('');
}

/** True when the base64 payload's bytes begin with the given ASCII text (false for bad base64). */
export function base64StartsWith(raw: string, asciiPrefix: string): boolean {
  if (!isBase64(raw)) return false;
  const bytes = base64ToBytes(raw);
  if (bytes.length < asciiPrefix.length) return false;
  for (let i = 0; i < asciiPrefix.length; i += 1) {
    if (bytes[i] !== asciiPrefix.charCodeAt(i)) return false;
  }
  return true;
}
