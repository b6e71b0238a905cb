// The owner's calls on a station (SPEC.md section 7). Every one sends the session headers.
import {
  MessageResponseSchema,
  PictureUploadResponseSchema,
  type StationEditBody,
  type StationOperateBody,
} from '@tinygs/contracts';
import { api, apiText } from '../../../lib/api';
import type { Session } from '../../../lib/session';
import { stationApiPath } from './stationLoader';

export function saveStationEdit(stationId: string, session: Session | null, body: StationEditBody) {
  return api(stationApiPath(stationId), MessageResponseSchema, {
    method: 'PUT',
    auth: session,
    body,
  });
}

export function saveStationOperate(
  stationId: string,
  session: Session | null,
  body: StationOperateBody,
) {
  return api(stationApiPath(stationId), MessageResponseSchema, {
    method: 'PUT',
    auth: session,
    body,
  });
}

export function deleteStation(stationId: string, session: Session | null) {
  return api(stationApiPath(stationId), MessageResponseSchema, { method: 'DELETE', auth: session });
}

/** POST /v2/station/{id}/tx with the bytes as base64. */
export function transmit(stationId: string, session: Session | null, base64: string) {
  const path = stationApiPath(stationId).replace('/v1/', '/v2/');
  return api(`${path}/tx`, MessageResponseSchema, {
    method: 'POST',
    auth: session,
    body: { tx: base64 },
  });
}

/** POST /v1/station/{id}/test, empty body. */
export function sendTestFrame(stationId: string, session: Session | null) {
  return api(`${stationApiPath(stationId)}/test`, MessageResponseSchema, {
    method: 'POST',
    auth: session,
  });
}

/** Multipart field `upload`; the answer is the new picture's short id as text. */
export async function uploadPicture(
  stationId: string,
  session: Session | null,
  file: Blob,
  fileName: string,
): Promise<string> {
  const form = new FormData();
  form.append('upload', file, fileName);
  const text = await apiText(`${stationApiPath(stationId)}/image`, {
    method: 'POST',
    auth: session,
    body: form,
  });
  return PictureUploadResponseSchema.parse(text.trim());
}

export function removePicture(stationId: string, session: Session | null, pictureId: string) {
  return api(
    `${stationApiPath(stationId)}/image/${encodeURIComponent(pictureId)}`,
    MessageResponseSchema,
    { method: 'DELETE', auth: session },
  );
}
