// What the User Console changes (SPEC.md sections 4 to 6): preferences, the broker password,
// sessions and API tokens. Each call carries the owner's session; the server checks it.
import {
  ApiTokenCreatedResponseSchema,
  MessageResponseSchema,
  MqttCredentialsResponseSchema,
  UserResponseSchema,
  type UserUpdateBody,
} from '@tinygs/contracts';
import { api } from '../../../lib/api';
import type { Session } from '../../../lib/session';
import { apiTokensPath } from './userQueries';

const userPath = (userId: string) => `/v1/user/${encodeURIComponent(userId)}`;

/** PUT /v1/user/{id}: e-mail, terms, newsletter and offline alerts. */
export function savePreferences(userId: string, session: Session | null, body: UserUpdateBody) {
  return api(userPath(userId), UserResponseSchema, { method: 'PUT', auth: session, body });
}

/** POST /v1/mqttcred/rotate: a new broker password; the answer is the new credentials. */
export function rotateMqttPassword(userId: string, session: Session) {
  return api(
    `/v1/mqttcred/rotate?userId=${encodeURIComponent(userId)}`,
    MqttCredentialsResponseSchema,
    { method: 'POST', auth: session },
  );
}

/** POST /v1/user/{id}/logout-all: ends every session of the account. */
export function logoutEverywhere(userId: string, session: Session) {
  return api(`${userPath(userId)}/logout-all`, MessageResponseSchema, {
    method: 'POST',
    auth: session,
  });
}

/** POST /v1/user/{id}/tokens: a new personal API token, shown once. */
export function createApiToken(userId: string, session: Session | null, name: string) {
  return api(apiTokensPath(userId), ApiTokenCreatedResponseSchema, {
    method: 'POST',
    auth: session,
    body: { name },
  });
}

/** DELETE /v1/user/{id}/tokens/{tokenId}. */
export function revokeApiToken(userId: string, session: Session | null, tokenId: string) {
  return api(`${apiTokensPath(userId)}/${encodeURIComponent(tokenId)}`, MessageResponseSchema, {
    method: 'DELETE',
    auth: session,
  });
}
