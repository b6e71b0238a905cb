import { ViewerFrame } from '../../../components/ViewerFrame';

/** The 3D orbit of a satellite on the satellite page. */
export function OrbitViewer({ satellite }: { satellite: string }) {
  return (
    <ViewerFrame
      satellite={satellite}
      title={`3D orbit of ${satellite}`}
      heightPx={{ xs: 320, md: 480 }}
    />
  );
}
