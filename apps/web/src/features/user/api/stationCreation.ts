// New station creation on the server (SPEC.md sections 4 and 8): POST /v1/otp starts it, then
// GET /v1/station_created is asked every 20 s while the answer stays pending.
import { useQuery } from '@tanstack/react-query';
import {
  STATION_CREATION_POLL_MS,
  StationCreatedResponseSchema,
  type CreationPayload,
  type StationCreatedResponse,
} from '@tinygs/contracts';
import { api } from '../../../lib/api';
import { getSession, type Session } from '../../../lib/session';

/** POST /v1/otp?userId=: the first status of the creation. */
export function initiateStationCreation(
  userId: string,
  payload: CreationPayload,
  session: Session,
): Promise<StationCreatedResponse> {
  return api(`/v1/otp?userId=${encodeURIComponent(userId)}`, StationCreatedResponseSchema, {
    method: 'POST',
    auth: session,
    body: payload,
  });
}

/** A status check found no session to send: nothing was asked. */
export class CreationAuthMissingError extends Error {
  constructor() {
    super('No session for the station creation status check');
    this.name = 'CreationAuthMissingError';
  }
}

export interface CreationPoll {
  /** one number per creation run: a new run starts a new query */
  run: number;
  /** the pending answer of the start, shown until the first check answers */
  first: StationCreatedResponse;
}

/**
 * GET /v1/station_created every STATION_CREATION_POLL_MS (the first one a full period after the
 * start) while the answer is pending; stops at success, error or a failed check. Off for null.
 */
export function useStationCreatedStatus(poll: CreationPoll | null) {
  return useQuery({
    queryKey: ['station-created', poll?.run ?? null],
    queryFn: ({ signal }) => {
      // The session is read at each check: a logout while waiting stops the checks.
      const session = getSession();
      if (!session) throw new CreationAuthMissingError();
      return api('/v1/station_created', StationCreatedResponseSchema, { auth: session, signal });
    },
    enabled: poll !== null,
    initialData: poll?.first,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) =>
      query.state.status !== 'error' && query.state.data?.status === 'pending'
        ? STATION_CREATION_POLL_MS
        : false,
  });
}
