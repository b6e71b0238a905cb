import type { WorldMapProps } from './types';

export default function WorldMap(_props: WorldMapProps) {
  return <div />;
}
