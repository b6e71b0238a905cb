// What the User Console reads (SPEC.md sections 6 and 8): the user, their broker credentials and
// their API tokens. Each key carries the session token: another login reads them again.
import { useQuery } from '@tanstack/react-query';
import {
  ApiTokenListResponseSchema,
  MqttCredentialsResponseSchema,
  UserResponseSchema,
} from '@tinygs/contracts';
import { api } from '../../../lib/api';
import type { Session } from '../../../lib/session';

export function userQueryKey(userId: string, session: Session | null) {
  return ['user', userId, session?.sessionToken] as const;
}

/** GET /v1/user?userId= with the session; not tried again (the page keeps its spinner). */
export function useUser(userId: string, session: Session | null) {
  return useQuery({
    queryKey: userQueryKey(userId, session),
    queryFn: ({ signal }) =>
      api(`/v1/user?userId=${encodeURIComponent(userId)}`, UserResponseSchema, {
        auth: session,
        signal,
      }),
    enabled: session !== null,
    retry: false,
  });
}

export function mqttCredentialsQueryKey(userId: string, session: Session | null) {
  return ['mqttcred', userId, session?.sessionToken] as const;
}

/** GET /v1/mqttcred?userId=, while the credentials dialog is open. */
export function useMqttCredentials(userId: string, session: Session | null, open: boolean) {
  return useQuery({
    queryKey: mqttCredentialsQueryKey(userId, session),
    queryFn: ({ signal }) =>
      api(`/v1/mqttcred?userId=${encodeURIComponent(userId)}`, MqttCredentialsResponseSchema, {
        auth: session,
        signal,
      }),
    enabled: open && session !== null,
    retry: false,
  });
}

export function apiTokensPath(userId: string): string {
  return `/v1/user/${encodeURIComponent(userId)}/tokens`;
}

export function apiTokensQueryKey(userId: string, session: Session | null) {
  return ['api-tokens', userId, session?.sessionToken] as const;
}

/** GET /v1/user/{id}/tokens, while the tokens dialog is open. */
export function useApiTokens(userId: string, session: Session | null, open: boolean) {
  return useQuery({
    queryKey: apiTokensQueryKey(userId, session),
    queryFn: ({ signal }) =>
      api(apiTokensPath(userId), ApiTokenListResponseSchema, { auth: session, signal }),
    enabled: open && session !== null,
    retry: false,
  });
}
