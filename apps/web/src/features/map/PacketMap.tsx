import type { PacketMapProps } from './types';

export default function PacketMap(_props: PacketMapProps) {
  return <div />;
}
