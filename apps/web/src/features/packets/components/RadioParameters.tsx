import type { Packet } from '@tinygs/contracts';
import { FactList, type Fact } from '../../../components/FactList';
import { formatNumber } from '../../../lib/format';

function value(v: number | null, unit: string): string {
  return v === null ? '–' : `${v} ${unit}`.trim();
}

/** Radio parameters by modulation (SPEC.md section 2, Packet page). */
export function radioFacts(packet: Packet): Fact[] {
  const freq = { label: 'Frequency', value: `${formatNumber(packet.freq, 3)} MHz` };
  if (packet.mode === 'FSK') {
    return [
      { label: 'Mode', value: 'FSK' },
      freq,
      { label: 'Bitrate', value: value(packet.bitrate, 'kbps') },
      { label: 'Frequency deviation', value: value(packet.freqDev, 'kHz') },
      { label: 'Receive bandwidth', value: value(packet.rxBw, 'kHz') },
    ];
  }
  return [
    { label: 'Mode', value: 'LoRa' },
    freq,
    { label: 'Spreading factor', value: packet.sf === null ? '–' : `SF${packet.sf}` },
    { label: 'Coding rate', value: packet.cr === null ? '–' : `4/${packet.cr}` },
    { label: 'Bandwidth', value: value(packet.bw, 'kHz') },
  ];
}

export function RadioParameters({ packet }: { packet: Packet }) {
  return <FactList facts={radioFacts(packet)} />;
}
