// New station creation (SPEC.md sections 4 and 8): POST /v1/otp, then GET /v1/station_created every
// 20 s until the server reports success or error, or the owner cancels.
import type { CreationPayload } from '@tinygs/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { getSession } from '../../../lib/session';
import {
  CreationAuthMissingError,
  initiateStationCreation,
  useStationCreatedStatus,
  type CreationPoll,
} from '../api/stationCreation';

export const CREATION_TEXTS = {
  cancelled: 'Creation process cancelled. You can amend the information and try again.',
  unexpected: 'An unexpected error occurred during initiation.',
  checkFailed: 'Error while checking station status. Creation may have failed or been interrupted.',
  authMissing: 'Authentication details missing. Cannot check status.',
  notAuthenticated: 'User not authenticated. Please log in.',
} as const;

export type CreationState =
  | { kind: 'idle' }
  | { kind: 'initiating' }
  | { kind: 'polling'; text: string }
  | { kind: 'success'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'cancelled'; text: string };

/** The response text of a failed start, else the error's message, else the generic text. */
export function initiationErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body;
    if (typeof body === 'string' && body.trim()) return body.trim();
    if (body && typeof body === 'object') {
      const fields = body as { message?: unknown; error?: unknown };
      if (typeof fields.message === 'string' && fields.message) return fields.message;
      if (typeof fields.error === 'string' && fields.error) return fields.error;
    }
    return CREATION_TEXTS.unexpected;
  }
  if (error instanceof Error && error.message) return error.message;
  return CREATION_TEXTS.unexpected;
}

export function useStationCreation(onSuccess?: () => void) {
  // Before and without polling: idle, initiating, a failed or finished start, cancelled.
  const [local, setLocal] = useState<CreationState>({ kind: 'idle' });
  const [poll, setPoll] = useState<CreationPoll | null>(null);
  // Each run has its own number; answers of a cancelled or replaced run are dropped.
  const runId = useRef(0);
  const onSuccessRef = useRef(onSuccess);
  useEffect(() => {
    onSuccessRef.current = onSuccess;
  }, [onSuccess]);

  const status = useStationCreatedStatus(poll);
  let state: CreationState = local;
  if (poll) {
    if (status.isError)
      state = {
        kind: 'error',
        text:
          status.error instanceof CreationAuthMissingError
            ? CREATION_TEXTS.authMissing
            : CREATION_TEXTS.checkFailed,
      };
    else {
      const answer = status.data ?? poll.first;
      if (answer.status === 'success') state = { kind: 'success', text: answer.text };
      else if (answer.status === 'error') state = { kind: 'error', text: answer.text };
      else state = { kind: 'polling', text: answer.text };
    }
  }
  const succeededRun = poll && state.kind === 'success' ? poll.run : null;
  useEffect(() => {
    if (succeededRun !== null) onSuccessRef.current?.();
  }, [succeededRun]);

  const start = useCallback(async (userId: string, payload: CreationPayload) => {
    runId.current += 1;
    const id = runId.current;
    setPoll(null);
    const session = getSession();
    if (!session) {
      setLocal({ kind: 'error', text: CREATION_TEXTS.notAuthenticated });
      return;
    }
    setLocal({ kind: 'initiating' });
    try {
      const answer = await initiateStationCreation(userId, payload, session);
      if (id !== runId.current) return;
      if (answer.status === 'error') {
        setLocal({ kind: 'error', text: `Failed to initiate: ${answer.text}` });
      } else if (answer.status === 'success') {
        setLocal({ kind: 'success', text: answer.text });
        onSuccessRef.current?.();
      } else {
        setPoll({ run: id, first: answer });
      }
    } catch (error) {
      if (id !== runId.current) return;
      console.warn('Station creation failed to start', error);
      setLocal({ kind: 'error', text: `Failed to initiate: ${initiationErrorText(error)}` });
    }
  }, []);

  const cancel = useCallback(() => {
    runId.current += 1;
    setPoll(null);
    setLocal({ kind: 'cancelled', text: CREATION_TEXTS.cancelled });
  }, []);

  return { state, start, cancel };
}
