// Solves the server's ALTCHA proof-of-work challenge (api/botCheckChallenge.ts) in the page. Hashing
// uses a plain-JavaScript SHA-256, not Web Crypto: browsers offer crypto.subtle only in a secure
// context, and a network reached over plain HTTP by a LAN name or a fresh VPS must let people log
// in all the same. The work is 5k-50k hashes, a fraction of a second either way.
import { sha256 } from '@noble/hashes/sha2.js';
import { solveChallenge, type Challenge, type DeriveKeyFunction } from 'altcha/lib';
import { requestChallenge } from '../api/botCheckChallenge';

/** The server signs SHA-256 challenges only (apps/server/src/accounts/bot-check.ts). */
export const deriveKey: DeriveKeyFunction = (parameters, salt, password) => {
  const keyLength = parameters.keyLength || 32;
  let key = new Uint8Array(salt.length + password.length);
  key.set(salt, 0);
  key.set(password, salt.length);
  // Each round hashes the whole previous digest; only the result is cut to the key length.
  for (let i = 0; i < Math.max(1, parameters.cost); i++) key = sha256(key);
  return Promise.resolve({ derivedKey: key.slice(0, keyLength) });
};

export class ChallengeUnavailableError extends Error {}

export interface SolvedChallenge {
  /** what POST /weblogin takes as the bot-check token */
  payload: string;
  /** when the server stops accepting it (ms) */
  expiresAtMs: number | null;
}

/** Fetches a challenge and solves it; null when aborted. */
export async function solveBotCheck(signal: AbortSignal): Promise<SolvedChallenge | null> {
  let challenge: Challenge;
  try {
    challenge = await requestChallenge(signal);
  } catch (err) {
    if (signal.aborted) return null;
    throw new ChallengeUnavailableError(String(err));
  }
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort());
  const solution = await solveChallenge({ challenge, controller, deriveKey });
  if (!solution) {
    if (signal.aborted) return null;
    throw new Error('no solution found');
  }
  const payload = btoa(
    JSON.stringify({
      challenge,
      solution: { counter: solution.counter, derivedKey: solution.derivedKey },
    }),
  );
  const expiresAt = challenge.parameters.expiresAt;
  return { payload, expiresAtMs: typeof expiresAt === 'number' ? expiresAt * 1000 : null };
}
