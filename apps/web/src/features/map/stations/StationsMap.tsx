import type { StationsMapProps } from '../types';

export default function StationsMap(_props: StationsMapProps) {
  return <div />;
}
