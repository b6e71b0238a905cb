// One packet's page. A packet whose 60-s merge window has closed never changes again: its page is
// built once and kept in memory (and in browsers) for CLOSED_PACKET_TTL_S. One still inside its
// window is read every time, so a station joining it shows at once.
import { PACKET_MERGE_WINDOW_MS } from '@tinygs/contracts';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { packetDetail } from '../../repositories/public/packet-reads';
import { FastBody } from '../http-cache';
import { toPacketDetail } from './mapper';

/**
 * A packet whose merge window has closed never changes again; what its page shows of the
 * catalogue (display name, template) may, and shows within this time, in browsers too.
 */
export const CLOSED_PACKET_TTL_S = 300;
/**
 * Memory kept for closed packets' pages: a page of ten receptions is about 6 kB of JSON (12 kB
 * counted with its compressions), so this keeps about 20,000 of them. A cache that holds fewer
 * pages than the ones visitors cycle through keeps none of them useful (least recently used is
 * exactly what a rotation asks for next).
 */
const CLOSED_PACKET_CACHE_BYTES = 256 * 1024 * 1024;

export interface PacketPage {
  doc: FastBody;
  /** its merge window has closed: the page is final */
  closed: boolean;
}

export function packetService(ctx: AppContext) {
  // Closed packets' pages by id: built once, then answered from memory until the TTL.
  const closedPackets = new LRUCache<string, FastBody>({
    maxSize: CLOSED_PACKET_CACHE_BYTES,
    sizeCalculation: (doc) => doc.size,
    ttl: CLOSED_PACKET_TTL_S * 1000,
  });

  return {
    async page(id: string): Promise<PacketPage> {
      const kept = closedPackets.get(id);
      if (kept) return { doc: kept, closed: true };
      const found = await packetDetail(ctx.database, id);
      if (!found) throw notFound(`Unknown packet: ${id}`);
      const { packet, receptions } = found;
      const doc = FastBody.of(
        JSON.stringify(toPacketDetail(packet, receptions, packet.template || null)),
      );
      // Another station may still join a packet inside its merge window: not kept until then.
      const closed = packet.serverTime + PACKET_MERGE_WINDOW_MS < Date.now();
      if (closed) closedPackets.set(id, doc);
      return { doc, closed };
    },
  };
}
