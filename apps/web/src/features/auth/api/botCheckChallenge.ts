// GET /altcha/challenge: a new proof-of-work challenge for every bot check. Each one is signed for
// one use and expires, so it is asked for on each check and never cached.
import type { Challenge } from 'altcha/lib';
import { api, type ResponseParser } from '../../../lib/api';

export const ALTCHA_CHALLENGE_PATH = '/altcha/challenge';

const ChallengeParser: ResponseParser<Challenge> = {
  parse(body) {
    const c = body as Partial<Challenge> | null;
    if (typeof c?.parameters?.nonce !== 'string' || typeof c.parameters.salt !== 'string')
      throw new Error('not an ALTCHA challenge');
    return c as Challenge;
  },
};

export function requestChallenge(signal: AbortSignal): Promise<Challenge> {
  return api(ALTCHA_CHALLENGE_PATH, ChallengeParser, { signal });
}
