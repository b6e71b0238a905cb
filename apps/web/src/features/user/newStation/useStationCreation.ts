// New station creation (SPEC.md sections 4 and 8): POST /v1/otp, then GET /v1/station_created every
// 20 s until the server reports success or error, or the owner cancels.
import {
  STATION_CREATION_POLL_MS,
  StationCreatedResponseSchema,
  type CreationPayload,
} from '@tinygs/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../../lib/api';
import { getSession } from '../../../lib/session';

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

/** What one creation run needs from the hook; `isCurrent` turns false once it is cancelled. */
interface CreationRun {
  isCurrent(): boolean;
  report(state: CreationState): void;
  succeeded(): void;
  setTimer(timer: ReturnType<typeof setTimeout>): void;
}

function schedulePoll(run: CreationRun): void {
  run.setTimer(setTimeout(() => void pollOnce(run), STATION_CREATION_POLL_MS));
}

async function pollOnce(run: CreationRun): Promise<void> {
  if (!run.isCurrent()) return;
  const session = getSession();
  if (!session) {
    run.report({ kind: 'error', text: CREATION_TEXTS.authMissing });
    return;
  }
  try {
    const answer = await api('/v1/station_created', StationCreatedResponseSchema, {
      auth: session,
    });
    if (!run.isCurrent()) return;
    if (answer.status === 'success') {
      run.report({ kind: 'success', text: answer.text });
      run.succeeded();
    } else if (answer.status === 'error') {
      run.report({ kind: 'error', text: answer.text });
    } else {
      run.report({ kind: 'polling', text: answer.text });
      schedulePoll(run);
    }
  } catch (error) {
    if (!run.isCurrent()) return;
    console.warn('Station creation status check failed', error);
    run.report({ kind: 'error', text: CREATION_TEXTS.checkFailed });
  }
}

async function initiate(run: CreationRun, userId: string, payload: CreationPayload) {
  const session = getSession();
  if (!session) {
    run.report({ kind: 'error', text: CREATION_TEXTS.notAuthenticated });
    return;
  }
  run.report({ kind: 'initiating' });
  try {
    const answer = await api(
      `/v1/otp?userId=${encodeURIComponent(userId)}`,
      StationCreatedResponseSchema,
      { method: 'POST', auth: session, body: payload },
    );
    if (!run.isCurrent()) return;
    if (answer.status === 'error') {
      run.report({ kind: 'error', text: `Failed to initiate: ${answer.text}` });
    } else if (answer.status === 'success') {
      run.report({ kind: 'success', text: answer.text });
      run.succeeded();
    } else {
      run.report({ kind: 'polling', text: answer.text });
      schedulePoll(run);
    }
  } catch (error) {
    if (!run.isCurrent()) return;
    console.warn('Station creation failed to start', error);
    run.report({ kind: 'error', text: `Failed to initiate: ${initiationErrorText(error)}` });
  }
}

export function useStationCreation(onSuccess?: () => void) {
  const [state, setState] = useState<CreationState>({ kind: 'idle' });
  // Each run has its own number; answers of a cancelled or replaced run are dropped.
  const runId = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onSuccessRef = useRef(onSuccess);
  useEffect(() => {
    onSuccessRef.current = onSuccess;
  }, [onSuccess]);

  const stop = useCallback(() => {
    runId.current += 1;
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  const start = useCallback(
    (userId: string, payload: CreationPayload) => {
      stop();
      const id = runId.current;
      return initiate(
        {
          isCurrent: () => id === runId.current,
          report: setState,
          succeeded: () => onSuccessRef.current?.(),
          setTimer: (t) => {
            timer.current = t;
          },
        },
        userId,
        payload,
      );
    },
    [stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState({ kind: 'cancelled', text: CREATION_TEXTS.cancelled });
  }, [stop]);

  return { state, start, cancel };
}
