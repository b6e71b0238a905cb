// Packet rows -> the packet lists: the latest-packets shape with the templates of the satellites
// it holds, and a retired satellite's latest and first packets.
import type { PacketsInaResponse, PacketsV2Response } from '@tinygs/contracts';
import type { PacketWithName } from '../../repositories/public/packet-reads';
import { toPacket } from '../wire';

export function toPacketsV2(
  rows: readonly PacketWithName[],
  templates: PacketsV2Response['templates'],
): PacketsV2Response {
  return { packets: rows.map(toPacket), templates };
}

export function toInactiveHistory(
  satellite: { name: string; webTemplate: string },
  latest: readonly PacketWithName[],
  first: readonly PacketWithName[] | undefined,
): PacketsInaResponse {
  return {
    latest: latest.map(toPacket),
    ...(first ? { first: first.map(toPacket) } : {}),
    templates: { [satellite.name]: satellite.webTemplate },
  };
}
