// ALTCHA proof-of-work bot check, served and verified by the server itself (no third party).
// Challenges are deterministic (the server knows the answer's counter and signs the derived key),
// so verifying costs two HMACs while solving costs the client tens of thousands of hashes.
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';

export const ALTCHA_ALGORITHM = 'SHA-256';
/** A challenge must be solved and submitted within this time. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
// The solver tries counters from 0 up, so the counter range is the work: about 5k-50k SHA-256 hashes,
// well under a second in a browser worker.
const COUNTER_MIN = 5_000;
const COUNTER_MAX = 50_000;
// Used solutions are remembered until their challenge expires; beyond this many the map is swept.
const SWEEP_AT = 10_000;

/** GET /altcha/challenge: what the ALTCHA widget (v2 proof of work) expects. */
export const AltchaChallengeSchema = z.object({
  // Every parameter is signed: the schema lists them all so serialisation drops none.
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});

/** The widget's payload: base64 of JSON { challenge, solution }. */
const PayloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(ALTCHA_ALGORITHM),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      // Required: a challenge without expiry would have to be remembered forever.
      expiresAt: z.number(),
    }),
    signature: z.string(),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string() }),
});

export type BotCheckResult = 'ok' | 'expired' | 'invalid' | 'reused';

/** Where used solutions are remembered: this process, or Redis shared by the instances. */
export interface UsedSolutions {
  /** Marks a challenge's solution used until its expiry; false when it already was. */
  use(signature: string, expiresAtMs: number, now: number): boolean | Promise<boolean>;
}

/** In this process: checked and recorded synchronously, so two submissions cannot both pass. */
class UsedHere implements UsedSolutions {
  /** challenge signature -> expiry (ms) of solutions already accepted */
  private readonly used = new Map<string, number>();

  use(signature: string, expiresAtMs: number, now: number): boolean {
    if (this.used.has(signature)) return false;
    this.used.set(signature, expiresAtMs);
    if (this.used.size > SWEEP_AT) this.sweep(now);
    return true;
  }

  private sweep(now: number): void {
    for (const [signature, expiresAt] of this.used) {
      if (expiresAt < now) this.used.delete(signature);
    }
  }
}

function deriveSecret(serverSecret: string, purpose: string): string {
  return createHmac('sha256', serverSecret).update(`altcha:${purpose}`).digest('hex');
}

function decodePayload(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

export class BotCheck {
  private readonly signatureSecret: string;
  private readonly keySecret: string;

  constructor(
    serverSecret: string,
    private readonly used: UsedSolutions = new UsedHere(),
  ) {
    this.signatureSecret = deriveSecret(serverSecret, 'challenge-signature');
    this.keySecret = deriveSecret(serverSecret, 'key-signature');
  }

  async createChallenge(now = Date.now()): Promise<Challenge> {
    return createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost: 1,
      counter: randomInt(COUNTER_MAX, COUNTER_MIN),
      deriveKey,
      expiresAt: new Date(now + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
  }

  /** Verifies a widget payload and uses it up: a second submission of the same solution is refused. */
  async verify(payloadText: string, now = Date.now()): Promise<BotCheckResult> {
    const parsed = PayloadSchema.safeParse(decodePayload(payloadText));
    if (!parsed.success) return 'invalid';
    const { challenge, solution } = parsed.data;
    if (challenge.parameters.expiresAt * 1000 < now) return 'expired';
    let result;
    try {
      result = await verifySolution({
        challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: this.signatureSecret,
        hmacKeySignatureSecret: this.keySecret,
      });
    } catch {
      // altcha-lib throws for parameters it cannot handle; to the client that is a bad solution.
      return 'invalid';
    }
    if (result.expired) return 'expired';
    if (!result.verified) return 'invalid';
    // Checked and recorded in one step after verification (one map operation, or SET NX in
    // Redis), so two concurrent submissions of one solution cannot both pass.
    const first = await this.used.use(
      challenge.signature,
      challenge.parameters.expiresAt * 1000,
      now,
    );
    return first ? 'ok' : 'reused';
  }
}
