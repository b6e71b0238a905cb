// The 3D satellite viewer for the station's satellite, seen from the station.
import { ViewerFrame } from '../../../components/ViewerFrame';

export function SatelliteViewer(props: { satellite: string; location: readonly [number, number] }) {
  return (
    <ViewerFrame
      satellite={props.satellite}
      groundStation={props.location}
      title={`Satellite viewer: ${props.satellite}`}
      heightPx={{ xs: 300, md: 420 }}
    />
  );
}
