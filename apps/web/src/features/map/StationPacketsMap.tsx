import type { StationPacketsMapProps } from './types';

export default function StationPacketsMap(_props: StationPacketsMapProps) {
  return <div />;
}
